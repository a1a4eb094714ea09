/**
 * Every request gets an id: the client's `x-request-id` when it is a sane token, else a new UUID.
 * The HTTP listener assigns it, echoes it in the response header and logs it; it is passed
 * upstream and named in masked errors.
 */
import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';

const SANE_ID = /^[\w.-]{1,64}$/;
const ids = new WeakMap<Request, string>();

export function requestIdFrom(offered: string | string[] | null | undefined): string {
  return typeof offered === 'string' && SANE_ID.test(offered) ? offered : randomUUID();
}

/** The id of a request yoga handles (assigned by the listener; minted here under yoga.fetch). */
export function requestIdOf(request: Request): string {
  let id = ids.get(request);
  if (!id) {
    id = requestIdFrom(request.headers.get('x-request-id'));
    ids.set(request, id);
  }
  return id;
}

/** Binds the listener's id (server context `requestId`) to yoga's Request. */
export function useRequestId(): Plugin {
  return {
    onRequest({ request, serverContext }) {
      const id = (serverContext as { requestId?: unknown }).requestId;
      if (typeof id === 'string') ids.set(request, id);
    },
  };
}
