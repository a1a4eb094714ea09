import { STATUS_CODES } from 'node:http';

/** What the REST layer answers: written to node:http as is. */
export interface RestAnswer {
  status: number;
  headers: Record<string, string>;
  body?: Uint8Array | string;
}

/** A JSON answer with the content type the upstreams (Fastify) send. */
export function jsonAnswer(status: number, body: unknown, contentType = 'application/json; charset=utf-8'): RestAnswer {
  return { status, headers: { 'content-type': contentType }, body: JSON.stringify(body) };
}

/** A body in the upstreams' (Fastify's) error format. */
export function fastifyError(status: number, message: string): RestAnswer {
  return jsonAnswer(status, { statusCode: status, error: STATUS_CODES[status], message });
}
