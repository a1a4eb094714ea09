/**
 * Where cached upstream answers live: in process (a byte-bounded LRU) or in Redis, shared by every
 * worker and replica. A store never throws and never stalls a request: a failing store is a miss.
 */
import { hash } from 'node:crypto';
import type { Logger } from 'pino';
import { ByteLru } from '../lib/byte-lru.js';
import type { ServiceName } from '../errors.js';
import type { UpstreamEvents } from '../observe/metrics.js';
import type { CacheEntry, CacheStore, UpstreamResponse } from './request.js';
import { isObject } from './shapes.js';

/**
 * Keys never hold a path in clear: paths may carry platform keys or user text. The upstream's base
 * URL is part of what is hashed: gateways that share a Redis but not an upstream (staging beside
 * production, a move from Hiro to a self-hosted indexer) must not serve each other's answers.
 */
export function cacheKey(service: ServiceName, base: string, path: string, query: string): string {
  return `satgate:v1:${service}:${hash('sha256', `${base}\n${path}?${query}`, 'base64url')}`;
}

/** The service a key was made for by cacheKey, for metric labels. */
function serviceOf(key: string): ServiceName {
  return key.split(':')[2] as ServiceName;
}

/**
 * What a parsed JSON body costs per byte of its text, as an estimate: V8 keeps short strings at a
 * byte a character and small integers inline, but every object, array and boxed number adds
 * headers and pointers. A 60-item etchings page measured about 1×; twice leaves room for
 * answers made of many small values.
 */
const PARSED_BYTES_PER_BODY_BYTE = 2;

/**
 * What an entry holds besides its key's, body's and headers' text: the response, headers and entry
 * objects, the Buffer's view, the LRU's node and the maps' slots. Counted as 64 bytes, a store of
 * small answers held 4.4× its CACHE_MAX_BYTES of heap (Node 20: ticker 404s filling an 8 MiB
 * store held 34.9 MiB); at 1 KB, 9.1 MiB.
 */
const ENTRY_OVERHEAD_BYTES = 1024;

export function entrySize(key: string, entry: CacheEntry): number {
  const { body, headers, parsed } = entry.response;
  let size = key.length + body.length + ENTRY_OVERHEAD_BYTES;
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
  del(key: string): Promise<unknown>;
  quit(): Promise<unknown>;
  disconnect(): void;
  status: string;
}

/**
 * How far ahead of this process's clock a stored validation time may be. Replicas under NTP agree
 * to a few milliseconds; a time further ahead is a clock that is off, or an entry rewritten in
 * Redis, and freshness counted from it would last until then (an hour ahead: an hour of answers
 * with no upstream call). Such an entry is dropped, as a malformed one is.
 */
const CLOCK_SKEW_MS = 1000;

/**
 * After a command fails on an open connection (it timed out: Redis hangs, or Redis refused it),
 * Redis is skipped this long (every read a miss, every write dropped), then one background write
 * decides whether it is used again. A hung Redis costs one command timeout, once, instead of a
 * timeout on every request for as long as it hangs. Without a connection a command fails at once
 * (no offline queue) and costs nothing: the store is used again when ioredis has reconnected.
 */
const SKIP_MS = 2000;

/** What the probe after a skip writes (see RedisStore.skip). */
const PROBE_KEY = 'satgate:v1:probe';
const PROBE_VALUE = Buffer.from('1');

/** Writes are not awaited; at most this many bytes wait for Redis at once, further ones are dropped. */
const MAX_PENDING_WRITE_BYTES = 16 * 1024 * 1024;

/**
 * Entries in Redis: a JSON header line, a newline, then the raw body bytes. Any Redis failure
 * (down, slow past its command timeout) is a miss, logged once per outage; what is read back is
 * checked (see decode), and an entry that fails is dropped, deleted and counted (`rejected`).
 */
export class RedisStore implements CacheStore {
  /** Set while Redis is skipped: the timer of the next probe, or the probe in flight. */
  private probe: NodeJS.Timeout | undefined;
  private failing = false;
  private closed = false;
  private pendingWriteBytes = 0;
  private rejectionLogged = false;

  constructor(
    private readonly redis: RedisLike,
    private readonly logger: Logger,
    private readonly events?: Pick<UpstreamEvents, 'cache' | 'redisFallback'>,
  ) {}

  async get(key: string): Promise<CacheEntry | undefined> {
    if (this.probe) return this.fellBack();
    let raw: Buffer | null;
    try {
      raw = await this.redis.getBuffer(key);
      this.recovered();
    } catch (error) {
      this.failed(error);
      return this.fellBack();
    }
    if (!raw) return undefined;
    const entry = decode(raw, Date.now());
    if (typeof entry !== 'string') return entry;
    this.rejected(key, entry);
    return undefined;
  }

  /** In the background: no request waits for a Redis write. */
  async set(key: string, entry: CacheEntry, retainMs: number): Promise<void> {
    if (this.probe) return;
    const value = encode(entry);
    if (this.pendingWriteBytes + value.length > MAX_PENDING_WRITE_BYTES) return;
    this.pendingWriteBytes += value.length;
    this.redis.set(key, value, 'PX', Math.max(1, Math.ceil(retainMs))).then(
      () => {
        this.pendingWriteBytes -= value.length;
        this.recovered();
      },
      (error: unknown) => {
        this.pendingWriteBytes -= value.length;
        this.failed(error);
      },
    );
  }

  /** A read Redis could not answer: the upstream answers instead. */
  private fellBack(): undefined {
    this.events?.redisFallback('cache');
    return undefined;
  }

  /** True while Redis is skipped after a command failed on an open connection, until a probe write succeeds. */
  isSkipping(): boolean {
    return this.probe !== undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.probe);
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }

  /** Logged once per outage; skipped when the command failed on an open connection (see SKIP_MS). */
  private failed(error: unknown): void {
    if (this.closed) return;
    if (!this.failing) {
      this.failing = true;
      this.logger.warn({ err: errorMessage(error) }, 'Redis cache unavailable: serving from the upstream');
    }
    if (!this.probe && this.redis.status === 'ready') this.skip();
  }

  private recovered(): void {
    if (!this.failing || this.probe || this.closed) return;
    this.failing = false;
    this.logger.info('Redis cache available again');
  }

  /**
   * Skips Redis for SKIP_MS, then writes a probe: its success puts Redis back in use, a failure skips
   * again. A write, not a PING: a Redis out of memory (noeviction) answers PING and refuses writes,
   * and the outage was logged as over and begun again every few seconds.
   */
  private skip(): void {
    this.probe = setTimeout(() => {
      this.redis.set(PROBE_KEY, PROBE_VALUE, 'PX', SKIP_MS).then(
        () => {
          this.probe = undefined;
          this.recovered();
        },
        () => {
          if (!this.closed) this.skip();
        },
      );
    }, SKIP_MS);
    this.probe.unref();
  }

  /**
   * Dropped, and deleted so that no replica reads it again (a newer write racing the delete is
   * lost with it: one more miss). Counted every time (satgate_cache_events_total, `rejected`),
   * logged once.
   */
  private rejected(key: string, reason: string): void {
    this.events?.cache(serviceOf(key), 'rejected');
    this.redis.del(key).catch(() => {
      // Redis failing is reported by reads and writes.
    });
    if (this.rejectionLogged) return;
    this.rejectionLogged = true;
    this.logger.warn({ reason }, 'Redis cache entry rejected: answered from the upstream; further rejections are only counted');
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

/** A header name as the upstream layer keeps it: a lowercase token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
/** What Node will write as a header value: no control characters but tab, so no line breaks. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The entry `raw` holds, or why it is refused. Redis is shared and may be rewritten, so the head
 * is checked, never trusted: exactly a status (an integer 100..599), headers (a flat object of
 * writable string values) and a validation time (an integer epoch ms, at most CLOCK_SKEW_MS ahead
 * of `now`, and counted from `now` at the latest). A refused entry is a miss, never a stale
 * answer: its ETag is not sent for revalidation either, so a 304 cannot confirm a rewritten body.
 */
function decode(raw: Buffer, now: number): CacheEntry | string {
  const newline = raw.indexOf(10);
  if (newline === -1) return 'no head line';
  let head: unknown;
  try {
    head = JSON.parse(raw.subarray(0, newline).toString('utf8'));
  } catch {
    return 'head is not JSON';
  }
  if (!isObject(head) || Object.keys(head).length !== 3) return 'head is not {s, h, v}';
  const { s, h, v } = head;
  if (typeof s !== 'number' || !Number.isInteger(s) || s < 100 || s > 599) return 'status is not an integer 100..599';
  if (!isHeaders(h)) return 'headers are not a flat object of header values';
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) return 'validation time is not epoch ms';
  if (v > now + CLOCK_SKEW_MS) return 'validation time ahead of this clock';
  return { response: { status: s, headers: h, body: raw.subarray(newline + 1) }, validatedAt: Math.min(v, now) };
}

function isHeaders(value: unknown): value is Record<string, string> {
  if (!isObject(value)) return false;
  for (const [name, text] of Object.entries(value)) {
    if (typeof text !== 'string' || !HEADER_NAME.test(name) || !HEADER_VALUE.test(text)) return false;
  }
  return true;
}
