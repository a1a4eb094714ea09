import { createHmac, randomBytes } from 'node:crypto';
import { parseRetryAfter } from '../errors.js';

/**
 * The transport policies of one upstream service, each small and named: a retry budget, backoff
 * with full jitter, a circuit breaker, a quota gate fed by the upstream's rate-limit headers, a
 * bulkhead, per-client call windows, and the bounded table that keeps such state per tenant or
 * per client. All are in-process; they take the clock as an argument so tests can drive them.
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
 * Statuses that say the service itself is down (its proxy or load balancer answering for it):
 * they count towards the breaker, with transport failures and timeouts. Any other answer, a 500
 * included, comes from a live server about that one request, and what it says depends on the
 * request's input (the ordinals API answers 500 to every `transfers?block=<hash>`): counting it
 * would let one client open the breaker for everybody with inputs of its choosing.
 */
const SERVICE_DOWN_STATUS = new Set([502, 503, 504]);

/** Does this answer count as the service failing (see SERVICE_DOWN_STATUS)? */
export function isServiceDown(status: number): boolean {
  return SERVICE_DOWN_STATUS.has(status);
}

/**
 * Opens after `threshold` consecutive failures; while open, requests fail fast. After `cooldownMs`
 * one probe is let through (half-open): its success closes the breaker, its failure re-opens it.
 * A failure is the service not answering (isServiceDown); a success is any other answer.
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

  /** The probe went without an answer (its client left): the next request may probe instead. */
  abandon(): void {
    this.probing = false;
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

  /**
   * Opens the breaker until `until` (another replica saw the service fail), unless it already is.
   * No replica opens it for longer than one cooldown, so a later time (a bad Redis value) is cut.
   */
  openUntil(until: number, now = Date.now()): void {
    if (this.state === 'open' || until <= now) return;
    this.openedAt = Math.min(until, now + this.cooldownMs) - this.cooldownMs;
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
 * a remaining count of 0 with a reset time), nothing is sent until the reset. No block lasts
 * longer than `maxWaitMs` from when it is applied, whatever the upstream or another replica said.
 */
export class QuotaGate {
  private blockedUntil = 0;

  /** `onBlock` is told of each new block learned from the upstream (to share it with replicas). */
  constructor(
    private readonly maxWaitMs: number,
    private readonly onBlock: (until: number) => void = () => {},
  ) {}

  /** The last remaining count the upstream reported (most specific header wins), if any. */
  remaining: number | undefined;
  /** The last per-minute request limit the upstream advertised (the lowest header), if any. */
  limitPerMinute: number | undefined;

  /** Reads `ratelimit-*`, `x-ratelimit-{remaining,limit}-*` and `retry-after` of one answer. */
  observe(status: number, headers: Record<string, string>, now = Date.now()): void {
    const remaining = lowest(headers, (name) => name === 'ratelimit-remaining' || name.startsWith('x-ratelimit-remaining-'));
    if (remaining !== undefined) this.remaining = remaining;
    const limit = lowest(headers, (name) => name === 'ratelimit-limit' || /^x-ratelimit-limit-([a-z]+-)?minute$/.test(name));
    if (limit !== undefined) this.limitPerMinute = limit;
    const retryAfter = status === 429 ? parseRetryAfter(headers['retry-after'], now) : undefined;
    if (retryAfter !== undefined) {
      this.learn(now + retryAfter * 1000, now);
    } else if (remaining === 0) {
      const reset = parseSeconds(headers['ratelimit-reset']);
      // The docs say Unix time; the IETF draft says seconds from now. Small values are a delta.
      if (reset !== undefined) this.learn(reset > 1e9 ? reset * 1000 : now + reset * 1000, now);
    }
  }

  /** Seconds to wait before sending, or 0 when the quota allows a request now. */
  waitSeconds(now = Date.now()): number {
    return this.blockedUntil > now ? Math.ceil((this.blockedUntil - now) / 1000) : 0;
  }

  /** Applies a block, learned here or from another replica, cut to `maxWaitMs` from now. */
  blockUntil(until: number, now = Date.now()): void {
    this.blockedUntil = Math.max(this.blockedUntil, Math.min(until, now + this.maxWaitMs));
  }

  get until(): number {
    return this.blockedUntil;
  }

  private learn(until: number, now: number): void {
    const before = this.blockedUntil;
    this.blockUntil(until, now);
    if (this.blockedUntil > before) this.onBlock(this.blockedUntil);
  }
}

/** Headers the upstream layer keeps from each answer: the rate-limit family. */
export function isRateLimitHeader(name: string): boolean {
  return name.startsWith('ratelimit-') || name.startsWith('x-ratelimit-') || name === 'retry-after';
}

/** The lowest count among the headers `named` picks. */
function lowest(headers: Record<string, string>, named: (name: string) => boolean): number | undefined {
  let lowest: number | undefined;
  for (const [name, value] of Object.entries(headers)) {
    if (!named(name)) continue;
    const count = parseSeconds(value);
    if (count !== undefined) lowest = lowest === undefined ? count : Math.min(lowest, count);
  }
  return lowest;
}

function parseSeconds(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}

let secret: Buffer = randomBytes(32);

/**
 * A keyed hash (HMAC-SHA256 with a secret drawn at start, base64url: 43 characters) of an identity
 * that must never be kept in clear: a platform key, a client's address. It means nothing outside
 * the processes that share the secret (this one, or with Redis every worker and replica: see
 * hash-secret.ts), so it may key counters without the identity itself ever being stored.
 */
export function keyedHash(value: string): string {
  return createHmac('sha256', secret).update(value).digest('base64url');
}

/** Keys every later keyedHash with `shared` (32 bytes), the secret of every process of the group. */
export function useKeyedHashSecret(shared: Buffer): void {
  if (shared.length !== 32) throw new Error('a keyed-hash secret is 32 bytes');
  secret = shared;
}

/**
 * A least-recently-used table with a count bound and idle expiry. Its keys are keyed hashes and
 * its values small fixed-size records, so the count bound is a byte bound as well.
 */
export class LruTable<V> {
  private readonly entries = new Map<string, { value: V; usedAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly idleMs: number,
  ) {}

  /** The value for `key` (created when absent or idle too long), now the most recently used. */
  use(key: string, create: () => V, now = Date.now()): V {
    const found = this.peek(key, now);
    this.entries.delete(key);
    const value = found ?? create();
    this.entries.set(key, { value, usedAt: now });
    // Oldest first: drop what has idled out, then whatever is past the bound.
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && now - entry.usedAt < this.idleMs) break;
      this.entries.delete(oldest);
    }
    return value;
  }

  /** The value for `key` unless absent or idle too long; its recency is left as it was. */
  peek(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    return entry && now - entry.usedAt < this.idleMs ? entry.value : undefined;
  }

  /** The values not idle too long. */
  *values(now = Date.now()): IterableIterator<V> {
    for (const entry of this.entries.values()) if (now - entry.usedAt < this.idleMs) yield entry.value;
  }
}

/**
 * At most `max` exchanges at once; the others wait their turn, in order, each until its own signal
 * aborts. Keeps one tenant from holding every connection of a shared pool.
 */
export class Bulkhead {
  private running = 0;
  private readonly waiting = new Set<() => void>();

  constructor(private readonly max: number) {}

  /** Resolves with the slot's release once one is free; rejects with the reason when `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.running < this.max) {
      this.running++;
      return Promise.resolve(this.release());
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(grant);
        reject(signal.reason);
      };
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        this.running++;
        resolve(this.release());
      };
      this.waiting.add(grant);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private release(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const next = this.waiting.values().next();
      if (next.done) return;
      this.waiting.delete(next.value);
      next.value();
    };
  }
}

const MINUTE_MS = 60_000;
/**
 * Clients whose windows are kept. A record is two numbers under a 43-character key, about 200
 * bytes with the Map's own overhead: 10,000 clients are ~2 MB.
 */
const MAX_CLIENTS = 10_000;

/**
 * Per-client call windows of one process: a client may cause at most `limit` upstream calls in a
 * one-minute window that opens with its first call (a fixed window, as the upstreams count theirs).
 * Clients are keyed hashes of their addresses; the least recently seen are forgotten first.
 */
export class ClientWindows {
  private readonly windows = new LruTable<{ openedAt: number; calls: number }>(MAX_CLIENTS, MINUTE_MS);

  /** Counts one call of `client` if it is within `limit`: 0; else the seconds until it may (not counted). */
  take(client: string, limit: number, now = Date.now()): number {
    const window = this.windows.use(client, () => ({ openedAt: now, calls: 0 }), now);
    if (now - window.openedAt >= MINUTE_MS) Object.assign(window, { openedAt: now, calls: 0 });
    if (window.calls >= limit) return Math.max(1, Math.ceil((window.openedAt + MINUTE_MS - now) / 1000));
    window.calls++;
    return 0;
  }
}
