/**
 * The only place that does HTTP to the upstreams: one keep-alive pool per service origin, a
 * deadline from connect to last body byte, the API key header, body hygiene and error classes.
 * Nothing here knows about GraphQL or the REST layer.
 */
import { Pool } from 'undici';
import type { Logger } from 'pino';
import { UpstreamError, parseRetryAfter, type ServiceName } from '../errors.js';

export interface UpstreamRequest {
  method?: 'GET' | 'HEAD' | 'DELETE';
  /** Encoded path below the service's base path, starting with `/` (built with paths.ts). */
  path: string;
  /** Route template for logs, e.g. `/ordinals/v1/brc-20/tokens/:ticker`: never a raw path. */
  route: string;
  query?: Record<string, string | number | undefined> | string;
  /** Only `if-none-match` is passed on from clients. */
  ifNoneMatch?: string;
  /** The client's abort signal: a client that leaves cancels its upstream work. */
  signal?: AbortSignal;
}

export interface UpstreamResponse {
  status: number;
  /** The headers a client may see: content-type, etag, cache-control, retry-after (lowercase). */
  headers: Record<string, string>;
  body: Buffer;
}

export interface ServiceOptions {
  name: ServiceName;
  baseUrl: URL;
  /** Sent as `x-api-key` when set. */
  apiKey?: string;
  timeoutMs: number;
  logger: Logger;
  connections?: number;
}

const PASSED_HEADERS = ['content-type', 'etag', 'cache-control', 'retry-after'] as const;

/** Connection-level errors that mean "could not reach the upstream" (undici matches on err.code). */
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export class UpstreamService {
  readonly name: ServiceName;
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;
  private readonly logger: Logger;

  constructor(options: ServiceOptions) {
    this.name = options.name;
    this.basePath = options.baseUrl.pathname.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs;
    this.logger = options.logger.child({ service: options.name });
    // undici's defaults (300 s) are far too long for a gateway: every phase is bounded by the deadline.
    this.pool = new Pool(options.baseUrl.origin, {
      connections: options.connections ?? 64,
      pipelining: 1,
      keepAliveTimeout: 4_000,
      connectTimeout: Math.min(options.timeoutMs, 5_000),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  /** Sends one request and reads the whole body; throws UpstreamError only when no answer came. */
  async request(req: UpstreamRequest): Promise<UpstreamResponse> {
    const method = req.method ?? 'GET';
    const deadline = AbortSignal.timeout(this.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, deadline]) : deadline;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.apiKey) headers['x-api-key'] = this.apiKey;
    if (req.ifNoneMatch) headers['if-none-match'] = req.ifNoneMatch;
    const started = performance.now();
    try {
      const response = await this.pool.request({
        method,
        path: this.basePath + req.path + queryString(req.query),
        headers,
        signal,
      });
      // Always consume the body, error answers included, so the connection goes back to the pool.
      const body = Buffer.from(await response.body.arrayBuffer());
      const passed: Record<string, string> = {};
      for (const name of PASSED_HEADERS) {
        const value = response.headers[name];
        if (typeof value === 'string') passed[name] = value;
      }
      this.logger.debug(
        { method, route: req.route, status: response.statusCode, ms: elapsed(started) },
        'upstream request',
      );
      return { status: response.statusCode, headers: passed, body };
    } catch (error) {
      if (req.signal?.aborted) throw req.signal.reason ?? error;
      const kind = deadline.aborted || TIMEOUT_CODES.has(errorCode(error)) ? 'timeout' : 'unavailable';
      this.logger.warn(
        { method, route: req.route, kind, code: errorCode(error), ms: elapsed(started) },
        'upstream request failed',
      );
      throw new UpstreamError(this.name, kind);
    }
  }

  /**
   * GETs JSON. A 2xx answer is parsed; `notFound` decides what a 404 means (null for lookups);
   * anything else is an UpstreamError with the upstream's status.
   */
  async json<T>(req: UpstreamRequest, notFound: 'null' | 'error' = 'error'): Promise<T | null> {
    const response = await this.request(req);
    if (response.status === 404 && notFound === 'null') return null;
    if (response.status < 200 || response.status >= 300) throw this.statusError(response);
    return this.parse<T>(response);
  }

  parse<T>(response: UpstreamResponse): T {
    try {
      return JSON.parse(response.body.toString('utf8')) as T;
    } catch {
      throw new UpstreamError(this.name, 'invalid-body', response.status);
    }
  }

  statusError(response: UpstreamResponse): UpstreamError {
    return new UpstreamError(
      this.name,
      'status',
      response.status,
      parseRetryAfter(response.headers['retry-after']),
    );
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

function queryString(query: UpstreamRequest['query']): string {
  if (query === undefined) return '';
  if (typeof query === 'string') return query ? `?${query}` : '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'UNKNOWN';
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
