/**
 * The node:http request listener: assigns the request id (echoed in `x-request-id`), writes the
 * access log line, and sends each request to the REST layer or to yoga. One place for both paths.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { redactPath } from './logger.js';
import { requestIdFrom } from './request-id.js';
import type { RestHandler } from './rest/handler.js';
import type { SatgateServer } from './server.js';

export function createRequestListener(yoga: SatgateServer, rest: RestHandler, logger: Logger): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const requestId = requestIdFrom(req.headers['x-request-id']);
    res.setHeader('x-request-id', requestId);
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
          },
          'request',
        );
      });
    }
    if (rest.handles(req.method, req.url)) {
      rest.serve(req, res, requestId).catch((error: unknown) => {
        logger.error({ err: error instanceof Error ? error.message : String(error), requestId }, 'REST request failed');
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
      return;
    }
    void yoga.handle(req, res, { requestId } as object);
  };
}
