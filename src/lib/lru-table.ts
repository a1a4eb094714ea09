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
