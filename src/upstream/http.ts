/**
 * The only place that does HTTP to the upstreams: one keep-alive pool per service origin, a
 * deadline from connect to last body byte, the API key header, body hygiene and error classes.
 * Nothing here knows about GraphQL or the REST layer.
 */
import { Pool } from 'undici';
import type { Logger } from 'pino';
import { UpstreamError, parseRetryAfter, type ServiceName } from '../errors.js';
import { cacheKey, type CacheStore } from './cache.js';

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
  /** The parsed body, memoised: a cached answer is parsed once, not once per request. */
  parsed?: unknown;
}

export interface CachePolicy {
  store: CacheStore;
  /** Freshness window: inside it no upstream call is made. 0 revalidates every time. */
  ttlMs: number;
  notFoundTtlMs: number;
  /** How long an entry is kept past freshness, for revalidation. */
  retainMs: number;
  /**
   * The service's ETag is global (one value for every route: ordinals, runes), so one
   * revalidation answered 304 proves every entry carrying that ETag current.
   */
  globalEtag: boolean;
}

/** Counters for tests, the benchmark and metrics. */
export interface ServiceStats {
  /** Requests sent to the upstream. */
  sent: number;
  hits: number;
  misses: number;
  revalidated: number;
  coalesced: number;
}

export interface ServiceOptions {
  name: ServiceName;
  baseUrl: URL;
  /** Sent as `x-api-key` when set. */
  apiKey?: string;
  timeoutMs: number;
  logger: Logger;
  connections?: number;
  /** GETs are cached and coalesced when set. */
  cache?: CachePolicy;
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
  private readonly cache: CachePolicy | undefined;
  /** In-flight GETs by cache key: concurrent identical requests share one upstream call. */
  private readonly inflight = new Map<string, Promise<UpstreamResponse>>();
  /** The last global ETag the upstream confirmed, and when. */
  private lastValidation: { etag: string; at: number } | undefined;
  readonly stats: ServiceStats = { sent: 0, hits: 0, misses: 0, revalidated: 0, coalesced: 0 };

  constructor(options: ServiceOptions) {
    this.cache = options.cache;
    this.name = options.name;
    this.basePath = options.baseUrl.pathname.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs;
    this.logger = options.logger.child({ upstream: options.name });
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

  /**
   * Answers a request: GETs of a cached service through the cache, with identical concurrent GETs
   * coalesced; anything else straight to the upstream. Throws UpstreamError only when no answer came.
   */
  request(req: UpstreamRequest): Promise<UpstreamResponse> {
    if ((req.method ?? 'GET') !== 'GET' || !this.cache) return this.send(req);
    const query = queryString(req.query);
    const key = cacheKey(this.name, req.path, query);
    let shared = this.inflight.get(key);
    if (shared) {
      this.stats.coalesced++;
    } else {
      // The shared call is bounded by its deadline, not by one client's signal: others wait on it.
      shared = this.throughCache(key, this.cache, { ...req, signal: undefined }).finally(() =>
        this.inflight.delete(key),
      );
      this.inflight.set(key, shared);
    }
    return abortable(shared, req.signal);
  }

  private async throughCache(key: string, cache: CachePolicy, req: UpstreamRequest): Promise<UpstreamResponse> {
    const entry = await cache.store.get(key);
    const now = Date.now();
    if (entry && now - this.confirmedAt(entry.response, entry.validatedAt) < freshFor(cache, entry.response)) {
      this.stats.hits++;
      return entry.response;
    }
    this.stats.misses++;
    const etag = entry?.response.headers.etag;
    const response = await this.send({ ...req, ifNoneMatch: etag });
    if (response.status === 304 && entry) {
      this.stats.revalidated++;
      this.noteValidation(etag);
      await cache.store.set(key, { response: entry.response, validatedAt: now }, cache.retainMs);
      return entry.response;
    }
    // 5xx, 429 and every other failure are never cached.
    if (response.status === 200 || response.status === 404) {
      this.noteValidation(response.headers.etag);
      await cache.store.set(key, { response, validatedAt: now }, cache.retainMs);
    }
    return response;
  }

  /** When the upstream last confirmed this answer: its own validation, or a later global one. */
  private confirmedAt(response: UpstreamResponse, validatedAt: number): number {
    const last = this.lastValidation;
    return last && last.etag === response.headers.etag && last.at > validatedAt ? last.at : validatedAt;
  }

  private noteValidation(etag: string | undefined): void {
    if (etag && this.cache?.globalEtag) this.lastValidation = { etag, at: Date.now() };
  }

  /** Sends one request and reads the whole body. */
  private async send(req: UpstreamRequest): Promise<UpstreamResponse> {
    const method = req.method ?? 'GET';
    this.stats.sent++;
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
    if (response.parsed !== undefined) return response.parsed as T;
    try {
      response.parsed = JSON.parse(response.body.toString('utf8'));
      return response.parsed as T;
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

/** The query as sent: `?a=1&b=2`, or empty. Built from an object, never by concatenation. */
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

function freshFor(cache: CachePolicy, response: UpstreamResponse): number {
  return response.status === 404 ? cache.notFoundTtlMs : cache.ttlMs;
}

/** Waits for a shared promise, but lets one waiter leave when its own client goes away. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'UNKNOWN';
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
