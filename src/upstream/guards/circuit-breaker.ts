export type BreakerState = 'closed' | 'open' | 'half-open';

/**
 * Statuses that say the service itself is down (its proxy or load balancer answering for it):
 * they count towards the breaker, with transport failures and timeouts. Any other answer, a 500
 * included, comes from a live server about that one request, and what it says depends on the
 * request's input (the ordinals API answers 500 to every `transfers?block=<hash>`): counting it
 * would let one client open the breaker for everybody with inputs of its choosing.
 * Besides 502/503/504, those Cloudflare answers with when the origin behind it does not: 520 to
 * 526 (no valid answer, refused, unreachable, timed out, TLS) and 530. Read as answers, they never
 * opened the breaker of a service down behind it, and one answering the gateway's probe closed it.
 */
const SERVICE_DOWN_STATUS = new Set([502, 503, 504, 520, 521, 522, 523, 524, 525, 526, 530]);

/** Does this answer count as the service failing (see SERVICE_DOWN_STATUS)? */
export function isServiceDown(status: number): boolean {
  return SERVICE_DOWN_STATUS.has(status);
}

/**
 * The client the gateway's own probe (service-probe.ts) is sent as: its success is no client
 * served, and its failure is the service's, whoever's failures opened the breaker.
 */
export const GATEWAY_PROBE = '\0probe';

/** How recently another client must have been served for some clients' failures not to open the breaker. */
const SERVED_OTHERS_MS = 30_000;
/**
 * The clients served that a breaker keeps apart by default: the last ones, by when they were
 * served. A service's breaker keeps more (guard-set.ts): past the table, clients are forgotten.
 */
const TRACKED_CLIENTS = 32;

/**
 * Opens after `threshold` consecutive failures; while open, requests fail fast. After `cooldownMs`
 * one probe is let through (half-open): its success closes the breaker, its failure re-opens it.
 * With `probesItself`, the probe is the gateway's own call to a fixed path (sent by the
 * caller, service-probe.ts), never a client's request: clients whose inputs the upstream times
 * out on could otherwise take every probe and hold the breaker open for everyone.
 * A failure is the service not answering (isServiceDown); a success is any other answer.
 *
 * A timeout can be one input's (an offset the upstream's database is slow on): a run of failures
 * opens the breaker only if every client served in the last SERVED_OTHERS_MS (of the last
 * `trackedClients` served) failed in the run too; a client forgotten to make room, served in that
 * time and not failed, counts as served. So clients that are never served, however many
 * addresses one attacker has and however many inputs they send at once, cannot fail fast for
 * the others; when the service is down, every client fails. Alone, a client opens it as before.
 */
export class CircuitBreaker {
  private failures = 0;
  /** The run's first failing client, and whether another has failed in the run since. */
  private failing: string | undefined;
  private failingSeveral = false;
  /** When each of the last `trackedClients` distinct clients was served. */
  private readonly served = new Map<string, number>();
  /**
   * When the latest client forgotten to make room was served: many addresses each served once
   * (then failing) would otherwise push out a client served a moment ago, and open the breaker
   * for everyone. The cost: where more clients than the table holds are served within
   * SERVED_OTHERS_MS, an outage opens the breaker up to that much later.
   */
  private forgottenServedAt = -Infinity;
  /** The clients of `served` that failed in the run. */
  private readonly servedThenFailed = new Set<string>();
  /** Opened by one client's failures where no other was served: this process's view alone. */
  private byOneClient = false;
  /**
   * The client whose failures alone opened the breaker the gateway's probe then closed: its inputs
   * are what fails, so its next failure opens it again for that client, as its own probe failing
   * did before the probe was the gateway's. Cleared by any client's success.
   */
  private suspect: string | undefined;
  private openedAt = 0;
  private probing = false;
  state: BreakerState = 'closed';

  constructor(
    readonly threshold = 5,
    readonly cooldownMs = 5_000,
    private readonly onChange: (state: BreakerState) => void = () => {},
    /** The half-open probe is the gateway's own call (GATEWAY_PROBE), not a client's request. */
    readonly probesItself = false,
    /** How many clients served it keeps apart (see `served`). */
    private readonly trackedClients = TRACKED_CLIENTS,
  ) {}

  /** May a request of `client` (a keyed hash; '' for the gateway's own calls) go to the upstream now? */
  allow(client = '', now = Date.now()): boolean {
    if (this.state === 'closed') return true;
    // Opened by one client's failures alone: its inputs may be all that fails. That client fails
    // fast; another's request is asked and decides (a success closes it, a failure makes the
    // opening everyone's), so the one client cannot hold it open by taking every probe.
    if (this.byOneClient && client !== this.failing) return true;
    if (this.state === 'open' && now - this.openedAt >= this.cooldownMs) this.set('half-open');
    if (this.state === 'half-open' && !this.probing && !this.probesItself) {
      this.probing = true;
      return true;
    }
    return false;
  }

  /**
   * The state as a request of `client` would find it now (undefined: any client but the one whose
   * failures alone opened it): an open breaker past its cooldown lets the probe through, and one
   * opened by one client's failures alone lets every other client's request through. Read by
   * /readyz, which must not take a replica out of rotation on one client's say-so, and by live
   * polling for the client of its poll ('' for the gateway's own); neither waits for some other
   * request to move it.
   */
  stateAt(now = Date.now(), client?: string): BreakerState {
    if (this.state !== 'open') return this.state;
    if (this.byOneClient && client !== this.failing) return 'half-open';
    return now - this.openedAt >= this.cooldownMs ? 'half-open' : 'open';
  }

  /** Whether it refuses `client` alone: open by that client's failures alone. */
  refusesOnly(client = ''): boolean {
    return this.state === 'open' && this.byOneClient && client === this.failing;
  }

  /** The probe went without an answer (its client left): the next request may probe instead. */
  abandon(): void {
    this.probing = false;
  }

  /** `client`: who asked (a keyed hash); '' for the gateway's own calls. */
  success(client = '', now = Date.now()): void {
    this.failures = 0;
    this.suspect = client === GATEWAY_PROBE && this.byOneClient ? this.failing : undefined;
    this.endRun();
    // The gateway's own probe serves no client: it holds nothing closed against the next run.
    if (client !== GATEWAY_PROBE) {
      // Kept in the order served (a client served again goes last), so the first is the one to forget.
      if (!this.served.delete(client) && this.served.size >= this.trackedClients) this.forgetLongestServed();
      this.served.set(client, now);
    }
    if (this.state !== 'closed') this.set('closed');
  }

  failure(client = '', now = Date.now()): void {
    if (client === this.suspect && this.state === 'closed') return this.openFor(client, now);
    this.failures++;
    this.probing = false;
    if (this.failing === undefined) this.failing = client;
    // The gateway's own probe failing is the service failing, for everyone.
    if (this.failing !== client || client === GATEWAY_PROBE) this.failingSeveral = true;
    if (this.served.has(client)) this.servedThenFailed.add(client);
    if (this.state === 'half-open' || (this.failures >= this.threshold && !this.othersServed(now))) {
      this.openedAt = now;
      this.byOneClient = !this.failingSeveral;
      if (this.state !== 'open') this.set('open');
    }
  }

  /** Opens it for `client` alone, as its own run of failures would have. */
  private openFor(client: string, now: number): void {
    this.failures = this.threshold;
    this.failing = client;
    this.failingSeveral = false;
    this.openedAt = now;
    this.byOneClient = true;
    this.set('open');
  }

  /** A success ends the run of failures: who failed in it is forgotten. */
  private endRun(): void {
    this.byOneClient = false;
    this.failing = undefined;
    this.failingSeveral = false;
    if (this.servedThenFailed.size > 0) this.servedThenFailed.clear();
    this.probing = false;
  }

  /** A client that has not failed in the run was served lately. */
  private othersServed(now: number): boolean {
    if (now - this.forgottenServedAt < SERVED_OTHERS_MS) return true;
    for (const [client, at] of this.served) {
      if (now - at < SERVED_OTHERS_MS && !this.servedThenFailed.has(client)) return true;
    }
    return false;
  }

  /** Forgets the client served least recently: the first in `served` (a scan of 4,096 took 54 µs). */
  private forgetLongestServed(): void {
    const first = this.served.entries().next();
    if (first.done) return;
    const [oldest, oldestAt] = first.value;
    // Made room for on a success, which ended the run: the client forgotten has not failed in it.
    this.forgottenServedAt = Math.max(this.forgottenServedAt, oldestAt);
    this.served.delete(oldest);
    this.servedThenFailed.delete(oldest);
  }

  /**
   * Opens the breaker until `until` (another replica saw the service fail), unless it already is,
   * or a client here was served lately and has not failed since: this replica sees the service
   * answer, whatever the other saw (its clients' inputs, its network). No replica opens it for
   * longer than one cooldown, so a later time (a bad Redis value) is cut. Open here by one client's
   * failures alone, it becomes everyone's: the service fails for others' clients too.
   */
  openUntil(until: number, now = Date.now()): void {
    if ((this.state === 'open' && !this.byOneClient) || until <= now || this.othersServed(now)) return;
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
