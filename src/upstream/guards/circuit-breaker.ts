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

/** How recently another client must have been served for one client's failures not to open the breaker. */
const SERVED_OTHERS_MS = 30_000;

/**
 * Opens after `threshold` consecutive failures; while open, requests fail fast. After `cooldownMs`
 * one probe is let through (half-open): its success closes the breaker, its failure re-opens it.
 * A failure is the service not answering (isServiceDown); a success is any other answer.
 *
 * A timeout can be one input's (an offset the upstream's database is slow on): a run of failures
 * that are all one client's opens the breaker only if no other client was served in the last
 * SERVED_OTHERS_MS, so one client cannot fail fast for everyone with inputs of its choosing,
 * however many of them it sends at once. Alone, it opens it as before.
 */
export class CircuitBreaker {
  private failures = 0;
  /** The run's first failing client, and whether another has failed in the run since. */
  private failing: string | undefined;
  private failingSeveral = false;
  /** The last two distinct clients served, newest first, with when. */
  private served: Array<{ client: string; at: number }> = [];
  /** Opened by one client's failures where no other was served: this process's view alone. */
  private byOneClient = false;
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

  /** `client`: who asked (a keyed hash); '' for the gateway's own calls. */
  success(client = '', now = Date.now()): void {
    this.failures = 0;
    this.byOneClient = false;
    this.failing = undefined;
    this.failingSeveral = false;
    this.probing = false;
    if (this.served[0]?.client !== client) this.served = [{ client, at: now }, ...this.served.slice(0, 1)];
    else this.served[0].at = now;
    if (this.state !== 'closed') this.set('closed');
  }

  failure(client = '', now = Date.now()): void {
    this.failures++;
    this.probing = false;
    if (this.failing === undefined) this.failing = client;
    else if (this.failing !== client) this.failingSeveral = true;
    if (this.state === 'half-open' || (this.failures >= this.threshold && !this.oneClientAmongOthers(now))) {
      this.openedAt = now;
      this.byOneClient = !this.failingSeveral;
      if (this.state !== 'open') this.set('open');
    }
  }

  /** The run's failures are all one client's, and another client was served lately. */
  private oneClientAmongOthers(now: number): boolean {
    if (this.failingSeveral) return false;
    return this.served.some(({ client, at }) => client !== this.failing && now - at < SERVED_OTHERS_MS);
  }

  /**
   * Opens the breaker until `until` (another replica saw the service fail), unless it already is.
   * No replica opens it for longer than one cooldown, so a later time (a bad Redis value) is cut.
   */
  openUntil(until: number, now = Date.now()): void {
    if (this.state === 'open' || until <= now) return;
    this.openedAt = Math.min(until, now + this.cooldownMs) - this.cooldownMs;
    this.byOneClient = false;
    this.probing = false;
    this.set('open');
  }

  /** When an open breaker lets its probe through; 0 when not open. */
  get openUntilTime(): number {
    return this.state === 'open' ? this.openedAt + this.cooldownMs : 0;
  }

  /**
   * openUntilTime, as other replicas should take it (shared-state.ts); 0 when one client's failures
   * opened it where no other client was served: another replica may be serving its clients well,
   * and one client must not make every replica fail fast.
   */
  get sharedOpenUntilTime(): number {
    return this.byOneClient ? 0 : this.openUntilTime;
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
