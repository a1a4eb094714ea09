/**
 * A least-recently-used map bounded by bytes, not entries: a cache of request-sized values (parsed
 * documents, persisted queries) stays within its bound whatever the values weigh. A Map keeps
 * insertion order; a hit moves the entry to the end, so the first entries are the oldest.
 */
export class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private held = 0;

  /** `sizeOf` estimates the bytes an entry keeps alive, its key included. */
  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (key: string, value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    const size = this.sizeOf(key, value);
    if (size > this.maxBytes) return;
    this.entries.set(key, { value, size });
    this.held += size;
    for (const [oldest] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.held -= entry.size;
  }

  /** Bytes held (estimated by `sizeOf`): for metrics and tests. */
  get bytes(): number {
    return this.held;
  }
}
