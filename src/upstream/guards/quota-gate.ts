import { parseRetryAfter } from '../../errors.js';

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
      const until = spentUntil(headers, now);
      if (until !== undefined) this.learn(until, now);
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

/** How long each window of `x-ratelimit-remaining-[<service>-]<window>` lasts. */
const WINDOW_MS: Record<string, number> = { second: 1_000, minute: 60_000, hour: 3_600_000, day: 86_400_000 };
const WINDOW_REMAINING = /^x-ratelimit-remaining-(?:[a-z]+-)?([a-z]+)$/;

/**
 * Until when nothing is left, by the answer's spent windows. `ratelimit-reset` is the end of the
 * window `ratelimit-remaining` counts, not of every window: Hiro's answer to the 20th call of a
 * second says 0 left in its per-second window, and blocking every client until the reset of the
 * minute's (or month's) window refused them all for up to MAX_UPSTREAM_WAIT_MS. A spent window
 * blocks until that reset at most, and at most for its own length.
 */
function spentUntil(headers: Record<string, string>, now: number): number | undefined {
  const reset = parseSeconds(headers['ratelimit-reset']);
  // The docs say Unix time; the IETF draft says seconds from now. Small values are a delta.
  const resetAt = reset === undefined ? undefined : reset > 1e9 ? reset * 1000 : now + reset * 1000;
  let until: number | undefined;
  for (const [name, value] of Object.entries(headers)) {
    const window = name === 'ratelimit-remaining' ? '' : WINDOW_REMAINING.exec(name)?.[1];
    if (window === undefined || parseSeconds(value) !== 0) continue;
    // A window of unknown length (a month's) ends at the reset, when there is one.
    const end = Math.min(resetAt ?? Infinity, now + (WINDOW_MS[window] ?? Infinity));
    if (end !== Infinity) until = Math.max(until ?? 0, end);
  }
  return until;
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
