/**
 * Fair shares of the polling plan, by client: each client watching anything in this process gives
 * each resource it watches a weight of 1 / the number it watches, a resource weighs the most any
 * of its watchers gives it, and the plan's polls a minute are split between the resources by
 * weight, never more often than LIVE_POLL_INTERVAL_MS each. So one client watching many resources
 * (unknown tickers included) weighs as much as one resource and slows only its own: one interval
 * stretched with every resource the process watched let one client's 50 tickers take everyone
 * else's from 1 s to 31 s. A client watching one resource gives it a whole weight, as one
 * interval for every resource did. The most, not the sum: a resource many clients watch summed
 * their parts, and a resource one client of a hundred watched, on a plan of 10 polls a minute,
 * was polled every 20 minutes.
 *
 * A resource polled every LIVE_POLL_INTERVAL_MS may be given more than it can use (a popular
 * ticker): what it leaves goes to the other resources, each in proportion to its fair rate (the
 * boost), so the plan is not left unused while some resources wait minutes.
 *
 * Clients are the keyed hashes the fairness windows use; the subscribers that cannot be told apart
 * count as one client. Intervals are computed again only after a subscriber joins or leaves; the
 * resources' total weight and the boost, which look at every watched resource, at most every
 * BOOST_EVERY_MS (a burst of subscriptions, as after a deploy, works them out a few times, not
 * once per subscription). An interval asked meanwhile uses the last total, unboosted: if joins
 * since make it too short, the plan (poll-plan.ts) holds the polls to its minute.
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
  /** The watched resources' weights together, as last worked out (with the boost). */
  private totalWeight = 0;
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
      // Each resource's weight once, for the total and the boost.
      const weights = [...this.watchers.keys()].map((watched) => this.weight(watched));
      this.totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
      this.boost = this.solveBoost(weights);
      this.boosted = { version: this.version, at: now };
      this.generation++;
    }
    const known = this.computed.get(key);
    if (known?.generation === this.generation) return known.intervalMs;
    // Unwatched (a poller between its last subscriber's leave and its stop): one client's whole share.
    const rate = this.fairRate(key) || this.perMinute / Math.max(1, this.clients.size);
    // A boost worked out before the last join or leave may overspend the plan: none until the next.
    const boost = this.boosted.version === this.version ? this.boost : 1;
    // Less a hair: a sum of weights like 50 × 1/50 is a hair past 1, and its ceiling a ms too long.
    const intervalMs = Math.max(this.intervalMs, Math.ceil(60_000 / (boost * rate) - 1e-6));
    if (this.watchers.has(key)) this.computed.set(key, { generation: this.generation, intervalMs });
    return intervalMs;
  }

  /** Polls a minute: the plan's, in proportion to `key`'s weight among the watched resources'. */
  private fairRate(key: string): number {
    return this.rateOf(this.weight(key));
  }

  /** The rate of a resource of `weight`: a total worked out before it joined may be short of it. */
  private rateOf(weight: number): number {
    return (this.perMinute * weight) / Math.max(this.totalWeight, weight);
  }

  /** The most any of `key`'s watchers gives it: 1 / the number of resources that client watches. */
  private weight(key: string): number {
    let weight = 0;
    for (const client of this.watchers.get(key) ?? []) weight = Math.max(weight, 1 / this.clients.get(client)!.size);
    return weight;
  }

  /**
   * The boost k ≥ 1 with Σ min(most, k × fair rate) = perMinute over the watched resources, of
   * `weights` (`most`: a poll every LIVE_POLL_INTERVAL_MS); Infinity when every resource fits at
   * that pace.
   */
  private solveBoost(weights: number[]): number {
    const most = 60_000 / this.intervalMs;
    const rates = weights.map((weight) => this.rateOf(weight)).sort((a, b) => b - a);
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
