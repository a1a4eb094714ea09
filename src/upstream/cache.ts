/**
 * Where cached upstream answers live: in process (a byte-bounded LRU) or in Redis, shared by every
 * worker and replica. A store never throws and never stalls a request: a failing store is a miss.
 */
import { hash } from 'node:crypto';
import type { Logger } from 'pino';
import { ByteLru } from '../byte-lru.js';
import type { UpstreamResponse } from './http.js';

export interface CacheEntry {
  response: UpstreamResponse;
  /** When the upstream last confirmed this answer (stored or revalidated), epoch ms. */
  validatedAt: number;
}

export interface CacheStore {
  get(key: string): Promise<CacheEntry | undefined>;
  /** A synchronous read where the store can (in process): the warm path skips all async work. */
  peek?(key: string): CacheEntry | undefined;
  /** `retainMs`: how long the entry may be kept for revalidation and stale serving. */
  set(key: string, entry: CacheEntry, retainMs: number): Promise<void>;
  /** Told that a response it may hold now carries its parsed body (`parsed`), which costs memory too. */
  memoised?(response: UpstreamResponse): void;
  close(): Promise<void>;
}

/** Keys never hold a path in clear: paths may carry platform keys or user text. */
export function cacheKey(service: string, path: string, query: string): string {
  return `satgate:v1:${service}:${hash('sha256', `${path}?${query}`, 'base64url')}`;
}

/**
 * What a parsed JSON body costs per byte of its text, as an estimate: V8 keeps short strings at a
 * byte a character and small integers inline, but every object, array and boxed number adds
 * headers and pointers. A 60-item etchings page measured about 1×; twice leaves room for
 * answers made of many small values.
 */
const PARSED_BYTES_PER_BODY_BYTE = 2;

export function entrySize(key: string, entry: CacheEntry): number {
  const { body, headers, parsed } = entry.response;
  let size = key.length + body.length + 64;
  for (const [name, value] of Object.entries(headers)) size += name.length + value.length;
  if (parsed !== undefined) size += body.length * PARSED_BYTES_PER_BODY_BYTE;
  return size;
}

/** The upstream answers in process, bounded by bytes (CACHE_MAX_BYTES), least recently used out. */
export class MemoryStore implements CacheStore {
  private readonly entries: ByteLru<{ entry: CacheEntry; expiresAt: number }>;
  /** The key each stored response is held under, to find it again when it is parsed. */
  private readonly keys = new WeakMap<UpstreamResponse, string>();

  constructor(maxBytes: number) {
    this.entries = new ByteLru(maxBytes, (key, { entry }) => entrySize(key, entry));
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    return this.peek(key);
  }

  peek(key: string): CacheEntry | undefined {
    const item = this.entries.get(key);
    if (!item) return undefined;
    if (item.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return item.entry;
  }

  async set(key: string, entry: CacheEntry, retainMs: number): Promise<void> {
    this.entries.set(key, { entry, expiresAt: Date.now() + retainMs });
    this.keys.set(entry.response, key);
  }

  /** A stored response was parsed: its size now counts the parsed value. */
  memoised(response: UpstreamResponse): void {
    const key = this.keys.get(response);
    if (key === undefined) return;
    // Only if that response is still the one held under its key (not one replaced since).
    if (this.entries.get(key)?.entry.response === response) this.entries.resize(key);
  }

  /** Bytes held, for tests and metrics. */
  get size(): number {
    return this.entries.bytes;
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}

/** The subset of ioredis the store uses. */
export interface RedisLike {
  getBuffer(key: string): Promise<Buffer | null>;
  set(key: string, value: Buffer, mode: 'PX', ms: number): Promise<unknown>;
  quit(): Promise<unknown>;
  disconnect(): void;
  status: string;
}

/**
 * Entries in Redis: a JSON header line, a newline, then the raw body bytes. Any Redis failure
 * (down, slow past its command timeout) is a miss, logged once per outage.
 */
export class RedisStore implements CacheStore {
  private failing = false;

  constructor(
    private readonly redis: RedisLike,
    private readonly logger: Logger,
  ) {}

  async get(key: string): Promise<CacheEntry | undefined> {
    try {
      const raw = await this.redis.getBuffer(key);
      this.recovered();
      return raw ? decode(raw) : undefined;
    } catch (error) {
      this.failed(error);
      return undefined;
    }
  }

  async set(key: string, entry: CacheEntry, retainMs: number): Promise<void> {
    try {
      await this.redis.set(key, encode(entry), 'PX', Math.max(1, Math.ceil(retainMs)));
      this.recovered();
    } catch (error) {
      this.failed(error);
    }
  }

  async close(): Promise<void> {
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }

  private failed(error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.logger.warn({ err: errorMessage(error) }, 'Redis cache unavailable: serving from the upstream');
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.logger.info('Redis cache available again');
  }
}

/**
 * Redis with an in-process first tier: a warm answer is read synchronously (`peek`), without a
 * Redis round trip. Past its freshness the upstream layer reads through to Redis, where another
 * worker or replica may have stored a newer answer; what Redis gives is kept in process too.
 */
export class TieredStore implements CacheStore {
  constructor(
    private readonly memory: MemoryStore,
    private readonly shared: CacheStore,
  ) {}

  peek(key: string): CacheEntry | undefined {
    return this.memory.peek(key);
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const entry = await this.shared.get(key);
    if (!entry) return this.memory.peek(key);
    const held = this.memory.peek(key);
    // The same answer as held: keep the held object (its parsed body), with the newer validation.
    const same = held && held.response.status === entry.response.status && held.response.body.equals(entry.response.body);
    const kept = same ? { response: held.response, validatedAt: Math.max(held.validatedAt, entry.validatedAt) } : entry;
    await this.memory.set(key, kept, RETAIN_IN_PROCESS_MS);
    return kept;
  }

  async set(key: string, entry: CacheEntry, retainMs: number): Promise<void> {
    await Promise.all([this.memory.set(key, entry, Math.min(retainMs, RETAIN_IN_PROCESS_MS)), this.shared.set(key, entry, retainMs)]);
  }

  memoised(response: UpstreamResponse): void {
    this.memory.memoised(response);
  }

  async close(): Promise<void> {
    await Promise.all([this.memory.close(), this.shared.close()]);
  }
}

/** The first tier keeps an answer at most this long after storing it: Redis may hold it longer. */
const RETAIN_IN_PROCESS_MS = 10 * 60_000;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function encode(entry: CacheEntry): Buffer {
  const head = JSON.stringify({ s: entry.response.status, h: entry.response.headers, v: entry.validatedAt });
  return Buffer.concat([Buffer.from(head + '\n'), entry.response.body]);
}

function decode(raw: Buffer): CacheEntry | undefined {
  const newline = raw.indexOf(10);
  if (newline === -1) return undefined;
  try {
    const head = JSON.parse(raw.subarray(0, newline).toString('utf8')) as {
      s: number;
      h: Record<string, string>;
      v: number;
    };
    return { response: { status: head.s, headers: head.h, body: raw.subarray(newline + 1) }, validatedAt: head.v };
  } catch {
    return undefined;
  }
}
