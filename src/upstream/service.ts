/**
 * The only place that does HTTP to the upstreams: one UpstreamService per service, its pipeline
 * made of stages, each in its file, composed here in one order (outermost first):
 *
 *   request → lookup span (when traced) → the request's byte budget (ResponseBudget)
 *     → ledger (used-answers.ts): [GET of a cached service: coalesce (coalesce.ts)
 *         → HTTP cache: fresh | revalidate | stale-if-error (http-cache.ts)
 *         → for a data source with Redis: one flight for the group's processes (shared-flights.ts)]
 *     → retries under one deadline: quota gate → circuit breaker → client's share (retry.ts, guards/)
 *     → one exchange: [per tenant: its share of the pool] → the pool (exchange.ts)
 *
 * The breaker and quota gate are the service's own, except for the platform, whose tenants (its
 * API keys) each have their own (guards/guard-set.ts). The breaker counts only the service not
 * answering (guards/circuit-breaker.ts, isServiceDown): an answer that one request's input
 * decides, a 500 or one too large, is that request's failure alone.
 * Nothing here knows about GraphQL or the REST layer.
 */
import { UpstreamError, parseRetryAfter, type ServiceName } from '../errors.js';
import { merged } from '../lib/merge.js';
import { noUpstreamEvents } from '../observe/metrics.js';
import type { TraceSpan } from '../observe/tracing.js';
import { LocalClientLimiter } from './client-limits.js';
import { Coalescer } from './coalesce.js';
import { Exchange } from './exchange.js';
import { ClientShare } from './guards/client-share.js';
import { GuardSet, type Guards, type ServiceHealth } from './guards/guard-set.js';
import { HttpCache, sameAnswer } from './http-cache.js';
import type { AnswerSource, CallOptions, ServiceOptions, UpstreamRequest, UpstreamResponse, UsedAnswer } from './request.js';
import { pastDeadline } from './deadline.js';
import { Retries } from './retry.js';
import { notFoundAnswer, type Shape } from './shapes.js';
import type { SignalKeys } from './shared-state.js';
import { Ledger } from './used-answers.js';
import { utf8Text } from '../lib/utf8-text.js';

export class UpstreamService implements AnswerSource {
  readonly name: ServiceName;
  /** The service's breaker and quota gate; undefined where they are kept per tenant. */
  readonly guards: Guards | undefined;
  /** Where its guards' signals are shared (shared-state.ts). */
  readonly signalKeys: SignalKeys;
  private readonly options: ServiceOptions;
  private readonly guardSet: GuardSet;
  private readonly exchange: Exchange;
  private readonly cache: HttpCache | undefined;
  private readonly ledger: Ledger;
  /** Answers parsed once and not kept parsed (see parse). */
  private readonly readOnce = new WeakSet<UpstreamResponse>();

  constructor(options: ServiceOptions) {
    this.options = options;
    this.name = options.name;
    const logger = options.logger.child({ upstream: options.name });
    const events = options.events ?? noUpstreamEvents;
    this.guardSet = new GuardSet(options, logger, events);
    this.guards = this.guardSet.service;
    this.signalKeys = this.guardSet.signalKeys;
    const perMinute = options.clientCallsPerMinute;
    const clients =
      perMinute === undefined
        ? undefined
        : new ClientShare(perMinute, options.clientLimiter ?? new LocalClientLimiter(1), this.guards?.quota, options.quotaPerMinute);
    // The stages, innermost first: each is handed the one below it.
    this.exchange = new Exchange(options, logger, events);
    const retries = new Retries(this.exchange, this.guardSet, clients, options, logger, events);
    this.cache = options.cache && new HttpCache(this.name, options.cache, retries, events, options.timeoutMs);
    const coalescer = this.cache && new Coalescer(this.name, this.cache, events);
    this.ledger = new Ledger(this.name, options.baseUrl.href, this, coalescer, retries);
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
    // Asked after its field's deadline: nobody waits for the answer, so nothing is spent on it.
    if (pastDeadline(req)) return Promise.reject(new UpstreamError(this.name, 'timeout'));
    const parent = req.trace ?? req.stats?.trace;
    return parent ? this.traced(req, parent) : this.budgeted(req);
  }

  private budgeted(req: UpstreamRequest): Promise<UpstreamResponse> {
    const answer = this.ledger.request(req);
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

  /**
   * Whether `used` is still the answer in the cache, and fresh, or confirmed by an upstream answer
   * that came at or after `confirmedSince` (see HttpCache.isCurrent): no upstream call, no await.
   */
  isCurrent(used: UsedAnswer, confirmedSince = Infinity): boolean {
    return this.cache?.isCurrent(used, confirmedSince) ?? false;
  }

  /**
   * Asks for `used` again through the cache (a 304 confirms it without a new body): true when the
   * answer is still the same, false when it changed, failed or is stale.
   */
  confirm(used: UsedAnswer, call: CallOptions): Promise<boolean> {
    return this.ledger.request(merged(used.request, call)).then(
      (response) => !response.stale && sameAnswer(response, used.response),
      () => false,
    );
  }

  /** /readyz: see GuardSet.health. */
  health(now = Date.now(), client?: string): ServiceHealth {
    return this.guardSet.health(now, client);
  }

  /**
   * GETs JSON. A 2xx answer is parsed and, given a `shape`, checked (see shapes.ts); `notFound`
   * decides what the handler's 404 means (null for lookups); anything else is an UpstreamError.
   */
  async json<T>(req: UpstreamRequest, notFound: 'null' | 'error' = 'error', shape?: Shape<T>): Promise<T | null> {
    const response = await this.request(req);
    if (notFound === 'null' && this.saysNotFound(response)) return null;
    if (response.status < 200 || response.status >= 300) throw this.statusError(response);
    return this.parse(response, shape);
  }

  /**
   * The answer's JSON; not JSON, or not of `shape`, is an UpstreamError. An answer is kept parsed
   * from its second reading on: a page read once (W8's pages at every offset) would otherwise keep
   * its objects as long as its cache entry, so they were promoted and marked by every mark-compact
   * (6% of that row's CPU). The store then counts the parse against its bound.
   */
  parse<T>(response: UpstreamResponse, shape?: Shape<T>): T {
    let value = response.parsed;
    if (value === undefined) {
      try {
        value = JSON.parse(utf8Text(response.body)) as unknown;
      } catch {
        throw new UpstreamError(this.name, 'invalid-body', response.status);
      }
      if (this.readOnce.has(response)) {
        response.parsed = value;
        this.options.cache?.store.memoised?.(response);
      } else {
        this.readOnce.add(response);
      }
    }
    if (shape && !shape(value)) throw new UpstreamError(this.name, 'invalid-body', response.status);
    return value as T;
  }

  /** A 404 that is the service's own "no such thing" (shapes.ts notFoundAnswer), not any 404. */
  saysNotFound(response: UpstreamResponse): boolean {
    if (response.status !== 404) return false;
    try {
      return notFoundAnswer(this.parse(response));
    } catch {
      return false;
    }
  }

  statusError(response: UpstreamResponse): UpstreamError {
    return new UpstreamError(this.name, 'status', response.status, parseRetryAfter(response.headers['retry-after']));
  }

  async close(): Promise<void> {
    await this.exchange.close();
  }
}
