/**
 * HTTP caching of one service's GETs: a fresh stored answer is used as is; a stale one is
 * revalidated with its ETag (a 304 keeps it), and served past its freshness, for a while, when the
 * upstream fails (stale-if-error). On a service whose ETag is global, one 304 confirms every
 * entry carrying that ETag. The stores are cache.ts's.
 */
import { UpstreamError, type ServiceName } from '../errors.js';
import type { CacheOutcome } from '../http/request-stats.js';
import { merged } from '../lib/merge.js';
import type { UpstreamEvents } from '../observe/metrics.js';
import type { CacheEntry, CachePolicy, UpstreamRequest, UpstreamResponse, UsedAnswer } from './request.js';
import type { Retries } from './retry.js';

export interface Cached {
  response: UpstreamResponse;
  outcome: CacheOutcome;
}

export class HttpCache {
  /** The last global ETag the upstream confirmed, and when. */
  private lastValidation: { etag: string; at: number } | undefined;

  constructor(
    private readonly name: ServiceName,
    private readonly cache: CachePolicy,
    /** The stage below: the upstream, retries included. */
    private readonly next: Retries,
    private readonly events: UpstreamEvents,
    /** How long the group's other processes may wait for this one's call: the service's deadline. */
    private readonly flightMs: number,
  ) {}

  /** A stored answer still fresh, when the store can tell synchronously (in process): the warm path. */
  peekFresh(key: string): CacheEntry | undefined {
    const peeked = this.cache.store.peek?.(key);
    return peeked && this.isFresh(peeked, Date.now()) ? peeked : undefined;
  }

  /**
   * Whether `used` is still the answer in the cache, and fresh, or confirmed by an upstream answer
   * that came at or after `confirmedSince` (a request's own revalidation, or a global-ETag 304 it
   * waited for, as a request joining an in-flight call takes that call's answer): no upstream call,
   * no await.
   */
  isCurrent(used: UsedAnswer, confirmedSince: number): boolean {
    const entry = this.cache.store.peek?.(used.key);
    if (!entry || !sameAnswer(entry.response, used.response)) return false;
    const fresh = this.isFresh(entry, Date.now()) || this.confirmedAt(entry.response, entry.validatedAt) >= confirmedSince;
    if (!fresh) return false;
    this.events.cache(this.name, 'hit');
    return true;
  }

  /** The cached answer, or the upstream's, with what it took (see CacheOutcome). */
  async throughCache(key: string, req: UpstreamRequest): Promise<Cached> {
    const entry = await this.cache.store.get(key);
    if (entry && !req.fresh && this.isFresh(entry, Date.now())) {
      this.events.cache(this.name, 'hit');
      return { response: entry.response, outcome: 'hit' };
    }
    const flights = this.cache.flights;
    if (!flights || req.fresh) return this.ask(key, req, entry);
    // With Redis: one process of the group asks; the others read what it stored.
    const flight = await flights.take(key, this.flightMs, req.signal);
    if (flight.role === 'followed') {
      const landed = await this.cache.store.get(key);
      if (landed && (!entry || landed.validatedAt > entry.validatedAt)) {
        this.events.cache(this.name, 'joined');
        return { response: landed.response, outcome: 'hit' };
      }
    }
    if (flight.role !== 'lead') return this.ask(key, req, entry);
    try {
      return await this.ask(key, req, entry);
    } finally {
      flight.land();
    }
  }

  /** Asks the upstream, revalidating `entry` when it has an ETag; stores what is the resource's state. */
  private async ask(key: string, req: UpstreamRequest, entry: CacheEntry | undefined): Promise<Cached> {
    const cache = this.cache;
    const now = Date.now();
    this.events.cache(this.name, 'miss');
    const confirmedAt = entry ? this.confirmedAt(entry.response, entry.validatedAt) : 0;
    const stale = (): Cached | undefined => {
      if (!entry || now - confirmedAt > freshFor(cache, entry.response) + cache.staleIfErrorMs) return undefined;
      this.events.cache(this.name, 'stale');
      const ageSeconds = Math.floor((Date.now() - confirmedAt) / 1000);
      return { response: { ...entry.response, stale: { ageSeconds } }, outcome: 'stale' };
    };
    const etag = entry?.response.headers.etag;
    let response: UpstreamResponse;
    try {
      response = await this.next.send(merged(req, { ifNoneMatch: etag }));
    } catch (error) {
      // Not for a client past its share (client-limit): the upstream is fine, and that client is
      // told to wait (RATE_LIMITED), not handed an old answer marked as a failed revalidation.
      const answer = error instanceof UpstreamError && error.kind !== 'client-limit' ? stale() : undefined;
      if (answer) return answer;
      throw error;
    }
    if (response.status === 304 && entry) {
      this.events.cache(this.name, 'revalidated');
      this.noteValidation(etag);
      await cache.store.set(key, { response: entry.response, validatedAt: now }, this.retainMs());
      return { response: entry.response, outcome: 'revalidated' };
    }
    if (response.status >= 500 || response.status === 429) return stale() ?? { response, outcome: 'miss' };
    // Only answers that are the resource's state are stored: 5xx, 429 and the like never are; nor
    // what the upstream forbids a shared cache to keep (RFC 9111 §3).
    if ((response.status === 200 || response.status === 404) && sharedCacheMayStore(response)) {
      this.noteValidation(response.headers.etag);
      await cache.store.set(key, { response, validatedAt: now }, this.retainMs());
    }
    return { response, outcome: 'miss' };
  }

  private retainMs(): number {
    const cache = this.cache;
    return Math.max(cache.ttlMs, cache.notFoundTtlMs) + Math.max(cache.staleIfErrorMs, 60_000);
  }

  private isFresh(entry: CacheEntry, now: number): boolean {
    return now - this.confirmedAt(entry.response, entry.validatedAt) < freshFor(this.cache, entry.response);
  }

  /** When the upstream last confirmed this answer: its own validation, or a later global one. */
  private confirmedAt(response: UpstreamResponse, validatedAt: number): number {
    const last = this.lastValidation;
    return last && last.etag === response.headers.etag && last.at > validatedAt ? last.at : validatedAt;
  }

  private noteValidation(etag: string | undefined): void {
    if (etag && this.cache.globalEtag) this.lastValidation = { etag, at: Date.now() };
  }
}

/** No `no-store` or `private` directive (`private="…"` included) in the answer's Cache-Control. */
export function sharedCacheMayStore(response: UpstreamResponse): boolean {
  const cacheControl = response.headers['cache-control'];
  return cacheControl === undefined || !/(?:^|[\s,])(?:no-store|private)(?:$|[\s,=])/i.test(cacheControl);
}

/** The same stored answer: the same object in process, the same bytes when read again from Redis. */
export function sameAnswer(a: UpstreamResponse, b: UpstreamResponse): boolean {
  return a === b || (a.status === b.status && a.headers.etag === b.headers.etag && a.body.equals(b.body));
}

function freshFor(cache: CachePolicy, response: UpstreamResponse): number {
  return response.status === 404 ? cache.notFoundTtlMs : cache.ttlMs;
}
