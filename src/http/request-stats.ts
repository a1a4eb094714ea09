/**
 * What one client request cost, for its access log line and its trace: created by the HTTP
 * listener, updated by the REST layer, the upstream layer through the call options
 * (CallOptions.stats, whose CallStats shape this has) and the GraphQL plugins, read when the
 * response closes.
 */
import type { CacheEvent } from '../observe/metrics.js';
import type { TraceSpan } from '../observe/tracing.js';

/**
 * The outcome of one cached upstream lookup: `hit` (fresh in the cache, no upstream call),
 * `revalidated` (the upstream confirmed the stored answer with a 304), `miss` (the upstream's
 * answer was needed: fetched, or failed), `stale` (the stored answer served past its freshness
 * because the upstream failed). A lookup that joined an identical one in flight gets its outcome.
 */
export type CacheOutcome = Exclude<CacheEvent, 'coalesced' | 'joined' | 'rejected'>;
const WORSE: Record<CacheOutcome, number> = { hit: 0, revalidated: 1, miss: 2, stale: 3 };

export class RequestStats {
  /** Upstream HTTP requests this request sent (retries included; joined in-flight calls excluded). */
  upstreamCalls = 0;
  /** The worst outcome of the request's cached lookups; undefined when it made none. */
  cache: CacheOutcome | undefined;
  /** The GraphQL operation's name, when it has one. */
  operationName: string | undefined;
  /** The REST route template it matched (`/ordinals/v1/brc-20/tokens/:ticker`): never the raw path. */
  route: string | undefined;
  /** The request's span, when tracing is on: the parent of what it causes (see tracing.ts). */
  trace: TraceSpan | undefined;

  /** A batched request runs several operations: their names, comma-separated, up to 200 characters. */
  noteOperation(name: string): void {
    this.operationName = (this.operationName ? `${this.operationName},${name}` : name).slice(0, 200);
  }

  noteCache(outcome: CacheOutcome): void {
    if (this.cache === undefined || WORSE[outcome] > WORSE[this.cache]) this.cache = outcome;
  }
}
