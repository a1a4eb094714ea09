import { mapAsyncIterator, type Plugin } from 'graphql-yoga';
import type { ServerResponse } from 'node:http';
import { Cancellation, untilClientLeaves, withDeadline } from '../../lib/cancellation.js';

/**
 * The whole time a GraphQL request may take: past it the client gets `response()` (a clear 504) and
 * the request's cancellation aborts its upstream work. The cancellation (the context's signal, see
 * context.ts) also aborts when the client goes away. Not whatwg-node's useRequestDeadline: it
 * composes AbortSignals per request (AbortSignal.any, WeakRefs, a FinalizationRegistry), which on
 * Node 20 all die in the old generation: the GraphQL miss rows' p99 in `npm run bench`.
 *
 * An answer in parts (@defer, @stream) is under way once its first part is: its later parts run
 * under the same deadline, past which its cancellation aborts with `expired()` (what the fields
 * still waiting then answer). Subscriptions last as long as their client stays.
 */
export function useRequestDeadline(
  timeoutMs: number,
  response: () => Response,
  expired: () => Error,
): Plugin<object, { cancellation?: Cancellation; deadline?: number }> {
  const subscriptions = new WeakSet<Request>();
  return {
    onRequest({ request, serverContext, requestHandler, setRequestHandler }) {
      // On node:http the response tells when the client left; under yoga.fetch the request's signal does.
      const { res } = serverContext as { res?: ServerResponse };
      const cancellation = res ? untilClientLeaves(res) : new Cancellation();
      if (!res) request.signal.addEventListener('abort', () => cancellation.abort(request.signal.reason), { once: true });
      serverContext.cancellation = cancellation;
      serverContext.deadline = Date.now() + timeoutMs;
      setRequestHandler((req, context) => withDeadline(async () => requestHandler(req, context), timeoutMs, cancellation, response));
    },
    onSubscribe({ args }) {
      const request = (args.contextValue as { request?: Request }).request;
      if (request) subscriptions.add(request);
    },
    onResultProcess({ request, result, setResult, serverContext }) {
      const { cancellation, deadline } = serverContext as { cancellation?: Cancellation; deadline?: number };
      if (!(Symbol.asyncIterator in result) || subscriptions.has(request) || !cancellation || deadline === undefined) return;
      const timer = setTimeout(() => cancellation.abort(expired()), Math.max(0, deadline - Date.now()));
      setResult(
        mapAsyncIterator(
          result,
          (payload) => payload,
          undefined,
          () => clearTimeout(timer),
        ),
      );
    },
  };
}
