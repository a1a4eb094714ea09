import { STATUS_CODES } from 'node:http';

/** A JSON answer with the content type the upstreams (Fastify) send. */
export function jsonResponse(status: number, body: unknown, contentType = 'application/json; charset=utf-8'): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': contentType } });
}

/** A body in the upstreams' (Fastify's) error format. */
export function fastifyError(status: number, message: string): Response {
  return jsonResponse(status, { statusCode: status, error: STATUS_CODES[status], message });
}
