/**
 * Fair shares of the polling plan: each client watching anything in this process gets an equal
 * share of the plan's polls a minute, split evenly over the resources it watches, and a resource
 * is polled at the sum of the shares its watchers give it, never more often than
 * LIVE_POLL_INTERVAL_MS. Together they stay within the plan; a resource many clients watch is
 * polled as often as one client's alone, or more; and one client watching many resources (unknown
 * tickers included) slows only its own. One interval stretched with every resource the process
 * watched let one client's 50 tickers take everyone else's from 1 s to 31 s.
 *
 * A resource polled every LIVE_POLL_INTERVAL_MS may be given more than it can use (a popular
 * ticker): what it leaves goes to the other resources, each in proportion to its fair rate (the
 * boost), so the plan is not left unused while some resources wait minutes.
 *
 * Clients are the keyed hashes the fairness windows use; the subscribers that cannot be told apart
 * count as one client. Intervals are computed again only after a subscriber joins or leaves; the
 * boost, which looks at every watched resource, at most every BOOST_EVERY_MS (a burst of
 * subscriptions, as after a deploy, works it out a few times, not once per subscription), and an
 * interval asked meanwhile is the unboosted one: longer, never past the plan.
 */

/** The least time between two workings-out of the boost; meanwhile the last one stands. */
export const BOOST_EVERY_MS = 100;

/** A subscriber's client: a keyed hash; undefined when it cannot be told apart. */
type Client = string | undefined;

export class PollShares {
  /** Per client, its subscriptions per watched resource key. */
  private readonly clients = new Map<Client, Map<string, number>>();
  /** Per resource key, the clients watching it. */
  private readonly watchers = new Map<string, Set<Client>>();
  /** Bumped on each join and leave. */
  private version = 0;
  /** Bumped on each join and leave and each new boost: an interval computed before is stale. */
  private generation = 0;
  private readonly computed = new Map<string, { generation: number; intervalMs: number }>();
  /** How much faster than its fair rate each resource not at LIVE_POLL_INTERVAL_MS is polled: at least 1. */
  private boost = 1;
  /** The version the boost was worked out for, and when. */
  private boosted = { version: 0, at: -Infinity };

  /** `perMinute`: the plan's polls a minute (Infinity: no known rate limit, every interval is `intervalMs`). */
  constructor(
    private readonly intervalMs: number,
    private readonly perMinute: number,
  ) {}

  join(client: Client, key: string): void {
    const watched = this.clients.get(client) ?? new Map<string, number>();
    const count = watched.get(key) ?? 0;
    watched.set(key, count + 1);
    // One more subscription to a resource the client watches changes no share.
    if (count > 0) return;
    this.clients.set(client, watched);
    const watchers = this.watchers.get(key) ?? new Set<Client>();
    watchers.add(client);
    this.watchers.set(key, watchers);
    this.version++;
    this.generation++;
  }

  leave(client: Client, key: string): void {
    const watched = this.clients.get(client);
    const count = watched?.get(key);
    if (!watched || count === undefined) return;
    if (count > 1) {
      watched.set(key, count - 1);
      return;
    }
    watched.delete(key);
    if (watched.size === 0) this.clients.delete(client);
    const watchers = this.watchers.get(key)!;
    watchers.delete(client);
    if (watchers.size === 0) {
      this.watchers.delete(key);
      this.computed.delete(key);
    }
    this.version++;
    this.generation++;
  }

  /** The interval between two polls of `key` now. */
  interval(key: string, now = Date.now()): number {
    if (this.perMinute === Infinity) return this.intervalMs;
    if (this.boosted.version !== this.version && now - this.boosted.at >= BOOST_EVERY_MS) {
      this.boost = this.solveBoost();
      this.boosted = { version: this.version, at: now };
      this.generation++;
    }
    const known = this.computed.get(key);
    if (known?.generation === this.generation) return known.intervalMs;
    // Unwatched (a poller between its last subscriber's leave and its stop): one client's whole share.
    const rate = this.fairRate(key) || this.perMinute / Math.max(1, this.clients.size);
    // A boost worked out before the last join or leave may overspend the plan: none until the next.
    const boost = this.boosted.version === this.version ? this.boost : 1;
    const intervalMs = Math.max(this.intervalMs, Math.ceil(60_000 / (boost * rate)));
    if (this.watchers.has(key)) this.computed.set(key, { generation: this.generation, intervalMs });
    return intervalMs;
  }

  /** Polls a minute: Σ over the watchers c of `key` of perMinute / (clients × resources c watches). */
  private fairRate(key: string): number {
    let shares = 0;
    for (const client of this.watchers.get(key) ?? []) shares += 1 / this.clients.get(client)!.size;
    return (this.perMinute * shares) / Math.max(1, this.clients.size);
  }

  /**
   * The boost k ≥ 1 with Σ min(most, k × fair rate) = perMinute over the watched resources (`most`:
   * a poll every LIVE_POLL_INTERVAL_MS); Infinity when every resource fits at that pace.
   */
  private solveBoost(): number {
    const most = 60_000 / this.intervalMs;
    const rates = [...this.watchers.keys()].map((key) => this.fairRate(key)).sort((a, b) => b - a);
    let left = this.perMinute;
    let rest = rates.reduce((sum, rate) => sum + rate, 0);
    // The fastest first: each one the boost would take past `most` is held there, and gives the rest back.
    for (const rate of rates) {
      const boost = left / rest;
      if (boost * rate < most) return Math.max(1, boost);
      left -= most;
      rest -= rate;
    }
    return Infinity;
  }
}
