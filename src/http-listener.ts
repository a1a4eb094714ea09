/**
 * The node:http request listener: assigns the request id (echoed in `x-request-id`), writes the
 * access log line, and sends each request to the REST layer or to yoga. One place for both paths.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Drain } from './drain.js';
import { redactPath } from './logger.js';
import { RequestStats } from './request-stats.js';
import { requestIdFrom } from './request-id.js';
import type { RestHandler } from './rest/handler.js';
import { fastifyError } from './rest/responses.js';
import type { SatgateServer } from './server.js';

export function createRequestListener(yoga: SatgateServer, rest: RestHandler, logger: Logger, drain?: Drain): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const requestId = requestIdFrom(req.headers['x-request-id']);
    res.setHeader('x-request-id', requestId);
    const stats = new RequestStats();
    if (logger.isLevelEnabled('info')) {
      const started = performance.now();
      res.once('close', () => {
        logger.info(
          {
            requestId,
            method: req.method,
            // Platform keys travel in REST paths: the logged path never holds one.
            path: redactPath((req.url ?? '/').split('?', 1)[0] ?? '/'),
            status: res.statusCode,
            ms: Math.round((performance.now() - started) * 10) / 10,
            operationName: stats.operationName,
            upstreamCalls: stats.upstreamCalls,
            cache: stats.cache,
          },
          'request',
        );
      });
    }
    const isRest = rest.handles(req.method, req.url);
    if (drain && !drain.admit(req.url, res)) return refuseWhileDraining(res, isRest);
    if (isRest) {
      rest.serve(req, res, requestId, stats).catch((error: unknown) => {
        logger.error({ err: error instanceof Error ? error.message : String(error), requestId }, 'REST request failed');
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
      return;
    }
    void yoga.handle(req, res, { requestId, stats } as object);
  };
}

/** A new request during shutdown: 503, and the connection closed so the client goes elsewhere. */
function refuseWhileDraining(res: ServerResponse, isRest: boolean): void {
  const message = 'The gateway is shutting down';
  const body = isRest
    ? (fastifyError(503, message).body as string)
    : JSON.stringify({ errors: [{ message, extensions: { code: 'SHUTTING_DOWN' } }] });
  res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', connection: 'close' }).end(body);
}
