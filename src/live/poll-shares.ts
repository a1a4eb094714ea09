/**
 * Fair shares of the polling plan: each client watching anything in this process gets an equal
 * share of the plan's polls a minute, split evenly over the resources it watches, and a resource
 * is polled at the sum of the shares its watchers give it, never more often than
 * LIVE_POLL_INTERVAL_MS. Together they stay within the plan; a resource many clients watch is
 * polled as often as one client's alone, or more; and one client watching many resources (unknown
 * tickers included) slows only its own. One interval stretched with every resource the process
 * watched let one client's 50 tickers take everyone else's from 1 s to 31 s.
 *
 * Clients are the keyed hashes the fairness windows use; the subscribers that cannot be told apart
 * count as one client. Intervals are computed again only after a subscriber joins or leaves.
 */

/** A subscriber's client: a keyed hash; undefined when it cannot be told apart. */
type Client = string | undefined;

export class PollShares {
  /** Per client, its subscriptions per watched resource key. */
  private readonly clients = new Map<Client, Map<string, number>>();
  /** Per resource key, the clients watching it. */
  private readonly watchers = new Map<string, Set<Client>>();
  /** Bumped on each join and leave: an interval computed before is stale. */
  private version = 0;
  private readonly computed = new Map<string, { version: number; intervalMs: number }>();

  /** `perMinute`: the plan's polls a minute (Infinity: no known rate limit, every interval is `intervalMs`). */
  constructor(
    private readonly intervalMs: number,
    private readonly perMinute: number,
  ) {}

  join(client: Client, key: string): void {
    const watched = this.clients.get(client) ?? new Map<string, number>();
    watched.set(key, (watched.get(key) ?? 0) + 1);
    this.clients.set(client, watched);
    const watchers = this.watchers.get(key) ?? new Set<Client>();
    watchers.add(client);
    this.watchers.set(key, watchers);
    this.version++;
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
  }

  /** The interval between two polls of `key` now. */
  interval(key: string): number {
    if (this.perMinute === Infinity) return this.intervalMs;
    const known = this.computed.get(key);
    if (known?.version === this.version) return known.intervalMs;
    const intervalMs = this.compute(key);
    if (this.watchers.has(key)) this.computed.set(key, { version: this.version, intervalMs });
    return intervalMs;
  }

  /** rate(key) = Σ over its watchers c of perMinute / (clients × resources c watches). */
  private compute(key: string): number {
    let shares = 0;
    for (const client of this.watchers.get(key) ?? []) shares += 1 / this.clients.get(client)!.size;
    // Unwatched (a poller between its last subscriber's leave and its stop): one client's whole share.
    const rate = shares > 0 ? (this.perMinute * shares) / this.clients.size : this.perMinute / Math.max(1, this.clients.size);
    return Math.max(this.intervalMs, Math.ceil(60_000 / rate));
  }
}
