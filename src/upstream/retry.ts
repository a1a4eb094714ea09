/**
 * The retrying part of the pipeline: a request sent through its guards under one deadline, and
 * sent again when that is worth it (see send).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { ExchangeSignal } from '../lib/cancellation.js';
import { UpstreamError, parseRetryAfter, type ServiceName } from '../errors.js';
import type { UpstreamEvents } from '../observe/metrics.js';
import type { Exchange } from './exchange.js';
import type { ClientShare } from './guards/client-share.js';
import type { GuardSet, Guards } from './guards/guard-set.js';
import { RetryBudget, backoffMs } from './guards/retry-budget.js';
import { ServiceProbe } from './guards/service-probe.js';
import type { ServiceOptions, UpstreamRequest, UpstreamResponse } from './request.js';

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

export class Retries {
  private readonly name: ServiceName;
  private readonly retryBudget = new RetryBudget();
  /** The gateway's own half-open probe, for a service with a probe path. */
  private readonly probe: ServiceProbe | undefined;

  constructor(
    /** The stage below: one HTTP exchange. */
    private readonly next: Exchange,
    private readonly guards: GuardSet,
    /** Per-client fairness, when on. */
    private readonly clients: ClientShare | undefined,
    private readonly options: ServiceOptions,
    private readonly logger: Logger,
    private readonly events: UpstreamEvents,
  ) {
    this.name = options.name;
    this.probe = options.probe && new ServiceProbe(options.probe, next, options.timeoutMs);
  }

  /**
   * Sends a request through the quota gate, the breaker (the tenant's, on a per-tenant service) and
   * the client's share, retrying idempotent requests on connection errors, 429 and 502/503/504
   * with backoff, within the retry budget, the client's share and the one deadline. A 500 is never
   * retried: the upstream answered, and would answer the same input the same. Answers the last
   * response; throws UpstreamError when none came.
   */
  async send(req: UpstreamRequest): Promise<UpstreamResponse> {
    const exchange = new ExchangeSignal(this.options.timeoutMs, req.signal, req.notAfter);
    try {
      return await this.sendWithin(req, exchange);
    } finally {
      exchange.end();
    }
  }

  /** send()'s attempts and retries, all under `exchange`'s one deadline. */
  private async sendWithin(req: UpstreamRequest, exchange: ExchangeSignal): Promise<UpstreamResponse> {
    const { signal } = exchange;
    const idempotent = (req.method ?? 'GET') !== 'DELETE';
    const guards = this.guards.for(req);
    this.retryBudget.deposit();
    // The quota block this request's retry has already slept through (a 429's Retry-After).
    let waitedOut = 0;
    for (let attempt = 0; ; attempt++) {
      // A block this request waited out is not asked again: under load a timer fires a few
      // milliseconds before Date.now() reaches its end, and the retry would be refused by it.
      const wait = guards.quota.until > waitedOut ? guards.quota.waitSeconds() : 0;
      // The upstream said its quota is spent: asking again now would only cost more of it.
      if (wait > 0) throw new UpstreamError(this.name, 'status', 429, wait);
      if (!guards.breaker.allow(req.client) && !(await this.probed(guards, req, exchange))) {
        const refusal = new UpstreamError(this.name, 'unavailable', undefined, guards.breaker.retryAfterSeconds());
        if (guards.breaker.refusesOnly(req.client)) refusal.clientOnly = true;
        throw refusal;
      }
      // A retry was counted when it was decided on, below. (Awaited only when counted elsewhere.)
      const taken = attempt === 0 ? this.clients?.take(req.client) : undefined;
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
        response = await this.next.attempt(req, guards, exchange, attempt);
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
        Date.now() + delay >= exchange.startBy ||
        !this.retryBudget.tryWithdraw() ||
        (await this.clients?.take(req.client)) !== undefined
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
        throw this.cutShort(req);
      }
    }
  }

  /**
   * Whether the service's own probe, past the cooldown, has closed the breaker for this request;
   * one whose field's deadline passed meanwhile, or whose quota the probe found spent, is not sent.
   */
  private async probed(guards: Guards, req: UpstreamRequest, exchange: ExchangeSignal): Promise<boolean> {
    if (!this.probe) return false;
    let admitted: boolean;
    try {
      admitted = await this.probe.admits(guards, req.client, exchange.signal);
    } catch {
      throw this.cutShort(req);
    }
    if (!admitted) return false;
    if (Date.now() >= exchange.startBy) throw new UpstreamError(this.name, 'timeout');
    // The probe's answer may have said the quota is spent (a 429): this request would only cost more of it.
    const wait = guards.quota.waitSeconds();
    if (wait > 0) throw new UpstreamError(this.name, 'status', 429, wait);
    return true;
  }

  /** A wait ended by the client leaving (its reason) or by the deadline. */
  private cutShort(req: UpstreamRequest): unknown {
    return req.signal?.aborted ? req.signal.reason : new UpstreamError(this.name, 'timeout');
  }
}
