/**
 * A least-recently-used map bounded by bytes, not entries: a cache of request-sized values (parsed
 * documents, persisted queries, upstream answers, GraphQL results) stays within its bound whatever
 * the values weigh.
 *
 * The Map finds an entry; a list linked through the entries keeps their order, least recently used
 * first. A hit or a new value for a key moves its entry to the end of the list and never touches
 * the Map: moving it in the Map (a delete and a set) made the Map rebuild its table again and
 * again on the hottest path, and a Map that has lived long builds each new table in the old
 * generation, so a cold gateway revalidating a few answers per request made megabytes of
 * old-generation garbage a second and ran a mark-compact every two seconds.
 */
interface Entry<V> {
  key: string;
  value: V;
  size: number;
  older: Entry<V> | undefined;
  newer: Entry<V> | undefined;
}

export class ByteLru<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private oldest: Entry<V> | undefined;
  private newest: Entry<V> | undefined;
  private held = 0;

  /** `sizeOf` estimates the bytes an entry keeps alive, its key included. */
  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (key: string, value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.toNewest(entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(key, value);
    if (size > this.maxBytes) {
      this.delete(key);
      return;
    }
    let entry = this.entries.get(key);
    if (entry) {
      this.held += size - entry.size;
      entry.value = value;
      entry.size = size;
      this.toNewest(entry);
    } else {
      entry = { key, value, size, older: undefined, newer: undefined };
      this.append(entry);
      this.entries.set(key, entry);
      this.held += size;
    }
    this.evict();
  }

  /**
   * The value that storing `value` under a new `key` would evict first (the least recently used),
   * or undefined when it fits as things are: what an admission policy weighs it against.
   */
  victimFor(key: string, value: V): V | undefined {
    if (this.entries.has(key) || this.held + this.sizeOf(key, value) <= this.maxBytes) return undefined;
    return this.oldest?.value;
  }

  /** The entry's value grew or shrank in place (a memoised parse): its size is counted again. */
  resize(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    const size = this.sizeOf(key, entry.value);
    this.held += size - entry.size;
    entry.size = size;
    this.evict();
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.unlink(entry);
    this.entries.delete(key);
    this.held -= entry.size;
  }

  clear(): void {
    this.entries.clear();
    this.oldest = this.newest = undefined;
    this.held = 0;
  }

  /** Bytes held (estimated by `sizeOf`): for metrics and tests. */
  get bytes(): number {
    return this.held;
  }

  /** Least recently used first, until the bytes held fit the bound. */
  private evict(): void {
    while (this.held > this.maxBytes && this.oldest) this.delete(this.oldest.key);
  }

  private toNewest(entry: Entry<V>): void {
    if (entry === this.newest) return;
    this.unlink(entry);
    this.append(entry);
  }

  private append(entry: Entry<V>): void {
    entry.older = this.newest;
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
  }

  private unlink(entry: Entry<V>): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    entry.older = entry.newer = undefined;
  }
}
