/**
 * The node:http request listener: assigns the request id (echoed in `x-request-id`), writes the
 * access log line, and sends each request to the REST layer or to yoga. One place for both paths,
 * and the last line of defence: whatever throws below answers a generic 500 naming the request id
 * (never a stack trace) and is logged once, at `error`, with that id.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { sendNodeResponse } from '@whatwg-node/server';
import type { Logger } from 'pino';
import type { Drain } from './drain.js';
import { errorFields, redactPath } from '../observe/logger.js';
import { requestIdFrom } from '../http/request-id.js';
import type { RestHandler } from '../rest/handler.js';
import { hasValidHost } from '../http/host-header.js';
import type { ResponseCache, ViaYoga } from './response-cache.js';
import { ServedStats } from './served-stats.js';
import { fastifyError, routeNotFound } from '../rest/responses.js';
import type { SatgateServer } from '../graphql/yoga.js';
import type { Tracing } from '../observe/tracing.js';
import { yogaRequest } from '../http/yoga-request.js';
import type { StartsGate } from './subscription-starts-gate.js';

/**
 * The second part of every server context yoga gets. Given one part, @whatwg-node/server makes it
 * the prototype of a new object per request (isolateObject); given two, it copies both into a plain
 * object. A request's context made a prototype outlived the scavenges after its answer, with all it
 * holds: 5,000 nested lists sent as a variable were promoted whole on every request, 2.5 MB a
 * scavenge against 0.2 MB with this (docs/notes/2026-11-27-warm-keys-and-promotion.md). Nothing
 * in yoga or the plugins calls `waitUntil`.
 */
const NO_WAIT_UNTIL = { waitUntil: () => {} };
/**
 * Settles once the I/O already waiting has been handled (setImmediate runs after the poll phase).
 * Every request yoga executes waits for it, so answers that are only written (stored results,
 * REST cache hits) never queue behind executions that arrived with them, a burst of hostile
 * documents included. An executed request pays a turn of the event loop, not CPU.
 */
const afterWaitingIo = () => new Promise<void>((resolve) => setImmediate(resolve));
/** handleRequest takes any number of context parts, as the adapter's `fetch` is typed to; its type names one. */
type HandleWithParts = (request: Request, ...parts: object[]) => Promise<Response> | Response;

/** What the listener sends requests to; the optional parts are off when absent. */
export interface ListenerParts {
  yoga: SatgateServer;
  rest: RestHandler;
  logger: Logger;
  drain?: Drain;
  responses?: ResponseCache;
  tracing?: Tracing;
  startsGate?: StartsGate;
}

export function createRequestListener({ yoga, rest, logger, drain, responses, tracing, startsGate }: ListenerParts): RequestListener {
  const unexpected = (error: unknown, requestId: string) => logger.error({ requestId, error: errorFields(error) }, 'unexpected error');
  const failed = (res: ServerResponse, requestId: string) => (error: unknown) => {
    unexpected(error, requestId);
    res.destroy();
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    const requestId = requestIdFrom(req.headers['x-request-id']);
    const identify = () => res.setHeader('x-request-id', requestId);
    const stats = new ServedStats();
    tracing?.traceRequest(req, res, stats, requestId);
    if (logger.isLevelEnabled('info')) {
      const started = performance.now();
      const received = req.url ?? '/';
      const method = req.method;
      // A response closes once: on(), without once()'s wrapper.
      res.on('close', () => {
        logger.info(
          {
            requestId,
            method,
            // Platform keys travel in REST paths: the logged path never holds one.
            path: redactPath(received.split('?', 1)[0] ?? '/'),
            // Gone before any answer: 499, as the metrics count it, not the 200 node holds by default.
            status: res.headersSent ? res.statusCode : 499,
            ms: Math.round((performance.now() - started) * 10) / 10,
            operationName: stats.operationName,
            upstreamCalls: stats.upstreamCalls,
            cache: stats.cache,
          },
          'request',
        );
      });
    }
    const target = originForm(req.url ?? '/');
    if (target === undefined) {
      identify();
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Bad request target');
      return;
    }
    if (!hasValidHost(req)) {
      identify();
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Bad Host header');
      return;
    }
    req.url = target;
    // The REST layer and the response fast path name the request themselves: their head goes to
    // node whole, which node writes without a per-header pass only when no header was set before it.
    const isRest = rest.handles(req.method, req.url);
    const fast = !isRest && (responses?.accepts(req) ?? false);
    const namesItself = isRest || fast;
    if (!namesItself) identify();
    if (drain && !drain.admit(req.url, res)) {
      if (namesItself) identify();
      return refuseWhileDraining(res, isRest);
    }
    if (isRest) {
      rest.serve(req, res, requestId, stats).catch((error: unknown) => {
        unexpected(error, requestId);
        if (res.headersSent) return res.destroy();
        const { status, headers, body } = fastifyError(500, `Unexpected error (request ${requestId})`);
        res.writeHead(status, { ...headers, 'x-request-id': requestId }).end(body);
      });
      return;
    }
    // A subscription from a client past its minute's starts: refused before yoga sees it.
    if (startsGate?.(req, res, requestId)) return;
    // HEAD is GET without the body (RFC 9110 9.3.2), on every path yoga serves: node writes no body
    // for a HEAD request, whatever the handler writes. (The REST layer answers HEAD itself.)
    const asked = req.method ?? 'GET';
    if (asked === 'HEAD') req.method = 'GET';
    // yoga's own listener would answer a throwing plugin hook with the error's stack as the body.
    const viaYoga: ViaYoga = (extra, body) =>
      afterWaitingIo()
        .then(() => {
          const context = Object.assign({ req, res, requestId, stats }, extra);
          // Never yoga's own node adapter: it builds the URL from the Host header (yoga-request.ts).
          return (yoga.handleRequest as HandleWithParts)(yogaRequest(req, yoga.fetchAPI, body), context, NO_WAIT_UNTIL);
        })
        .then((response) => (asked === 'HEAD' ? headOfStream(response, yoga.fetchAPI.Response) : response))
        .catch((error: unknown) => {
          unexpected(error, requestId);
          return yoga.fetchAPI.Response.json(
            { errors: [{ message: `Unexpected error (request ${requestId})`, extensions: { code: 'INTERNAL_SERVER_ERROR', requestId } }] },
            { status: 500 },
          );
        });
    // The response fast path: repeated GraphQL documents answered from stored results (response-cache.ts).
    if (responses && fast) {
      responses.serve(req, res, { requestId, stats }, viaYoga).catch(failed(res, requestId));
      return;
    }
    viaYoga({})
      .then((response) =>
        sendNodeResponse(
          response.status === 404 && response.body === null ? notFound(asked, req.url ?? '/', response) : response,
          res,
          req,
          true,
        ),
      )
      .catch(failed(res, requestId));
  };
}

/** Media types of answers that stream: a subscription's (SSE, multipart) or an incremental one. */
const STREAMED = /^(?:text\/event-stream|multipart\/mixed)\b/i;

/**
 * A HEAD's answer when GET's would stream: its head alone, at once, and the stream cancelled (which
 * ends its subscription). node writes a HEAD's head only when the response ends, so a stream that
 * never ends would hold the subscription, and the client, with nothing sent. yoga's streams make
 * their iterator on the first read and end it when cancelled: cancelled unread, the subscription's
 * seat was never given back.
 */
function headOfStream(response: Response, Response: typeof globalThis.Response): Response {
  if (!response.body || !STREAMED.test(response.headers.get('content-type') ?? '')) return response;
  const reader = response.body.getReader();
  reader.read().then(
    () => reader.cancel().catch(() => {}),
    () => {},
  );
  return new Response(null, { status: response.status, headers: response.headers });
}

/**
 * The request target in origin form (`/path?query`). An absolute-form target (`http://host/path`,
 * RFC 9112 3.2.2) is cut to its path as received, still encoded: a URL parser would resolve
 * `%2e%2e`. Anything else (`*`, garbage) has no path to serve.
 */
function originForm(target: string): string | undefined {
  if (target.startsWith('/')) return target;
  const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target);
  if (!authority) return undefined;
  const rest = target.slice(authority[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * A path nothing serves: the upstreams' route 404 (what a REST client gets for a path it mistyped,
 * `/ORDINALS/…` say, from them), with yoga's headers (CORS), rather than yoga's empty 404.
 */
function notFound(method: string, target: string, empty: Response): Response {
  const { status, headers, body } = routeNotFound(method, target);
  const answer = new Response(body as string, { status, headers: empty.headers });
  for (const [name, value] of Object.entries(headers)) answer.headers.set(name, value);
  return answer;
}

/** A new request during shutdown: 503, and the connection closed so the client goes elsewhere. */
function refuseWhileDraining(res: ServerResponse, isRest: boolean): void {
  const message = 'The gateway is shutting down';
  const body = isRest
    ? (fastifyError(503, message).body as string)
    : JSON.stringify({ errors: [{ message, extensions: { code: 'SHUTTING_DOWN' } }] });
  res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', connection: 'close' }).end(body);
}
