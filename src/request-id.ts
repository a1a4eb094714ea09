/**
 * useRequestId: every request gets an id (the client's `x-request-id` when it is a sane token),
 * echoed in the response header, passed upstream, and written in every log line about it.
 */
import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';

const ids = new WeakMap<Request, string>();
const SANE_ID = /^[\w.-]{1,64}$/;

export function requestIdOf(request: Request): string {
  let id = ids.get(request);
  if (!id) {
    const offered = request.headers.get('x-request-id');
    id = offered && SANE_ID.test(offered) ? offered : randomUUID();
    ids.set(request, id);
  }
  return id;
}

export function useRequestId(): Plugin {
  return {
    onRequest({ request }) {
      requestIdOf(request);
    },
    onResponse({ request, response }) {
      response.headers.set('x-request-id', requestIdOf(request));
    },
  };
}
