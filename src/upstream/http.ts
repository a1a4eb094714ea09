/**
 * The only place that does HTTP to the upstreams. Per service: one keep-alive pool, a deadline from
 * connect to last body byte (retries included), the API key header, body hygiene, and the HTTP
 * policy in one pipeline:
 *
 *   request → [GET: coalesce → cache (fresh | revalidate | stale-if-error)] → send → response budget
 *   send    → quota gate → circuit breaker → client's share → attempt → (retry with backoff, within budget, share and deadline)
 *   attempt → [per tenant: its share of the pool] → one HTTP exchange
 *
 * The breaker and quota gate are the service's own, except for the platform, whose tenants (its
 * API keys) each have their own, kept under a keyed hash of the key in a bounded table. The
 * breaker counts only the service not answering (resilience.ts, isServiceDown): an answer that one
 * request's input decides, a 500 or one too large, is that request's failure alone.
 * Nothing here knows about GraphQL or the REST layer.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import type { Logger } from 'pino';
import { Cancellation, ExchangeSignal, type CancelSignal } from '../lib/cancellation.js';
import { UpstreamError, parseRetryAfter, type ServiceName } from '../errors.js';
import { merged } from '../lib/merge.js';
import { noUpstreamEvents, type TenantCounts, type UpstreamEvents } from '../observe/metrics.js';
import type { CacheOutcome, RequestStats } from '../http/request-stats.js';
import { SpanKind, type TraceSpan } from '../observe/tracing.js';
import { cacheKey, type CacheEntry, type CacheStore } from './cache.js';
import { LocalClientLimiter, type ClientCallLimiter, type ClientRefusal } from './client-limits.js';
import {
  Bulkhead,
  CircuitBreaker,
  LruTable,
  QuotaGate,
  RetryBudget,
  backoffMs,
  isRateLimitHeader,
  isServiceDown,
  keyedHash,
  type BreakerState,
} from './resilience.js';
import type { Shape } from './shapes.js';
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
  signal?: CancelSignal;
  /** Passed upstream as x-request-id and logged. */
  requestId?: string;
  /** Told when the answer is a stored one served past freshness because the upstream failed. */
  onStale?: (ageSeconds: number) => void;
  /**
   * The tenant whose breaker, quota and share of connections the request uses, on a per-tenant
   * service (the platform's API key). Kept only as a keyed hash; never logged.
   */
  tenant?: string;
  /** Who asked (a keyed hash of the client's address): charged for the upstream calls it causes. */
  client?: string;
  /** The asking request's budget of upstream answer bytes (GraphQL requests). */
  budget?: ResponseBudget;
  /** The client request's access-log counters: upstream calls sent, cache outcomes. */
  stats?: RequestStats;
  /**
   * When tracing is on: the span this request's spans are children of (a loader batch or a
   * GraphQL operation); else the client request's own (stats.trace).
   */
  trace?: TraceSpan;
}

/**
 * A cached upstream answer a GraphQL result was built from, with what it takes to ask for it again
 * (src/response-cache.ts keeps a result only while all of its answers are current).
 */
export interface UsedAnswer {
  service: UpstreamService;
  key: string;
  request: Pick<UpstreamRequest, 'method' | 'path' | 'route' | 'query' | 'tenant'>;
  response: UpstreamResponse;
}

/**
 * The answers one request used (RequestStats.used): `complete` turns false once it used anything
 * that is not a current cached answer (an uncached call, a stale answer, a failure). `asked` holds
 * what the request already got by key: one request never asks for the same answer twice (a stored
 * result found changed is executed with the answer that showed the change).
 */
export interface UsedAnswers {
  answers: UsedAnswer[];
  complete: boolean;
  asked: Map<string, Promise<UpstreamResponse>>;
}

/** What a caller adds to a client method's request. */
export type CallOptions = Pick<UpstreamRequest, 'signal' | 'requestId' | 'onStale' | 'client' | 'budget' | 'stats' | 'trace'>;

/**
 * The upstream answer bytes one GraphQL request may use. Each distinct answer body counts once,
 * cached ones too: the response grows with them whoever fetched them. An answer that does not fit
 * fails its field, and the request keeps what it already has.
 */
export class ResponseBudget {
  private used = 0;
  /** Per body: how many fields it has been charged for, and how many have used it. */
  private readonly bodies = new WeakMap<Buffer, { paid: number; uses: number }>();

  constructor(readonly maxBytes: number) {}

  /** Counts `body` unless counted before; false when it does not fit. */
  charge(body: Buffer): boolean {
    if (this.bodies.has(body)) return true;
    if (!this.fits(body)) return false;
    this.bodies.set(body, { paid: 1, uses: 0 });
    return true;
  }

  /**
   * One more field answers with `body`. A lookup shared by aliases is charged once by charge();
   * each further field that repeats it in the response counts again, so 30 aliases of one large
   * answer cost 30 times its size, as the response does. False when it does not fit.
   */
  use(body: Buffer): boolean {
    const entry = this.bodies.get(body) ?? { paid: 0, uses: 0 };
    this.bodies.set(body, entry);
    if (++entry.uses <= entry.paid) return true;
    if (!this.fits(body)) return false;
    entry.paid++;
    return true;
  }

  private fits(body: Buffer): boolean {
    if (this.used + body.length > this.maxBytes) return false;
    this.used += body.length;
    return true;
  }
}

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
  /** The longest wait learnt from the upstream (Retry-After, ratelimit-reset) that is honoured or told. */
  maxWaitMs: number;
}

export interface ServiceOptions {
  name: ServiceName;
  baseUrl: URL;
  /** Sent as `x-api-key` when set. */
  apiKey?: string;
  /** Sent with every attempt (a data source's own credentials, e.g. `authorization`); never logged. */
  headers?: Record<string, string>;
  /**
   * Awaited before each attempt is sent (a data source's calls-per-second budget): it may wait until
   * `deadline` (epoch ms), or throw an UpstreamError; nothing is sent then.
   */
  beforeAttempt?: (signal: AbortSignal, deadline: number) => Promise<void>;
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
  /**
   * A breaker, quota gate and share of the pool per tenant (`UpstreamRequest.tenant`) instead of
   * one for the service: the platform, where each API key has its own quota and its own devnet.
   */
  perTenant?: boolean;
  /**
   * Per-client fairness: the upstream calls one client may cause a minute, or `fair-share` for 20%
   * of the quota the upstream advertises (no limit while it has advertised none). Unset: no limit.
   */
  clientCallsPerMinute?: number | 'fair-share';
  /** Where clients' calls are counted (client-limits.ts); default: this process alone. */
  clientLimiter?: ClientCallLimiter;
}

/** The breaker and quota gate requests pass, with the share of the pool a tenant may hold. */
export interface Guards {
  breaker: CircuitBreaker;
  quota: QuotaGate;
  bulkhead?: Bulkhead;
}

/** What /readyz says of a service. */
export type ServiceHealth = { breaker: BreakerState; quotaWaitSeconds: number } | ({ breaker: 'per-tenant' } & TenantCounts);

/**
 * Tenants whose guards are kept. An entry is a 43-character key and three small fixed-size
 * objects, about 1 KB: 10,000 tenants are ~10 MB at most.
 */
const MAX_TENANTS = 10_000;
/** Of the quota an upstream advertises, the share one client may use by default. */
const FAIR_SHARE = 0.2;

const PASSED_HEADERS = ['content-type', 'etag', 'cache-control', 'retry-after'] as const;
/** Connection-level errors that are a timeout rather than "could not reach" (undici's err.code). */
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

export class UpstreamService {
  readonly name: ServiceName;
  /** The service's breaker and quota gate; undefined where they are kept per tenant. */
  readonly guards: Guards | undefined;
  /** Per tenant, by keyed hash of the tenant's key: bounded, and idle tenants are forgotten. */
  private readonly tenants: LruTable<Guards> | undefined;
  /** Per-client fairness, when on: the calls a minute one client may cause, and where they are counted. */
  private readonly clients: { limit: () => number | undefined; limiter: ClientCallLimiter } | undefined;
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly options: ServiceOptions;
  private readonly logger: Logger;
  private readonly events: UpstreamEvents;
  private readonly retryBudget = new RetryBudget();
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
    const { retry } = options;
    if (options.perTenant) {
      // Nothing a tenant learnt can still be in force once it has been idle this long.
      const idleMs = Math.max(retry.maxWaitMs, retry.breakerCooldownMs) + options.timeoutMs;
      this.tenants = new LruTable<Guards>(MAX_TENANTS, idleMs);
      this.events.tenantStates(this.name, () => this.tenantCounts());
    } else {
      const guards: Guards = {
        quota: new QuotaGate(retry.maxWaitMs, (until) => options.shared?.quotaBlocked(this.name, until)),
        breaker: new CircuitBreaker(retry.breakerThreshold, retry.breakerCooldownMs, (state) => {
          this.events.breaker(this.name, state);
          this.logger.warn({ state }, 'circuit breaker');
          if (state === 'open') options.shared?.breakerOpened(this.name, guards.breaker.openUntilTime);
        }),
      };
      this.guards = guards;
    }
    const perMinute = options.clientCallsPerMinute;
    if (perMinute !== undefined) {
      this.clients = {
        limit: () => {
          if (perMinute !== 'fair-share') return perMinute;
          const quota = this.guards?.quota.limitPerMinute;
          return quota === undefined ? undefined : Math.max(1, Math.floor(quota * FAIR_SHARE));
        },
        limiter: options.clientLimiter ?? new LocalClientLimiter(1),
      };
    }
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
   * (and no stale answer) could be had, or when the answer does not fit the request's budget.
   */
  request(req: UpstreamRequest): Promise<UpstreamResponse> {
    const parent = req.trace ?? req.stats?.trace;
    return parent ? this.traced(req, parent) : this.budgeted(req);
  }

  private budgeted(req: UpstreamRequest): Promise<UpstreamResponse> {
    const answer = this.answer(req);
    const budget = req.budget;
    if (!budget) return answer;
    return answer.then((response) => {
      if (budget.charge(response.body)) return response;
      throw new UpstreamError(this.name, 'over-budget', undefined, undefined, budget.maxBytes);
    });
  }

  /**
   * request() under a lookup span (below here, `req.trace` is it): the cache outcome is its
   * attribute, each attempt its child.
   */
  private traced(req: UpstreamRequest, parent: TraceSpan): Promise<UpstreamResponse> {
    const lookup = parent.child(`upstream ${req.route}`, {
      'satgate.upstream.service': this.name,
      'url.template': req.route,
      'http.request.method': req.method ?? 'GET',
    });
    return this.budgeted(merged(req, { trace: lookup })).then(
      (response) => {
        lookup.set('http.response.status_code', response.status);
        if (response.status >= 500) lookup.fail(String(response.status));
        lookup.end();
        return response;
      },
      (error: unknown) => {
        lookup.fail(error instanceof UpstreamError ? error.kind : req.signal?.aborted ? 'aborted' : 'error').end();
        throw error;
      },
    );
  }

  private answer(req: UpstreamRequest): Promise<UpstreamResponse> {
    const cache = this.options.cache;
    const used = req.stats?.used;
    if ((req.method ?? 'GET') !== 'GET' || !cache) {
      if (used) used.complete = false;
      return this.send(req);
    }
    const key = cacheKey(this.name, req.path, queryString(req.query));
    if (!used) return this.cachedAnswer(key, cache, req);
    // Noting what the request used, for the response cache.
    const asked = used.asked.get(key);
    const answer = asked ?? this.cachedAnswer(key, cache, req);
    used.asked.set(key, answer);
    return answer.then(
      (response) => {
        if (asked && response.stale) req.onStale?.(response.stale.ageSeconds);
        this.noteUsed(used, key, req, response);
        return response;
      },
      (error: unknown) => {
        used.complete = false;
        throw error;
      },
    );
  }

  private cachedAnswer(key: string, cache: CachePolicy, req: UpstreamRequest): Promise<UpstreamResponse> {
    const peeked = cache.store.peek?.(key);
    if (peeked && this.isFresh(peeked, cache, Date.now())) {
      this.events.cache(this.name, 'hit');
      req.stats?.noteCache('hit');
      req.trace?.set('satgate.cache.outcome', 'hit');
      return Promise.resolve(peeked.response);
    }
    let shared = this.inflight.get(key);
    const joined = shared !== undefined;
    if (shared) {
      this.events.cache(this.name, 'coalesced');
      req.trace?.set('satgate.cache.outcome', 'coalesced');
      if (shared.trace) req.trace?.link(shared.trace);
    } else {
      // One call for every waiter: it is cancelled only when the last of them has gone away.
      const cancellation = new Cancellation();
      const call: SharedCall = {
        waiters: 0,
        cancellation,
        client: req.client,
        trace: req.trace,
        promise: this.throughCache(key, cache, merged(req, { signal: cancellation })).finally(() => this.inflight.delete(key)),
      };
      this.inflight.set(key, call);
      shared = call;
    }
    const { client } = shared;
    return wait(shared, req.signal).then(
      ({ response, outcome }) => {
        req.stats?.noteCache(outcome);
        if (!joined) req.trace?.set('satgate.cache.outcome', outcome);
        if (response.stale) req.onStale?.(response.stale.ageSeconds);
        return response;
      },
      (error: unknown) => {
        req.stats?.noteCache('miss');
        if (!joined) req.trace?.set('satgate.cache.outcome', 'miss');
        // Refused for the share of the client that started the call, not for this one's: a client
        // joining a call never pays for it, nor is it refused for another's share. Ask as itself.
        if (joined && client !== req.client && error instanceof UpstreamError && error.kind === 'client-limit') {
          return this.cachedAnswer(key, cache, req);
        }
        throw error;
      },
    );
  }

  /** Only a stored answer of the resource's state (200, 404) can stand behind a stored result. */
  private noteUsed(used: UsedAnswers, key: string, req: UpstreamRequest, response: UpstreamResponse): void {
    if (response.stale || (response.status !== 200 && response.status !== 404)) {
      used.complete = false;
      return;
    }
    const { method, path, route, query, tenant } = req;
    used.answers.push({ service: this, key, request: { method, path, route, query, tenant }, response });
  }

  /**
   * Whether `used` is still the answer in the cache, and fresh, or confirmed by an upstream answer
   * that came at or after `confirmedSince` (a request's own revalidation, or a global-ETag 304 it
   * waited for, as a request joining an in-flight call takes that call's answer): no upstream call,
   * no await.
   */
  isCurrent(used: UsedAnswer, confirmedSince = Infinity): boolean {
    const cache = this.options.cache;
    const entry = cache?.store.peek?.(used.key);
    if (!cache || !entry || !sameAnswer(entry.response, used.response)) return false;
    const fresh = this.isFresh(entry, cache, Date.now()) || this.confirmedAt(entry.response, entry.validatedAt) >= confirmedSince;
    if (!fresh) return false;
    this.events.cache(this.name, 'hit');
    return true;
  }

  /**
   * Asks for `used` again through the cache (a 304 confirms it without a new body): true when the
   * answer is still the same, false when it changed, failed or is stale.
   */
  confirm(used: UsedAnswer, call: CallOptions): Promise<boolean> {
    return this.answer(merged(used.request, call)).then(
      (response) => !response.stale && sameAnswer(response, used.response),
      () => false,
    );
  }

  /**
   * /readyz: the service's breaker and quota wait; for a per-tenant service, how many tenants it
   * knows and how many of them are refused (never one tenant's state as the service's).
   */
  health(now = Date.now()): ServiceHealth {
    if (this.guards) return { breaker: this.guards.breaker.state, quotaWaitSeconds: this.guards.quota.waitSeconds(now) };
    return { breaker: 'per-tenant', ...this.tenantCounts(now) };
  }

  private tenantCounts(now = Date.now()): TenantCounts {
    const counts = { tenants: 0, openBreakers: 0, quotaBlockedTenants: 0 };
    for (const guards of this.tenants?.values(now) ?? []) {
      counts.tenants++;
      if (guards.breaker.state === 'open') counts.openBreakers++;
      if (guards.quota.waitSeconds(now) > 0) counts.quotaBlockedTenants++;
    }
    return counts;
  }

  /** The service's guards, or the tenant's (created on its first request). */
  private guardsFor(req: UpstreamRequest): Guards {
    if (this.guards) return this.guards;
    const { retry, connections } = this.options;
    return this.tenants!.use(keyedHash(req.tenant ?? ''), () => ({
      quota: new QuotaGate(retry.maxWaitMs),
      breaker: new CircuitBreaker(retry.breakerThreshold, retry.breakerCooldownMs, (state) =>
        this.logger.warn({ state, scope: 'tenant' }, 'circuit breaker'),
      ),
      // A tenant whose devnet hangs holds at most a quarter of the pool: the others keep the rest.
      bulkhead: new Bulkhead(Math.max(1, Math.floor(connections / 4))),
    }));
  }

  /**
   * Counts one upstream call of the request's client: undefined when it may make it (or no limit
   * applies), else why not. Only real sends are counted, retries included.
   */
  private takeClientCall(req: UpstreamRequest): ClientRefusal | undefined | Promise<ClientRefusal | undefined> {
    const limit = this.clients?.limit();
    if (req.client === undefined || limit === undefined) return undefined;
    return this.clients!.limiter.take(req.client, limit);
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
      response = await this.send(merged(req, { ifNoneMatch: etag }));
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
   * Sends a request through the quota gate, the breaker (the tenant's, on a per-tenant service) and
   * the client's share, retrying idempotent requests on connection errors, 429 and 502/503/504
   * with backoff, within the retry budget, the client's share and the one deadline. A 500 is never
   * retried: the upstream answered, and would answer the same input the same. Answers the last
   * response; throws UpstreamError when none came.
   */
  private async send(req: UpstreamRequest): Promise<UpstreamResponse> {
    const exchange = new ExchangeSignal(this.options.timeoutMs, req.signal);
    try {
      return await this.sendWithin(req, exchange);
    } finally {
      exchange.end();
    }
  }

  /** send()'s attempts and retries, all under `exchange`'s one deadline. */
  private async sendWithin(req: UpstreamRequest, exchange: ExchangeSignal): Promise<UpstreamResponse> {
    const { signal } = exchange;
    const started = Date.now();
    const idempotent = (req.method ?? 'GET') !== 'DELETE';
    const guards = this.guardsFor(req);
    this.retryBudget.deposit();
    // The quota block this request's retry has already slept through (a 429's Retry-After).
    let waitedOut = 0;
    for (let attempt = 0; ; attempt++) {
      // A block this request waited out is not asked again: under load a timer fires a few
      // milliseconds before Date.now() reaches its end, and the retry would be refused by it.
      const wait = guards.quota.until > waitedOut ? guards.quota.waitSeconds() : 0;
      // The upstream said its quota is spent: asking again now would only cost more of it.
      if (wait > 0) throw new UpstreamError(this.name, 'status', 429, wait);
      if (!guards.breaker.allow()) {
        throw new UpstreamError(this.name, 'unavailable', undefined, guards.breaker.retryAfterSeconds());
      }
      // A retry was counted when it was decided on, below. (Awaited only when counted elsewhere.)
      const taken = attempt === 0 ? this.takeClientCall(req) : undefined;
      const refusal = taken instanceof Promise ? await taken : taken;
      if (refusal) {
        // Nothing is sent: a probe this would have been lets the next request probe instead.
        guards.breaker.abandon();
        throw new UpstreamError(this.name, 'client-limit', undefined, refusal.retryAfter, refusal.limit);
      }
      let delay: number;
      let failure: UpstreamError | undefined;
      let response: UpstreamResponse | undefined;
      try {
        response = await this.attempt(req, guards, exchange, attempt);
        if (!idempotent || !RETRYABLE_STATUS.has(response.status) || attempt >= this.options.retry.retries) {
          return response;
        }
        // Retry-After was capped to maxWaitMs as the answer was read.
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
      // A retry that cannot finish inside the deadline, beyond the budget or past the client's
      // share is not worth sending: the last answer stands.
      if (
        Date.now() + delay >= started + this.options.timeoutMs ||
        !this.retryBudget.tryWithdraw() ||
        (await this.takeClientCall(req)) !== undefined
      ) {
        if (failure) throw failure;
        return response!;
      }
      this.events.retry(this.name, reason);
      this.logger.debug({ route: req.route, attempt: attempt + 1, reason, delay, requestId: req.requestId }, 'retrying');
      if (Date.now() + delay >= guards.quota.until) waitedOut = guards.quota.until;
      try {
        await sleep(delay, undefined, { signal });
      } catch {
        if (req.signal?.aborted) throw req.signal.reason;
        throw new UpstreamError(this.name, 'timeout');
      }
    }
  }

  /**
   * One HTTP exchange (after waiting for the tenant's share of the pool): reads the whole body,
   * feeds the breaker, the quota gate and the metrics. `retry` counts the attempts before it.
   */
  private async attempt(
    req: UpstreamRequest,
    { breaker, quota, bulkhead }: Guards,
    exchange: ExchangeSignal,
    retry: number,
  ): Promise<UpstreamResponse> {
    const { signal } = exchange;
    const method = req.method ?? 'GET';
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    if (this.options.headers) Object.assign(headers, this.options.headers);
    if (req.ifNoneMatch) headers['if-none-match'] = req.ifNoneMatch;
    if (req.requestId) headers['x-request-id'] = req.requestId;
    // The upstream continues the trace from this attempt's span.
    const span = req.trace?.child(
      `${method} ${req.route}`,
      {
        'satgate.upstream.service': this.name,
        'url.template': req.route,
        'http.request.method': method,
        'http.request.resend_count': retry,
        'satgate.breaker.state': breaker.state,
      },
      SpanKind.CLIENT,
    );
    span?.inject(headers);
    if (this.options.beforeAttempt) {
      try {
        await this.options.beforeAttempt(signal, exchange.deadline);
      } catch (error) {
        // Nothing was sent: a probe this would have been lets the next request probe instead.
        breaker.abandon();
        span?.fail('refused').end();
        if (req.signal?.aborted) throw req.signal.reason ?? error;
        throw error;
      }
    }
    const started = performance.now();
    let outcome = 'unavailable';
    if (req.stats) req.stats.upstreamCalls++;
    let release: (() => void) | undefined;
    try {
      if (bulkhead) release = await bulkhead.acquire(signal);
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
      // No wait told to clients (or honoured by a retry) is longer than maxWaitMs.
      if (kept['retry-after'] !== undefined) kept['retry-after'] = this.cappedRetryAfter(kept['retry-after']);
      outcome = String(response.statusCode);
      span?.set('http.response.status_code', response.statusCode);
      if (response.statusCode >= 500) span?.fail(outcome);
      quota.observe(response.statusCode, rateLimit);
      if (this.guards && quota.remaining !== undefined) this.events.quotaRemaining(this.name, quota.remaining);
      // The service answered: only its saying it is down (502/503/504) counts against it.
      if (isServiceDown(response.statusCode)) breaker.failure();
      else breaker.success();
      return { status: response.statusCode, headers: kept, body };
    } catch (error) {
      if (req.signal?.aborted) {
        outcome = 'aborted';
        span?.fail(outcome);
        // No answer either way: a probe this was lets the next request probe instead.
        breaker.abandon();
        throw req.signal.reason ?? error;
      }
      const code = errorCode(error);
      const kind =
        code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE' ? 'too-large' : exchange.timedOut || TIMEOUT_CODES.has(code) ? 'timeout' : 'unavailable';
      outcome = kind;
      span?.fail(kind);
      // An answer too large is an answer (to this request's input); no answer is the service's failure.
      if (kind === 'too-large') breaker.success();
      else breaker.failure();
      this.logger.warn({ method, route: req.route, kind, code, requestId: req.requestId }, 'upstream request failed');
      throw new UpstreamError(this.name, kind);
    } finally {
      release?.();
      span?.end();
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
   * GETs JSON. A 2xx answer is parsed and, given a `shape`, checked (see shapes.ts); `notFound`
   * decides what a 404 means (null for lookups); anything else is an UpstreamError.
   */
  async json<T>(req: UpstreamRequest, notFound: 'null' | 'error' = 'error', shape?: Shape<T>): Promise<T | null> {
    const response = await this.request(req);
    if (response.status === 404 && notFound === 'null') return null;
    if (response.status < 200 || response.status >= 300) throw this.statusError(response);
    return this.parse(response, shape);
  }

  /** The answer's JSON (parsed once per answer); not JSON, or not of `shape`, is an UpstreamError. */
  parse<T>(response: UpstreamResponse, shape?: Shape<T>): T {
    if (response.parsed === undefined) {
      try {
        response.parsed = JSON.parse(response.body.toString('utf8'));
      } catch {
        throw new UpstreamError(this.name, 'invalid-body', response.status);
      }
      // A stored answer now holds its parsed value too: the store counts it against its bound.
      this.options.cache?.store.memoised?.(response);
    }
    if (shape && !shape(response.parsed)) throw new UpstreamError(this.name, 'invalid-body', response.status);
    return response.parsed as T;
  }

  statusError(response: UpstreamResponse): UpstreamError {
    return new UpstreamError(this.name, 'status', response.status, parseRetryAfter(response.headers['retry-after']));
  }

  /** A Retry-After (seconds or an HTTP date) longer than maxWaitMs, as maxWaitMs in seconds. */
  private cappedRetryAfter(value: string): string {
    const seconds = parseRetryAfter(value);
    const maxSeconds = Math.floor(this.options.retry.maxWaitMs / 1000);
    return seconds !== undefined && seconds > maxSeconds ? String(maxSeconds) : value;
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

/** The same stored answer: the same object in process, the same bytes when read again from Redis. */
function sameAnswer(a: UpstreamResponse, b: UpstreamResponse): boolean {
  return a === b || (a.status === b.status && a.headers.etag === b.headers.etag && a.body.equals(b.body));
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
  cancellation: Cancellation;
  waiters: number;
  /** Who started it: charged for its upstream calls. */
  client: string | undefined;
  /** Its lookup span, when traced: the joiners' spans link to it. */
  trace: TraceSpan | undefined;
}

/**
 * Waits for a shared call, but lets one waiter leave when its own client goes away; when the last
 * waiter leaves, the upstream call itself is cancelled.
 */
function wait(call: SharedCall, signal: CancelSignal | undefined): Promise<Cached> {
  if (!signal) {
    call.waiters++;
    return call.promise;
  }
  if (signal.aborted) return Promise.reject(signal.reason);
  call.waiters++;
  return new Promise<Cached>((resolve, reject) => {
    const stopWatching = onAbort(signal, () => {
      if (--call.waiters === 0) call.cancellation.abort(signal.reason);
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
 * Calls `listener` when `signal` aborts, until the returned function is called. A Cancellation
 * (every request the gateway serves) keeps its listeners in a set of its own. On an AbortSignal,
 * one listener per signal, however many lookups wait on it: a query with dozens of fields would
 * otherwise add one listener per lookup to the same signal (and Node warns past 10).
 */
const abortWatchers = new WeakMap<CancelSignal, Set<() => void>>();
function onAbort(signal: CancelSignal, listener: () => void): () => void {
  if (signal instanceof Cancellation) {
    signal.addEventListener('abort', listener);
    return () => signal.removeEventListener('abort', listener);
  }
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
