import type { Plugin } from 'graphql-yoga';
import type { ServerResponse } from 'node:http';
import { Cancellation, untilClientLeaves, withDeadline } from '../../lib/cancellation.js';

/**
 * The whole time a GraphQL request may take: past it the client gets `response()` (a clear 504) and
 * the request's cancellation aborts its upstream work. The cancellation (the context's signal, see
 * context.ts) also aborts when the client goes away. Not whatwg-node's useRequestDeadline: it
 * composes AbortSignals per request (AbortSignal.any, WeakRefs, a FinalizationRegistry), which on
 * Node 20 all die in the old generation: the GraphQL miss rows' p99 in `npm run bench`.
 */
export function useRequestDeadline(timeoutMs: number, response: () => Response): Plugin<object, { cancellation?: Cancellation }> {
  return {
    onRequest({ request, serverContext, requestHandler, setRequestHandler }) {
      // On node:http the response tells when the client left; under yoga.fetch the request's signal does.
      const { res } = serverContext as { res?: ServerResponse };
      const cancellation = res ? untilClientLeaves(res) : new Cancellation();
      if (!res) request.signal.addEventListener('abort', () => cancellation.abort(request.signal.reason), { once: true });
      serverContext.cancellation = cancellation;
      setRequestHandler((req, context) => withDeadline(async () => requestHandler(req, context), timeoutMs, cancellation, response));
    },
  };
}
