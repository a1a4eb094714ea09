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
