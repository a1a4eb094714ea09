/**
 * The only place that does HTTP to the upstreams. Per service: one keep-alive pool, a deadline from
 * connect to last body byte (retries included), the API key header, body hygiene, and the HTTP
 * policy in one pipeline:
 *
 *   request → [GET: coalesce → cache (fresh | revalidate | stale-if-error)] → send
 *   send    → quota gate → circuit breaker → attempt → (retry with backoff, within budget and deadline)
 *
 * Nothing here knows about GraphQL or the REST layer.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import type { Logger } from 'pino';
import { UpstreamError, parseRetryAfter, type ServiceName } from '../errors.js';
import { noUpstreamEvents, type UpstreamEvents } from '../metrics.js';
import type { CacheOutcome, RequestStats } from '../request-stats.js';
import { cacheKey, type CacheEntry, type CacheStore } from './cache.js';
import { CircuitBreaker, QuotaGate, RetryBudget, backoffMs, isRateLimitHeader } from './resilience.js';
import type { SharedSignals } from './shared-state.js';

export interface UpstreamRequest {
  method?: 'GET' | 'HEAD' | 'DELETE';
  /** Encoded path below the service's base path, starting with `/` (built with paths.ts). */
  path: string;
  /** Route template for logs and metrics, e.g. `/ordinals/v1/brc-20/tokens/:ticker`: never a raw path. */
  route: string;
  query?: Record<string, string | number | string[] | undefined> | string;
  /** Set by the cache when it revalidates a stored answer. */
  ifNoneMatch?: string;
  /** The client's abort signal: a client that leaves cancels its upstream work. */
  signal?: AbortSignal;
  /** Passed upstream as x-request-id and logged. */
  requestId?: string;
  /** Told when the answer is a stored one served past freshness because the upstream failed. */
  onStale?: (ageSeconds: number) => void;
  /** The client request's access-log counters: upstream calls sent, cache outcomes. */
  stats?: RequestStats;
}

/** What a caller adds to a client method's request. */
export type CallOptions = Pick<UpstreamRequest, 'signal' | 'requestId' | 'onStale' | 'stats'>;

export interface UpstreamResponse {
  status: number;
  /** The headers a client may see: content-type, etag, cache-control, retry-after (lowercase). */
  headers: Record<string, string>;
  body: Buffer;
  /** The parsed body, memoised: a cached answer is parsed once, not once per request. */
  parsed?: unknown;
  /** Set when a stored answer is served past its freshness because the upstream failed. */
  stale?: { ageSeconds: number };
}

export interface CachePolicy {
  store: CacheStore;
  /** Freshness window: inside it no upstream call is made. 0 revalidates every time. */
  ttlMs: number;
  notFoundTtlMs: number;
  /** How long past freshness a stored answer may be served when the upstream fails. */
  staleIfErrorMs: number;
  /**
   * The service's ETag is global (one value for every route: ordinals, runes), so one
   * revalidation answered 304 proves every entry carrying that ETag current.
   */
  globalEtag: boolean;
}

export interface RetryPolicy {
  /** Extra attempts for idempotent requests (never for DELETE). */
  retries: number;
  breakerThreshold: number;
  breakerCooldownMs: number;
}

export interface ServiceOptions {
  name: ServiceName;
  baseUrl: URL;
  /** Sent as `x-api-key` when set. */
  apiKey?: string;
  timeoutMs: number;
  logger: Logger;
  /** The pool's connection cap: requests beyond it queue in the pool. */
  connections: number;
  /** A larger answer is refused (UPSTREAM_ERROR), never buffered. */
  maxResponseBytes: number;
  retry: RetryPolicy;
  /** GETs are cached and coalesced when set. */
  cache?: CachePolicy;
  events?: UpstreamEvents;
  /** With Redis: quota blocks and breaker openings are told to the other workers and replicas. */
  shared?: SharedSignals;
}

const PASSED_HEADERS = ['content-type', 'etag', 'cache-control', 'retry-after'] as const;
/** Connection-level errors that are a timeout rather than "could not reach" (undici's err.code). */
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

export class UpstreamService {
  readonly name: ServiceName;
  readonly breaker: CircuitBreaker;
  readonly quota: QuotaGate;
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly options: ServiceOptions;
  private readonly logger: Logger;
  private readonly events: UpstreamEvents;
  private readonly budget = new RetryBudget();
  /** In-flight GETs by cache key: concurrent identical requests share one upstream call. */
  private readonly inflight = new Map<string, SharedCall>();
  /** The last global ETag the upstream confirmed, and when. */
  private lastValidation: { etag: string; at: number } | undefined;
  /** The outcome of the last attempt, for /readyz. */
  lastOutcome: { outcome: string; at: number } | undefined;

  constructor(options: ServiceOptions) {
    this.options = options;
    this.name = options.name;
    this.basePath = options.baseUrl.pathname.replace(/\/+$/, '');
    this.logger = options.logger.child({ upstream: options.name });
    this.events = options.events ?? noUpstreamEvents;
    this.quota = new QuotaGate((until) => options.shared?.quotaBlocked(this.name, until));
    this.breaker = new CircuitBreaker(options.retry.breakerThreshold, options.retry.breakerCooldownMs, (state) => {
      this.events.breaker(this.name, state);
      this.logger.warn({ state }, 'circuit breaker');
      if (state === 'open') options.shared?.breakerOpened(this.name, this.breaker.openUntilTime);
    });
    // undici's defaults (300 s) are far too long for a gateway: every phase is bounded by the deadline.
    this.pool = new Pool(options.baseUrl.origin, {
      connections: options.connections,
      pipelining: 1,
      keepAliveTimeout: 4_000,
      connectTimeout: Math.min(options.timeoutMs, 5_000),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      maxResponseSize: options.maxResponseBytes,
    });
  }

  /**
   * Answers a request: GETs of a cached service through the cache, with identical concurrent GETs
   * coalesced; anything else straight to the upstream. Throws UpstreamError only when no answer
   * (and no stale answer) could be had.
   */
  request(req: UpstreamRequest): Promise<UpstreamResponse> {
    const cache = this.options.cache;
    if ((req.method ?? 'GET') !== 'GET' || !cache) return this.send(req);
    const key = cacheKey(this.name, req.path, queryString(req.query));
    const peeked = cache.store.peek?.(key);
    if (peeked && this.isFresh(peeked, cache, Date.now())) {
      this.events.cache(this.name, 'hit');
      req.stats?.noteCache('hit');
      return Promise.resolve(peeked.response);
    }
    let shared = this.inflight.get(key);
    if (shared) {
      this.events.cache(this.name, 'coalesced');
    } else {
      // One call for every waiter: it is cancelled only when the last of them has gone away.
      const controller = new AbortController();
      const call: SharedCall = {
        waiters: 0,
        controller,
        promise: this.throughCache(key, cache, { ...req, signal: controller.signal }).finally(() =>
          this.inflight.delete(key),
        ),
      };
      this.inflight.set(key, call);
      shared = call;
    }
    return wait(shared, req.signal).then(
      ({ response, outcome }) => {
        req.stats?.noteCache(outcome);
        if (response.stale) req.onStale?.(response.stale.ageSeconds);
        return response;
      },
      (error: unknown) => {
        req.stats?.noteCache('miss');
        throw error;
      },
    );
  }

  /** The cached answer, or the upstream's, with what it took (see CacheOutcome). */
  private async throughCache(key: string, cache: CachePolicy, req: UpstreamRequest): Promise<Cached> {
    const entry = await cache.store.get(key);
    const now = Date.now();
    if (entry && this.isFresh(entry, cache, now)) {
      this.events.cache(this.name, 'hit');
      return { response: entry.response, outcome: 'hit' };
    }
    this.events.cache(this.name, 'miss');
    const confirmedAt = entry ? this.confirmedAt(entry.response, entry.validatedAt) : 0;
    const stale = (): Cached | undefined => {
      if (!entry || now - confirmedAt > freshFor(cache, entry.response) + cache.staleIfErrorMs) return undefined;
      this.events.cache(this.name, 'stale');
      const ageSeconds = Math.floor((Date.now() - confirmedAt) / 1000);
      return { response: { ...entry.response, stale: { ageSeconds } }, outcome: 'stale' };
    };
    const etag = entry?.response.headers.etag;
    let response: UpstreamResponse;
    try {
      response = await this.send({ ...req, ifNoneMatch: etag });
    } catch (error) {
      const answer = error instanceof UpstreamError ? stale() : undefined;
      if (answer) return answer;
      throw error;
    }
    if (response.status === 304 && entry) {
      this.events.cache(this.name, 'revalidated');
      this.noteValidation(etag);
      await cache.store.set(key, { response: entry.response, validatedAt: now }, this.retainMs(cache));
      return { response: entry.response, outcome: 'revalidated' };
    }
    if (response.status >= 500 || response.status === 429) return stale() ?? { response, outcome: 'miss' };
    // Only answers that are the resource's state are stored: 5xx, 429 and the like never are.
    if (response.status === 200 || response.status === 404) {
      this.noteValidation(response.headers.etag);
      await cache.store.set(key, { response, validatedAt: now }, this.retainMs(cache));
    }
    return { response, outcome: 'miss' };
  }

  private retainMs(cache: CachePolicy): number {
    return Math.max(cache.ttlMs, cache.notFoundTtlMs) + Math.max(cache.staleIfErrorMs, 60_000);
  }

  private isFresh(entry: CacheEntry, cache: CachePolicy, now: number): boolean {
    return now - this.confirmedAt(entry.response, entry.validatedAt) < freshFor(cache, entry.response);
  }

  /** When the upstream last confirmed this answer: its own validation, or a later global one. */
  private confirmedAt(response: UpstreamResponse, validatedAt: number): number {
    const last = this.lastValidation;
    return last && last.etag === response.headers.etag && last.at > validatedAt ? last.at : validatedAt;
  }

  private noteValidation(etag: string | undefined): void {
    if (etag && this.options.cache?.globalEtag) this.lastValidation = { etag, at: Date.now() };
  }

  /**
   * Sends a request through the quota gate and the breaker, retrying idempotent requests on
   * connection errors, 429 and 502/503/504 with backoff, within the retry budget and the one
   * deadline. Answers the last response; throws UpstreamError when none came.
   */
  private async send(req: UpstreamRequest): Promise<UpstreamResponse> {
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, deadline]) : deadline;
    const started = Date.now();
    const idempotent = (req.method ?? 'GET') !== 'DELETE';
    this.budget.deposit();
    for (let attempt = 0; ; attempt++) {
      const wait = this.quota.waitSeconds();
      // The upstream said its quota is spent: asking again now would only cost more of it.
      if (wait > 0) throw new UpstreamError(this.name, 'status', 429, wait);
      if (!this.breaker.allow()) {
        throw new UpstreamError(this.name, 'unavailable', undefined, this.breaker.retryAfterSeconds());
      }
      let delay: number;
      let failure: UpstreamError | undefined;
      let response: UpstreamResponse | undefined;
      try {
        response = await this.attempt(req, signal, deadline);
        if (!idempotent || !RETRYABLE_STATUS.has(response.status) || attempt >= this.options.retry.retries) {
          return response;
        }
        const retryAfter = parseRetryAfter(response.headers['retry-after']);
        delay = retryAfter !== undefined ? retryAfter * 1000 : backoffMs(attempt);
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        // Only "could not reach" is worth another try: a timeout used the deadline up.
        if (!idempotent || error.kind !== 'unavailable' || attempt >= this.options.retry.retries) throw error;
        failure = error;
        delay = backoffMs(attempt);
      }
      const reason = failure ? failure.kind : String(response?.status);
      // A retry that cannot finish inside the deadline, or beyond the budget, is not worth sending.
      if (Date.now() + delay >= started + this.options.timeoutMs || !this.budget.tryWithdraw()) {
        if (failure) throw failure;
        return response!;
      }
      this.events.retry(this.name, reason);
      this.logger.debug({ route: req.route, attempt: attempt + 1, reason, delay, requestId: req.requestId }, 'retrying');
      try {
        await sleep(delay, undefined, { signal });
      } catch {
        if (req.signal?.aborted) throw req.signal.reason;
        throw new UpstreamError(this.name, 'timeout');
      }
    }
  }

  /** One HTTP exchange: reads the whole body, feeds the breaker, the quota gate and the metrics. */
  private async attempt(req: UpstreamRequest, signal: AbortSignal, deadline: AbortSignal): Promise<UpstreamResponse> {
    const method = req.method ?? 'GET';
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    if (req.ifNoneMatch) headers['if-none-match'] = req.ifNoneMatch;
    if (req.requestId) headers['x-request-id'] = req.requestId;
    const started = performance.now();
    let outcome = 'unavailable';
    if (req.stats) req.stats.upstreamCalls++;
    try {
      const response = await this.pool.request({
        method,
        path: this.basePath + req.path + queryString(req.query),
        headers,
        signal,
      });
      // Always consume the body, error answers included, so the connection goes back to the pool.
      const body = Buffer.from(await response.body.arrayBuffer());
      const kept: Record<string, string> = {};
      const rateLimit: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (typeof value !== 'string') continue;
        if ((PASSED_HEADERS as readonly string[]).includes(name)) kept[name] = value;
        if (isRateLimitHeader(name)) rateLimit[name] = value;
      }
      outcome = String(response.statusCode);
      this.quota.observe(response.statusCode, rateLimit);
      if (this.quota.remaining !== undefined) this.events.quotaRemaining(this.name, this.quota.remaining);
      if (response.statusCode >= 500) this.breaker.failure();
      else this.breaker.success();
      return { status: response.statusCode, headers: kept, body };
    } catch (error) {
      if (req.signal?.aborted) {
        outcome = 'aborted';
        throw req.signal.reason ?? error;
      }
      const code = errorCode(error);
      const kind =
        code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE'
          ? 'too-large'
          : deadline.aborted || TIMEOUT_CODES.has(code)
            ? 'timeout'
            : 'unavailable';
      outcome = kind;
      this.breaker.failure();
      this.logger.warn({ method, route: req.route, kind, code, requestId: req.requestId }, 'upstream request failed');
      throw new UpstreamError(this.name, kind);
    } finally {
      const seconds = (performance.now() - started) / 1000;
      this.lastOutcome = { outcome, at: Date.now() };
      this.events.request(this.name, req.route, outcome, seconds);
      this.logger.debug(
        { method, route: req.route, outcome, ms: Math.round(seconds * 10_000) / 10, requestId: req.requestId },
        'upstream request',
      );
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
    return new UpstreamError(this.name, 'status', response.status, parseRetryAfter(response.headers['retry-after']));
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
    if (Array.isArray(value)) for (const item of value) params.append(key, item);
    else if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function freshFor(cache: CachePolicy, response: UpstreamResponse): number {
  return response.status === 404 ? cache.notFoundTtlMs : cache.ttlMs;
}

interface Cached {
  response: UpstreamResponse;
  outcome: CacheOutcome;
}

/** An in-flight GET shared by every identical request. */
interface SharedCall {
  promise: Promise<Cached>;
  controller: AbortController;
  waiters: number;
}

/**
 * Waits for a shared call, but lets one waiter leave when its own client goes away; when the last
 * waiter leaves, the upstream call itself is cancelled.
 */
function wait(call: SharedCall, signal: AbortSignal | undefined): Promise<Cached> {
  if (!signal) {
    call.waiters++;
    return call.promise;
  }
  if (signal.aborted) return Promise.reject(signal.reason);
  call.waiters++;
  return new Promise<Cached>((resolve, reject) => {
    const stopWatching = onAbort(signal, () => {
      if (--call.waiters === 0) call.controller.abort(signal.reason);
      reject(signal.reason);
    });
    call.promise.then(
      (value) => {
        stopWatching();
        resolve(value);
      },
      (error: unknown) => {
        stopWatching();
        reject(error);
      },
    );
  });
}

/**
 * One 'abort' listener per client signal, however many lookups wait on it: a query with dozens of
 * fields would otherwise add one listener per lookup to the same signal (and Node warns past 10).
 */
const abortWatchers = new WeakMap<AbortSignal, Set<() => void>>();
function onAbort(signal: AbortSignal, listener: () => void): () => void {
  let listeners = abortWatchers.get(signal);
  if (!listeners) {
    const watching = new Set<() => void>();
    signal.addEventListener('abort', () => watching.forEach((notify) => notify()), { once: true });
    abortWatchers.set(signal, watching);
    listeners = watching;
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'UNKNOWN';
}
