import { parseRetryAfter } from '../errors.js';

/**
 * The transport policies of one upstream service, each small and named: a retry budget, backoff
 * with full jitter, a circuit breaker, and a quota gate fed by the upstream's rate-limit headers.
 * All are in-process and per service; they take the clock as an argument so tests can drive them.
 */

/**
 * Retries may add at most `ratio` extra load (10%), plus a small floor per second so that a quiet
 * service can still retry a single transient failure.
 */
export class RetryBudget {
  private tokens: number;
  private last: number;

  constructor(
    private readonly ratio = 0.1,
    private readonly floorPerSecond = 1,
    private readonly max = 20,
    now = Date.now(),
  ) {
    this.tokens = max / 2;
    this.last = now;
  }

  /** Every first attempt earns `ratio` of a retry. */
  deposit(now = Date.now()): void {
    this.refill(now);
    this.tokens = Math.min(this.max, this.tokens + this.ratio);
  }

  tryWithdraw(now = Date.now()): boolean {
    this.refill(now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private refill(now: number): void {
    this.tokens = Math.min(this.max, this.tokens + ((now - this.last) / 1000) * this.floorPerSecond);
    this.last = now;
  }
}

/** Exponential backoff with full jitter: uniform in [0, min(cap, base · 2^attempt)). */
export function backoffMs(attempt: number, baseMs = 50, capMs = 1000, random = Math.random): number {
  return Math.floor(random() * Math.min(capMs, baseMs * 2 ** attempt));
}

export type BreakerState = 'closed' | 'open' | 'half-open';

/**
 * Opens after `threshold` consecutive failures; while open, requests fail fast. After `cooldownMs`
 * one probe is let through (half-open): its success closes the breaker, its failure re-opens it.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt = 0;
  private probing = false;
  state: BreakerState = 'closed';

  constructor(
    readonly threshold = 5,
    readonly cooldownMs = 5_000,
    private readonly onChange: (state: BreakerState) => void = () => {},
  ) {}

  /** May a request go to the upstream now? */
  allow(now = Date.now()): boolean {
    if (this.state === 'closed') return true;
    if (this.state === 'open' && now - this.openedAt >= this.cooldownMs) this.set('half-open');
    if (this.state === 'half-open' && !this.probing) {
      this.probing = true;
      return true;
    }
    return false;
  }

  success(): void {
    this.failures = 0;
    this.probing = false;
    if (this.state !== 'closed') this.set('closed');
  }

  failure(now = Date.now()): void {
    this.failures++;
    this.probing = false;
    if (this.state === 'half-open' || this.failures >= this.threshold) {
      this.openedAt = now;
      if (this.state !== 'open') this.set('open');
    }
  }

  /** Opens the breaker until `until` (another replica saw the service fail), unless it already is. */
  openUntil(until: number, now = Date.now()): void {
    if (this.state === 'open' || until <= now) return;
    this.openedAt = until - this.cooldownMs;
    this.probing = false;
    this.set('open');
  }

  /** When an open breaker lets its probe through; 0 when not open. */
  get openUntilTime(): number {
    return this.state === 'open' ? this.openedAt + this.cooldownMs : 0;
  }

  /** Seconds until a probe may go, for clients' retryAfter. */
  retryAfterSeconds(now = Date.now()): number {
    return Math.max(1, Math.ceil((this.openedAt + this.cooldownMs - now) / 1000));
  }

  private set(state: BreakerState): void {
    this.state = state;
    this.onChange(state);
  }
}

/**
 * Remembers what the upstream said of its quota: while it is exhausted (429 with Retry-After, or
 * a remaining count of 0 with a reset time), nothing is sent until the reset.
 */
export class QuotaGate {
  private blockedUntil = 0;

  /** `onBlock` is told of each new block learned from the upstream (to share it with replicas). */
  constructor(private readonly onBlock: (until: number) => void = () => {}) {}

  /** The last remaining count the upstream reported (most specific header wins), if any. */
  remaining: number | undefined;

  /** Reads `ratelimit-*`, `x-ratelimit-remaining-*-*` and `retry-after` of one answer. */
  observe(status: number, headers: Record<string, string>, now = Date.now()): void {
    const remaining = lowestRemaining(headers);
    if (remaining !== undefined) this.remaining = remaining;
    const retryAfter = status === 429 ? parseRetryAfter(headers['retry-after'], now) : undefined;
    if (retryAfter !== undefined) {
      this.learn(now + retryAfter * 1000);
    } else if (remaining === 0) {
      const reset = parseSeconds(headers['ratelimit-reset']);
      // The docs say Unix time; the IETF draft says seconds from now. Small values are a delta.
      if (reset !== undefined) this.learn(reset > 1e9 ? reset * 1000 : now + reset * 1000);
    }
  }

  /** Seconds to wait before sending, or 0 when the quota allows a request now. */
  waitSeconds(now = Date.now()): number {
    return this.blockedUntil > now ? Math.ceil((this.blockedUntil - now) / 1000) : 0;
  }

  /** Applies a block, learned here or from another replica. */
  blockUntil(until: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, until);
  }

  get until(): number {
    return this.blockedUntil;
  }

  private learn(until: number): void {
    if (until <= this.blockedUntil) return;
    this.blockUntil(until);
    this.onBlock(until);
  }
}

/** Headers the upstream layer keeps from each answer: the rate-limit family. */
export function isRateLimitHeader(name: string): boolean {
  return name.startsWith('ratelimit-') || name.startsWith('x-ratelimit-') || name === 'retry-after';
}

function lowestRemaining(headers: Record<string, string>): number | undefined {
  let lowest: number | undefined;
  for (const [name, value] of Object.entries(headers)) {
    if (name !== 'ratelimit-remaining' && !name.startsWith('x-ratelimit-remaining-')) continue;
    const count = parseSeconds(value);
    if (count !== undefined) lowest = lowest === undefined ? count : Math.min(lowest, count);
  }
  return lowest;
}

function parseSeconds(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}
