import DataLoader from 'dataloader';
import { normalizeTicker, type PageQuery } from './upstream/ordinals.js';
import type { Upstreams } from './upstream/index.js';

/**
 * Per-request DataLoaders between resolvers and the upstream clients: identical lookups in one
 * GraphQL request make one upstream call. Created fresh for every request, never shared.
 */
export function createLoaders(upstreams: Upstreams, signal: AbortSignal) {
  return {
    status: loader((_: 'status') => upstreams.metadata.status(signal)),
    /** Tickers are case-insensitive upstream: `ORDI`, `ordi` and `Ordi` share one call. */
    brc20Token: loader((ticker: string) => upstreams.ordinals.brc20Token(ticker, signal), normalizeTicker),
    transfers: loader(
      ({ block, ...page }: PageQuery & { block: string }) => upstreams.ordinals.transfers(block, page, signal),
      ({ block, offset, limit }) => `${block}|${offset}|${limit}`,
    ),
    etchings: loader(
      (page: PageQuery) => upstreams.runes.etchings(page, signal),
      ({ offset, limit }) => `${offset}|${limit}`,
    ),
  };
}
export type Loaders = ReturnType<typeof createLoaders>;

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
