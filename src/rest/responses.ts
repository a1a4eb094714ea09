import { STATUS_CODES } from 'node:http';
import { redactPath } from '../observe/logger.js';

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

/** Fastify's answer to a path it has no route for (never echoing a platform key from the path). */
export function routeNotFound(method: string, target: string): RestAnswer {
  return jsonAnswer(404, { message: `Route ${method}:${redactPath(target)} not found`, error: 'Not Found', statusCode: 404 });
}

/** A body in the upstreams' (Fastify's) error format. */
export function fastifyError(status: number, message: string): RestAnswer {
  return jsonAnswer(status, { statusCode: status, error: STATUS_CODES[status], message });
}
