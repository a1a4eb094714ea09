/**
 * The upstream resources subscriptions watch, and what a change of each means to a subscriber.
 * A resource is one upstream GET; its key names it (tickers normalised, so case variants share a
 * poller). Nothing here knows about timers, subscribers or Redis.
 */
import { badUserInput } from '../errors.js';
import type { LiveResourceKind } from '../observe/metrics.js';
import type { UpstreamRequest, UpstreamResponse } from '../upstream/request.js';
import type { Upstreams } from '../upstream/index.js';
import { liveSource, type LiveService } from '../sources/live.js';
import { isStatus } from '../upstream/metadata.js';
import { isBrc20Details, normalizeTicker } from '../upstream/ordinals.js';
import { isEtchingPage } from '../upstream/runes.js';
import type { Shape } from '../upstream/shapes.js';
import type { ApiStatusResponse, Brc20TokenDetailsResponse, Page, RuneEtching } from '../upstream/types.js';

export type LiveResource = { kind: 'status' } | { kind: 'brc20'; ticker: string } | { kind: 'etchings' };

/** The etchings page watched for new etchings: the newest upstream page. */
const WATCHED_ETCHINGS = { offset: 0, limit: 60 };
/** BRC-20 tickers are 4 or 5 bytes on chain; anything past this cannot be one. */
const MAX_TICKER_BYTES = 16;

export interface ResourceDef<V = unknown, E = unknown> {
  kind: LiveResourceKind;
  key: string;
  /** A hiro service, or a data source polled as one (src/sources/live.ts). */
  service: LiveService;
  request: UpstreamRequest;
  /** The resource's value from an answer; throws on an answer that is not its state. */
  decode(response: UpstreamResponse): V;
  /** The events a change from `previous` (undefined: the first value seen) to `next` sends. */
  changes(previous: V | undefined, next: V): E[];
  /** What a subscriber joining a poller that already knows the value gets at once. */
  initial(value: V): E[];
  /**
   * Events of what is new (etchings), not states: a subscriber's baseline is the answer of a poll
   * started after it joined (baselines.ts), never the poller's last one.
   */
  baselineAfterJoin: boolean;
}

/** Validates like a query argument would be, before any poller exists. */
export function validTicker(ticker: string): string {
  const bytes = Buffer.byteLength(ticker, 'utf8');
  if (bytes < 1 || bytes > MAX_TICKER_BYTES || /[\x00-\x1f\x7f/]/.test(ticker) || ticker === '.' || ticker === '..') {
    throw badUserInput(`ticker must be 1 to ${MAX_TICKER_BYTES} bytes of printable characters without "/"`, 'ticker');
  }
  return ticker;
}

export function resourceKey(resource: LiveResource): string {
  return resource.kind === 'brc20' ? `brc20:${normalizeTicker(resource.ticker)}` : resource.kind;
}

/**
 * The answer's value, checked against the shape a query checks it with: an answer that is not the
 * resource's state is a failed poll (nothing sent, the last value kept), never an event that fails
 * every subscriber's fields.
 */
function json<T>(service: LiveService, response: UpstreamResponse, shape: Shape<T>, notFound?: T): T {
  if (notFound !== undefined && service.saysNotFound(response)) return notFound;
  if (response.status < 200 || response.status >= 300) throw service.statusError(response);
  return service.parse(response, shape);
}

/** A state resource: the value now, then the value again each time it changes. */
function stateDef<V>(
  kind: LiveResourceKind,
  key: string,
  service: LiveService,
  request: UpstreamRequest,
  shape: Shape<V>,
  notFound?: V,
): ResourceDef<V, V> {
  return {
    kind,
    key,
    service,
    request,
    decode: (response) => json(service, response, shape, notFound),
    changes: (_previous, next) => [next],
    initial: (value) => [value],
    baselineAfterJoin: false,
  };
}

/**
 * A new etching, with where the page that showed it had it (newest first) and the list's total
 * then: enough for a cursor of etchingsConnection (graphql/schema/live.ts).
 */
export interface AddedEtching {
  etching: RuneEtching;
  position: number;
  total: number;
}

interface EtchingsSeen {
  etchings: RuneEtching[];
  /** The list's total when this page was read. */
  total: number;
  /** Ids of the last two pages seen: a new etching is one not among them. */
  seen: Set<string>;
}

export function resourceDef(upstreams: Upstreams, resource: LiveResource): ResourceDef {
  const key = resourceKey(resource);
  switch (resource.kind) {
    case 'status':
      return stateDef<ApiStatusResponse>('status', key, upstreams.metadata.service, upstreams.metadata.statusRequest(), isStatus);
    case 'brc20':
      // null while no such token exists (the upstream's 404).
      return stateDef<Brc20TokenDetailsResponse | null>(
        'brc20',
        key,
        upstreams.sources.brc20 ? liveSource(upstreams.sources.brc20, resource.ticker) : upstreams.ordinals.service,
        upstreams.ordinals.brc20TokenRequest(resource.ticker),
        isBrc20Details,
        null,
      );
    case 'etchings': {
      const service = upstreams.sources.etchings ? liveSource(upstreams.sources.etchings, WATCHED_ETCHINGS) : upstreams.runes.service;
      const def: ResourceDef<EtchingsSeen, AddedEtching> = {
        kind: 'etchings',
        key,
        service,
        request: upstreams.runes.etchingsRequest(WATCHED_ETCHINGS),
        decode: (response) => {
          const { results: etchings, total } = json<Page<RuneEtching>>(service, response, isEtchingPage);
          return { etchings, total, seen: new Set(etchings.map((e) => e.id)) };
        },
        // Each etching once, older first; the first page seen is the baseline and sends nothing.
        changes: (previous, next) => {
          if (!previous) return [];
          const added: AddedEtching[] = [];
          next.etchings.forEach((etching, position) => {
            if (!previous.seen.has(etching.id)) added.unshift({ etching, position, total: next.total });
          });
          for (const e of previous.etchings) next.seen.add(e.id);
          return added;
        },
        initial: () => [],
        baselineAfterJoin: true,
      };
      return def as ResourceDef;
    }
  }
}
