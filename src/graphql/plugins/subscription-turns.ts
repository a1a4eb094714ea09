/**
 * A request that opens a subscription over HTTP (SSE, or Apollo's multipart protocol) waits for a
 * set-up turn (live/setup-turns.ts) before its document is parsed. Such requests are told before
 * any parsing: by an Accept header that takes only a stream, or, where it also takes JSON (urql
 * names SSE beside JSON on every query), by the word `subscription` in the document's text, which
 * every subscription operation starts with. A query that merely mentions it, or a persisted one
 * sent without its text, takes a turn too, which costs it a turn of the loop, nothing worth counting.
 */
import type { Plugin } from 'graphql-yoga';
import { setupTurn } from '../../live/setup-turns.js';
import { isLongLived, isStreamOnly } from '../../http/long-lived.js';

const MAY_SUBSCRIBE = /\bsubscription\b/;

/** Whether a request with this Accept header and document text waits for a set-up turn. */
export function takesSetupTurn(accept: string | null, query: string | undefined): boolean {
  if (isStreamOnly(accept)) return true;
  return isLongLived(accept) && (query === undefined || MAY_SUBSCRIBE.test(query));
}

export function useSubscriptionTurns(): Plugin {
  return {
    onParams({ request, params }) {
      if (takesSetupTurn(request.headers.get('accept'), params.query)) return setupTurn();
      return undefined;
    },
  };
}
