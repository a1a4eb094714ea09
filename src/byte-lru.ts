/**
 * A least-recently-used map bounded by bytes, not entries: a cache of request-sized values (parsed
 * documents, persisted queries, upstream answers, GraphQL results) stays within its bound whatever
 * the values weigh.
 *
 * A Map keeps insertion order, and eviction takes the first entries. A hit moves its entry to the
 * end only when the entry is not among the newer half already: moving every hit (a Map delete and
 * set) made a Map of tens of thousands of entries rebuild its table over and over on the hottest
 * path, garbage for the GC in every answer, while a hit on a recent entry changes nothing that
 * eviction would see soon. So it approximates LRU: an entry hit while among the newer half may
 * later go somewhat before its exact turn; one hit while among the older half moves, as in LRU.
 */
export class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; size: number; placed: number }>();
  private held = 0;
  /** Counts insertions and moves: `placed` says when an entry last went to the end. */
  private clock = 0;

  /** `sizeOf` estimates the bytes an entry keeps alive, its key included. */
  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (key: string, value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.clock - entry.placed > this.entries.size >> 1) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      entry.placed = ++this.clock;
    }
    return entry.value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    const size = this.sizeOf(key, value);
    if (size > this.maxBytes) return;
    this.entries.set(key, { value, size, placed: ++this.clock });
    this.held += size;
    this.evict();
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
    this.entries.delete(key);
    this.held -= entry.size;
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }

  /** Bytes held (estimated by `sizeOf`): for metrics and tests. */
  get bytes(): number {
    return this.held;
  }

  /** Least recently used first, until the bytes held fit the bound. */
  private evict(): void {
    for (const [oldest] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.delete(oldest);
    }
  }
}
