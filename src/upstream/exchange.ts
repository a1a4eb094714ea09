/**
 * One HTTP exchange with an upstream service, on the service's keep-alive pool (created at start,
 * closed on shutdown, every phase bounded by the deadline): the headers it sends (API key, request
 * id, trace context), the whole body read (error answers included) and what the answer tells the
 * breaker, the quota gate and the metrics.
 */
import { Pool } from 'undici';
import type { Logger } from 'pino';
import type { ExchangeSignal } from '../lib/cancellation.js';
import { UpstreamError, parseRetryAfter, type ServiceName } from '../errors.js';
import type { UpstreamEvents } from '../observe/metrics.js';
import { SpanKind } from '../observe/tracing.js';
import { isServiceDown } from './guards/circuit-breaker.js';
import type { Guards } from './guards/guard-set.js';
import { isRateLimitHeader } from './guards/quota-gate.js';
import { Bulkhead } from './guards/bulkhead.js';
import { isHttpAnswer, isJsonApiAnswer } from './json-answer.js';
import { queryString } from './paths.js';
import type { ServiceOptions, UpstreamRequest, UpstreamResponse } from './request.js';

const PASSED_HEADERS = ['content-type', 'etag', 'cache-control', 'retry-after'] as const;
/** A shorter credential (a misconfiguration) would be found in answers by chance. */
const MIN_CREDENTIAL_LENGTH = 8;
/** Connection-level errors that are a timeout rather than "could not reach" (undici's err.code). */
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export class Exchange {
  /** The outcome of the last attempt, for /readyz. */
  lastOutcome: { outcome: string; at: number } | undefined;
  private readonly name: ServiceName;
  private readonly pool: Pool;
  private readonly basePath: string;
  /** The pool's connections, for a service whose calls a budget admits (beforeAttempt). */
  private readonly sendSlots: Bulkhead | undefined;
  /** What of the gateway's credentials this service is sent: its API key, the token of its Authorization. */
  private readonly credentials: string[];

  constructor(
    private readonly options: ServiceOptions,
    private readonly logger: Logger,
    private readonly events: UpstreamEvents,
  ) {
    this.name = options.name;
    this.basePath = options.baseUrl.pathname.replace(/\/+$/, '');
    if (options.beforeAttempt) this.sendSlots = new Bulkhead(options.connections);
    this.credentials = [options.apiKey, ...Object.values(options.headers ?? {}).map((value) => value.split(' ').pop())].filter(
      (credential): credential is string => credential !== undefined && credential.length >= MIN_CREDENTIAL_LENGTH,
    );
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
   * One HTTP exchange (after waiting for the tenant's share of the pool): reads the whole body,
   * feeds the breaker, the quota gate and the metrics. `retry` counts the attempts before it.
   */
  async attempt(
    req: UpstreamRequest,
    { breaker, quota, bulkhead, clientBulkhead }: Guards,
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
    // A call the budget admits is sent at once: admitted while every connection was busy, it would
    // wait in the pool and could leave together with calls admitted a second later.
    let sendSlot: (() => void) | undefined;
    if (this.options.beforeAttempt) {
      try {
        sendSlot = await this.sendSlots!.acquire(signal);
        await this.options.beforeAttempt(signal, exchange.startBy, req.client, req.joined);
      } catch (error) {
        sendSlot?.();
        // Nothing was sent: a probe this would have been lets the next request probe instead.
        breaker.abandon();
        span?.fail('refused').end();
        if (req.signal?.aborted) throw req.signal.reason ?? error;
        if (exchange.timedOut && !(error instanceof UpstreamError)) throw new UpstreamError(this.name, 'timeout');
        throw error;
      }
    }
    const started = performance.now();
    let outcome = 'unavailable';
    if (req.stats) req.stats.upstreamCalls++;
    let release: (() => void) | undefined;
    let releaseClient: (() => void) | undefined;
    try {
      // The client's share first: waiting for it holds none of the tenant's.
      if (clientBulkhead) releaseClient = await clientBulkhead.acquire(signal);
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
      if (kept['retry-after'] !== undefined) {
        const retryAfter = this.cappedRetryAfter(kept['retry-after']);
        if (retryAfter === undefined) delete kept['retry-after'];
        else kept['retry-after'] = retryAfter;
      }
      outcome = String(response.statusCode);
      span?.set('http.response.status_code', response.statusCode);
      const isAnswer = this.options.answersJson ? isJsonApiAnswer : isHttpAnswer;
      if (
        !isAnswer(response.statusCode, response.headers, body, req.ifNoneMatch !== undefined) ||
        this.quotesCredentials(response.statusCode, body)
      ) {
        // Not the service answering (a portal, a proxy in between): as if it had not answered.
        outcome = 'invalid-body';
        span?.fail(outcome);
        breaker.failure(req.client);
        this.logger.warn(
          { method, route: req.route, status: response.statusCode, requestId: req.requestId },
          'upstream answer is not JSON',
        );
        throw new UpstreamError(this.name, 'invalid-body', response.statusCode);
      }
      if (response.statusCode >= 500) span?.fail(outcome);
      quota.observe(response.statusCode, rateLimit);
      // A tenant's quota is its own: only the service's is a metric.
      if (!this.options.perTenant && quota.remaining !== undefined) this.events.quotaRemaining(this.name, quota.remaining);
      // The service answered: only its saying it is down (isServiceDown: 502/503/504, a CDN's 52x) counts against it.
      if (isServiceDown(response.statusCode)) breaker.failure(req.client);
      else breaker.success(req.client);
      return { status: response.statusCode, headers: kept, body };
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
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
      if (kind === 'too-large') breaker.success(req.client);
      else breaker.failure(req.client);
      this.logger.warn({ method, route: req.route, kind, code, requestId: req.requestId }, 'upstream request failed');
      throw new UpstreamError(this.name, kind);
    } finally {
      release?.();
      releaseClient?.();
      sendSlot?.();
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
   * A success that quotes the credentials it was asked with (a proxy or a debug build echoing the
   * request) is no answer of the service: REST would mirror it and GraphQL serve it, key and all.
   * An error's body is passed on redacted instead (rest/handler.ts), and never read for GraphQL.
   */
  private quotesCredentials(status: number, body: Buffer): boolean {
    return status < 300 && this.credentials.some((credential) => body.includes(credential));
  }

  /**
   * A Retry-After (seconds or an HTTP date) longer than maxWaitMs, as maxWaitMs in seconds;
   * undefined for one that is neither, which no client could read either.
   */
  private cappedRetryAfter(value: string): string | undefined {
    const seconds = parseRetryAfter(value);
    if (seconds === undefined) return undefined;
    const maxSeconds = Math.floor(this.options.retry.maxWaitMs / 1000);
    return seconds > maxSeconds ? String(maxSeconds) : value;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'UNKNOWN';
}
