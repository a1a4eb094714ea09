import DataLoader from 'dataloader';
import { GraphQLError } from 'graphql';
import type { CallOptions } from './upstream/http.js';
import { normalizeTicker, type PageQuery } from './upstream/ordinals.js';
import type { Upstreams } from './upstream/index.js';

export interface LoaderLimits {
  /** Distinct upstream lookups one GraphQL request may cause. */
  maxCalls: number;
  /** Of those, how many may be in flight at once; the rest wait their turn. */
  maxConcurrent: number;
}

/**
 * Per-request DataLoaders between resolvers and the upstream clients: identical lookups in one
 * GraphQL request make one upstream call. Created fresh for every request, never shared.
 */
export function createLoaders(upstreams: Upstreams, call: CallOptions, limits: LoaderLimits) {
  const fetchOne = limited(limits);
  return {
    status: loader(fetchOne((_: 'status') => upstreams.metadata.status(call))),
    /** Tickers are case-insensitive upstream: `ORDI`, `ordi` and `Ordi` share one call. */
    brc20Token: loader(
      fetchOne((ticker: string) => upstreams.ordinals.brc20Token(ticker, call)),
      normalizeTicker,
    ),
    transfers: loader(
      fetchOne(({ block, ...page }: PageQuery & { block: string }) => upstreams.ordinals.transfers(block, page, call)),
      ({ block, offset, limit }) => `${block}|${offset}|${limit}`,
    ),
    etchings: loader(
      fetchOne((page: PageQuery) => upstreams.runes.etchings(page, call)),
      ({ offset, limit }) => `${offset}|${limit}`,
    ),
  };
}
export type Loaders = ReturnType<typeof createLoaders>;

/**
 * Bounds one request's upstream work: past `maxCalls` lookups each further one fails with a clear
 * error (no unbounded queue), and at most `maxConcurrent` run at once.
 */
function limited({ maxCalls, maxConcurrent }: LoaderLimits) {
  let calls = 0;
  let running = 0;
  const waiting: Array<() => void> = [];
  return <K, V>(fetch: (key: K) => Promise<V>) =>
    async (key: K): Promise<V> => {
      if (++calls > maxCalls) {
        throw new GraphQLError(`This request needs more than ${maxCalls} upstream lookups; split it`, {
          extensions: { code: 'TOO_MANY_UPSTREAM_CALLS', limit: maxCalls },
        });
      }
      if (running >= maxConcurrent) await new Promise<void>((resolve) => waiting.push(resolve));
      running++;
      try {
        return await fetch(key);
      } finally {
        running--;
        waiting.shift()?.();
      }
    };
}

/**
 * A loader over a single-key fetch: keys are deduplicated by `cacheKey`, and each key's failure is
 * its own Error value, so one failing key never fails the others.
 */
function loader<K, V>(fetchOne: (key: K) => Promise<V>, cacheKey?: (key: K) => string) {
  return new DataLoader<K, V, string | K>(
    (keys) => Promise.all(keys.map((key) => fetchOne(key).catch((error: unknown) => toError(error)))),
    cacheKey ? { cacheKeyFn: cacheKey } : {},
  );
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
