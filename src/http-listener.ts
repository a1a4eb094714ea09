/**
 * The node:http request listener: assigns the request id (echoed in `x-request-id`), writes the
 * access log line, and sends each request to the REST layer or to yoga. One place for both paths,
 * and the last line of defence: whatever throws below answers a generic 500 naming the request id
 * (never a stack trace) and is logged once, at `error`, with that id.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { sendNodeResponse } from '@whatwg-node/server';
import type { Logger } from 'pino';
import { errorFields, redactPath } from './logger.js';
import { requestIdFrom } from './request-id.js';
import type { RestHandler } from './rest/handler.js';
import { fastifyError } from './rest/responses.js';
import type { SatgateServer } from './server.js';

export function createRequestListener(yoga: SatgateServer, rest: RestHandler, logger: Logger): RequestListener {
  const unexpected = (error: unknown, requestId: string) =>
    logger.error({ requestId, err: errorFields(error) }, 'unexpected error');
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
        unexpected(error, requestId);
        if (res.headersSent) return res.destroy();
        const { status, headers, body } = fastifyError(500, `Unexpected error (request ${requestId})`);
        res.writeHead(status, headers).end(body);
      });
      return;
    }
    // yoga's own listener would answer a throwing plugin hook with the error's stack as the body.
    Promise.resolve()
      .then(() => yoga.handleNodeRequestAndResponse(req, res, { requestId } as object))
      .catch((error: unknown) => {
        unexpected(error, requestId);
        return yoga.fetchAPI.Response.json(
          { errors: [{ message: `Unexpected error (request ${requestId})`, extensions: { code: 'INTERNAL_SERVER_ERROR', requestId } }] },
          { status: 500 },
        );
      })
      .then((response) => sendNodeResponse(response, res, req, true))
      .catch((error: unknown) => {
        unexpected(error, requestId);
        res.destroy();
      });
  };
}
