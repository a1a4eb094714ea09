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
