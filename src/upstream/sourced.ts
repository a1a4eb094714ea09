/**
 * The seam between the hiro clients and the data sources (src/sources/): what a read operation
 * served by a source other than hiro looks like to its callers. Declared here, below the sources,
 * so that Upstreams can carry them without upstream/ knowing any source (docs/architecture.md).
 */
import type { Redis } from 'ioredis';
import type { ServiceName } from '../errors.js';
import type { CacheStore, CallOptions, ServiceOptions } from './request.js';
import type { FlightBoard } from './shared-flights.js';
import type { UpstreamService } from './service.js';
import type { PageQuery } from './ordinals.js';
import type { Brc20TokenDetailsResponse, Page, SourcedInscriptionTransfer, SourcedRuneEtching } from './types.js';

/** A data source other than hiro. */
export type SourceName = 'unisat' | 'ord';

/** One read operation served by a source other than hiro. */
export interface SourcedOperation<A extends unknown[], T> {
  source: SourceName;
  /** The operation's service, named in its errors' `extensions.service`. */
  service: ServiceName;
  /** The source's pool (its health pauses live polling). */
  backend: UpstreamService;
  run(...args: [...A, CallOptions]): Promise<T>;
}

/** The operations whose source is not hiro; an absent one is asked of hiro's clients as before. */
export interface DataSources {
  brc20?: SourcedOperation<[ticker: string], Brc20TokenDetailsResponse | null>;
  transfers?: SourcedOperation<[block: string, page: PageQuery], Page<SourcedInscriptionTransfer> | null>;
  etchings?: SourcedOperation<[page: PageQuery], Page<SourcedRuneEtching>>;
  /** One etching by its rune id, from the same source as `etchings` (null: none). */
  etching?: SourcedOperation<[runeId: string], SourcedRuneEtching | null>;
  /** The pools behind them. */
  services: UpstreamService[];
  /** Each configured source, for /readyz. */
  status(): SourceStatus[];
  close(): Promise<void>;
}

/** A configured source as /readyz reports it. */
export interface SourceStatus {
  source: SourceName;
  /** The read operations it serves. */
  serves: Array<'brc20' | 'transfers' | 'etchings'>;
  service: UpstreamService;
  /** The indexed height its last answer reported (ord: `/blockheight`), null before one or where it reports none (UniSat). */
  height: number | null;
  /** When that answer came (epoch ms). */
  heightAt: number | null;
}

/** Hiro for everything. */
export const HIRO_ONLY: DataSources = { services: [], status: () => [], close: async () => {} };

/** What createUpstreams shares with the sources it is handed. */
export interface SharedWithSources {
  store: CacheStore;
  redis?: Redis;
  /** With Redis: identical misses joined across the group (shared-flights.ts). */
  flights?: FlightBoard;
  /** Per-client fairness for a source's service, counted as hiro's services count it. */
  fairness(name: ServiceName): Pick<ServiceOptions, 'clientCallsPerMinute' | 'clientLimiter'>;
}
export type SourcesFactory = (shared: SharedWithSources) => DataSources;
