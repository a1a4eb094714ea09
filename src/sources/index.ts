/**
 * The source layer: between the loaders (and the REST routes, and the live pollers) and the
 * upstream clients, each read operation asks its configured source for Hiro-shaped data
 * (docs/sources.md; the seam the callers see is upstream/sourced.ts). `hiro` is no source object here: callers keep asking the hiro clients
 * exactly as before, so hiro's answers stay byte for byte what they were.
 */
import type { ServiceName } from '../errors.js';
import type { UpstreamEvents } from '../observe/metrics.js';
import type { CallOptions } from '../upstream/request.js';
import type { UpstreamService } from '../upstream/service.js';
import type { DataSources, SourceName, SourcedOperation } from '../upstream/sourced.js';
import type { PageQuery } from '../upstream/ordinals.js';
import { UpstreamError } from '../errors.js';
import type { SourceStatus } from '../upstream/sourced.js';
import type { SourceDeps } from './deps.js';
import { asOperationError } from './errors.js';
import { markOf, withHeight } from './provenance.js';
import { createUnisatHeights, type UnisatIndex } from './unisat/heights.js';
import { createUnisatBrc20 } from './unisat/brc20.js';
import { createUnisatClient } from './unisat/client.js';
import { createUnisatTransfers } from './unisat/transfers.js';
import { createUnisatEtchings } from './unisat/runes.js';
import { createOrdClient } from './ord/client.js';
import { createOrdEtchings } from './ord/runes.js';

/** The operation a metric names: what a source serves, and one etching by rune id (a node lookup). */
type OperationName = SourceStatus['serves'][number] | 'etching';

/** What each source did last, for /readyz: the height its last answer reported. */
type Heights = Map<SourceName, { height: number; at: number }>;

/**
 * Errors come out as the operation's, naming the source. Each run is timed into the metrics
 * (labels: source, operation, outcome) and a reported height is kept for /readyz.
 */
function operation<A extends unknown[], T>(
  [source, name]: [SourceName, OperationName],
  service: ServiceName,
  backend: UpstreamService,
  { events, heights }: { events?: UpstreamEvents; heights: Heights },
  run: (...args: [...A, CallOptions]) => Promise<T>,
): SourcedOperation<A, T> {
  return {
    source,
    service,
    backend,
    run: async (...args) => {
      const started = performance.now();
      const observe = (outcome: string) => events?.sourceOperation(source, name, outcome, (performance.now() - started) / 1000);
      try {
        const value = await run(...args);
        observe('ok');
        const height = markOf(value)?.height;
        if (typeof height === 'number') heights.set(source, { height, at: Date.now() });
        return value;
      } catch (error) {
        observe(error instanceof UpstreamError ? error.kind : 'error');
        throw asOperationError(error, service, source);
      }
    },
  };
}

export function createSources(deps: SourceDeps): DataSources {
  const { sources } = deps.config;
  const uses = (name: SourceName) => sources.brc20 === name || sources.transfers === name || sources.etchings === name;
  const unisat = uses('unisat') ? createUnisatClient(deps) : undefined;
  const ord = uses('ord') ? createOrdClient(deps) : undefined;
  const services = [unisat?.service, ord?.service].filter((s): s is UpstreamService => s !== undefined);
  if (unisat || ord) {
    // Origins only, and whether a key or password is set: never their values.
    deps.logger.info(
      {
        sources: { brc20: sources.brc20, transfers: sources.transfers, etchings: sources.etchings },
        unisat: unisat
          ? { origin: sources.unisatUrl.origin, apiKey: sources.unisatApiKey !== undefined, perSecond: sources.unisatRatePerSecond }
          : undefined,
        ord: ord ? { origin: sources.ordUrl?.origin, auth: sources.ordAuth !== undefined } : undefined,
      },
      'data sources',
    );
  }
  const heights: Heights = new Map();
  const observed = { events: deps.events, heights };
  const backends = { unisat: unisat?.service, ord: ord?.service };
  const serving = (name: SourceName) => (['brc20', 'transfers', 'etchings'] as const).filter((op) => sources[op] === name);
  const result: DataSources = {
    services,
    status: () =>
      (['unisat', 'ord'] as const).flatMap((source) => {
        const service = backends[source];
        const last = heights.get(source);
        return service ? [{ source, serves: serving(source), service, height: last?.height ?? null, heightAt: last?.at ?? null }] : [];
      }),
    async close() {
      await Promise.all(services.map((s) => s.close()));
    },
  };
  // UniSat's answers carry no height: each is marked with its index's (asked beside it, see heights.ts).
  const unisatHeights = unisat && createUnisatHeights(unisat);
  const atHeight =
    <A extends unknown[], T>(index: UnisatIndex, run: (...args: [...A, CallOptions]) => Promise<T>) =>
    async (...args: [...A, CallOptions]): Promise<T> => {
      const [value, height] = await Promise.all([run(...args), unisatHeights!.heightOf(index)]);
      unisatHeights!.noteUsed(index, height, args[args.length - 1] as CallOptions);
      return withHeight(value, 'unisat', height);
    };
  if (unisat && sources.brc20 === 'unisat') {
    const brc20 = createUnisatBrc20(unisat);
    result.brc20 = operation(
      ['unisat', 'brc20'],
      'ordinals',
      unisat.service,
      observed,
      atHeight('brc20', (ticker: string, call: CallOptions) => brc20.token(ticker, call)),
    );
  }
  if (unisat && sources.transfers === 'unisat') {
    const transfers = createUnisatTransfers(unisat);
    result.transfers = operation(
      ['unisat', 'transfers'],
      'ordinals',
      unisat.service,
      observed,
      atHeight('chain', (block: string, page: PageQuery, call: CallOptions) => transfers.transfers(block, page, call)),
    );
  }
  if (unisat && sources.etchings === 'unisat') {
    const etchings = createUnisatEtchings(unisat);
    result.etchings = operation(
      ['unisat', 'etchings'],
      'runes',
      unisat.service,
      observed,
      atHeight('runes', (page: PageQuery, call: CallOptions) => etchings.etchings(page, call)),
    );
    result.etching = operation(
      ['unisat', 'etching'],
      'runes',
      unisat.service,
      observed,
      atHeight('runes', (runeId: string, call: CallOptions) => etchings.etching(runeId, call)),
    );
  }
  if (ord && sources.etchings === 'ord') {
    const etchings = createOrdEtchings(ord);
    result.etchings = operation(['ord', 'etchings'], 'runes', ord.service, observed, (page: PageQuery, call: CallOptions) =>
      etchings.etchings(page, call),
    );
    result.etching = operation(['ord', 'etching'], 'runes', ord.service, observed, (runeId: string, call: CallOptions) =>
      etchings.etching(runeId, call),
    );
  }
  return result;
}

export type { DataSources, SourcedOperation };
