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
 * breaker counts only the service not answering (guards/circuit-breaker.ts, isServiceDown): an answer that one
 * request's input decides, a 500 or one too large, is that request's failure alone.
 * Nothing here knows about GraphQL or the REST layer.
 */
import type { Logger } from 'pino';
import { Cancellation, type CancelSignal } from '../lib/cancellation.js';
import { UpstreamError, parseRetryAfter, type ServiceName } from '../errors.js';
import { merged } from '../lib/merge.js';
import { noUpstreamEvents, type UpstreamEvents } from '../observe/metrics.js';
import type { CacheOutcome } from '../http/request-stats.js';
import type { TraceSpan } from '../observe/tracing.js';
import { cacheKey } from './cache.js';
import { LocalClientLimiter } from './client-limits.js';
import { Exchange } from './exchange.js';
import { ClientShare } from './guards/client-share.js';
import { GuardSet, type Guards, type ServiceHealth } from './guards/guard-set.js';
import { queryString } from './paths.js';
import type {
  AnswerSource,
  CacheEntry,
  CachePolicy,
  CallOptions,
  ServiceOptions,
  UpstreamRequest,
  UpstreamResponse,
  UsedAnswer,
  UsedAnswers,
} from './request.js';
import { Retries } from './retry.js';
import type { Shape } from './shapes.js';

export class UpstreamService implements AnswerSource {
  readonly name: ServiceName;
  /** The service's breaker and quota gate; undefined where they are kept per tenant. */
  readonly guards: Guards | undefined;
  private readonly guardSet: GuardSet;
  private readonly exchange: Exchange;
  private readonly retries: Retries;
  private readonly options: ServiceOptions;
  private readonly logger: Logger;
  private readonly events: UpstreamEvents;
  /** In-flight GETs by cache key: concurrent identical requests share one upstream call. */
  private readonly inflight = new Map<string, SharedCall>();
  /** The last global ETag the upstream confirmed, and when. */
  private lastValidation: { etag: string; at: number } | undefined;

  constructor(options: ServiceOptions) {
    this.options = options;
    this.name = options.name;
    this.logger = options.logger.child({ upstream: options.name });
    this.events = options.events ?? noUpstreamEvents;
    this.guardSet = new GuardSet(options, this.logger, this.events);
    this.guards = this.guardSet.service;
    const perMinute = options.clientCallsPerMinute;
    const clients =
      perMinute === undefined
        ? undefined
        : new ClientShare(perMinute, options.clientLimiter ?? new LocalClientLimiter(1), this.guards?.quota);
    this.exchange = new Exchange(options, this.logger, this.events);
    this.retries = new Retries(this.exchange, this.guardSet, clients, options, this.logger, this.events);
  }

  /** The outcome of the last attempt, for /readyz. */
  get lastOutcome(): { outcome: string; at: number } | undefined {
    return this.exchange.lastOutcome;
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
      return this.retries.send(req);
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
        promise: this.throughCache(key, cache, merged(req, { signal: cancellation })).finally(() =>
          this.inflight.delete(key),
        ),
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

  /** /readyz: see GuardSet.health. */
  health(now = Date.now()): ServiceHealth {
    return this.guardSet.health(now);
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
      response = await this.retries.send(merged(req, { ifNoneMatch: etag }));
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

  async close(): Promise<void> {
    await this.exchange.close();
  }
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
