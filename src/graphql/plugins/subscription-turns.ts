/**
 * A request that opens a subscription over HTTP (SSE, or Apollo's multipart protocol) waits for a
 * set-up turn (live/setup-turns.ts) before its document is parsed. Such requests are told by their
 * Accept header alone, before any parsing: an answer in parts over SSE or multipart (@defer,
 * @stream) takes a turn too, and so does a urql query (urql names SSE beside JSON on every one),
 * which costs it a turn of the loop, nothing worth counting.
 */
import type { Plugin } from 'graphql-yoga';
import { setupTurn } from '../../live/setup-turns.js';
import { isLongLived } from '../../http/long-lived.js';

export function useSubscriptionTurns(): Plugin {
  return {
    onParams({ request }) {
      if (isLongLived(request.headers.get('accept'))) return setupTurn();
      return undefined;
    },
  };
}
