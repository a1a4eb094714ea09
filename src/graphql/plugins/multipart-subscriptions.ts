/**
 * Subscriptions over Apollo's multipart HTTP protocol: what Apollo Client's HttpLink asks for when
 * no split link sends subscriptions elsewhere (`accept: multipart/mixed;boundary=graphql;
 * subscriptionSpec=1.0, application/graphql-response+json, application/json;q=0.9`). yoga 5 answers
 * subscriptions only as SSE or, for a single result, JSON: that request got a 406.
 *
 * The answer (Apollo's "Multipart HTTP protocol for GraphQL subscriptions"): `multipart/mixed;
 * boundary="graphql";subscriptionSpec="1.0"`, one JSON part per event as `{"payload": <result>}`,
 * `{}` as a heartbeat while nothing happens, `{"payload": null, "errors": [...]}` when the stream
 * fails, and the closing boundary when it completes. Each part is followed at once by the next
 * boundary: Apollo's reader hands a part over only when it sees the boundary after it.
 */
import type { ExecutionResult } from 'graphql';
import { isAsyncIterable, processRegularResult, type Plugin } from 'graphql-yoga';

const BOUNDARY = '\r\n--graphql';
const PART_HEADERS = '\r\ncontent-type: application/json; charset=utf-8\r\n\r\n';

type ResultProcessor = Parameters<Parameters<NonNullable<Plugin['onResultProcess']>>[0]['setResultProcessor']>[0];
type FetchAPI = Parameters<ResultProcessor>[1];

/** Whether the Accept header names multipart/mixed with a subscriptionSpec parameter (any version: there is one). */
export function asksMultipartSubscription(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    return type === 'multipart/mixed' && params.some((param) => param.startsWith('subscriptionspec='));
  });
}

export function useMultipartSubscriptions({ heartbeatMs }: { heartbeatMs: number }): Plugin {
  const subscriptions = new WeakSet<Request>();
  const processor = multipartSubscriptionProcessor(heartbeatMs);
  return {
    onSubscribe({ args }) {
      const request = (args.contextValue as { request?: Request }).request;
      if (request) subscriptions.add(request);
    },
    // After yoga's own processors (they run first): this one wins for the requests it takes.
    onResultProcess({ request, setResultProcessor }) {
      if (subscriptions.has(request) && asksMultipartSubscription(request)) setResultProcessor(processor, 'multipart/mixed');
    },
  };
}

/** The answer for one subscription: its events as parts until it completes, or its client leaves. */
export function multipartSubscriptionProcessor(heartbeatMs: number): ResultProcessor {
  return (result, fetchAPI) => {
    const encoder = new fetchAPI.TextEncoder();
    // A subscription that failed before its stream started (a bad argument) is one result.
    const events: AsyncIterator<ExecutionResult> = isAsyncIterable(result)
      ? result[Symbol.asyncIterator]()
      : (async function* () {
          yield result as ExecutionResult;
        })();
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    let closed = false;
    const stop = () => {
      closed = true;
      clearInterval(heartbeat);
    };
    const body = new fetchAPI.ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(BOUNDARY));
        heartbeat = setInterval(() => controller.enqueue(encoder.encode(`${PART_HEADERS}{}${BOUNDARY}`)), heartbeatMs);
        heartbeat.unref?.();
      },
      async pull(controller) {
        let json: string;
        try {
          const next = await events.next();
          if (closed) return;
          if (next.done) {
            stop();
            controller.enqueue(encoder.encode('--\r\n'));
            controller.close();
            return;
          }
          json = `{"payload":${await serialized(next.value, fetchAPI)}}`;
        } catch {
          if (closed) return;
          // The stream itself failed (every failure of a field is in its payload, as over SSE).
          stop();
          const error = { message: 'The subscription stopped unexpectedly', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
          controller.enqueue(encoder.encode(`${PART_HEADERS}${JSON.stringify({ payload: null, errors: [error] })}${BOUNDARY}--\r\n`));
          controller.close();
          return;
        }
        if (!closed) controller.enqueue(encoder.encode(`${PART_HEADERS}${json}${BOUNDARY}`));
      },
      async cancel() {
        stop();
        await events.return?.();
      },
    });
    return new fetchAPI.Response(body, {
      status: 200,
      headers: { 'content-type': 'multipart/mixed; boundary="graphql"; subscriptionSpec="1.0"', 'cache-control': 'no-store' },
    });
  };
}

/** One result as yoga writes it for JSON and SSE (internal extensions such as `http` left out). */
function serialized(result: ExecutionResult, fetchAPI: FetchAPI): Promise<string> {
  return Promise.resolve(processRegularResult(result, fetchAPI, 'application/json')).then((response) => response.text());
}
