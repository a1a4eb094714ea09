/**
 * The REST compatibility layer as one declarative table: each route names its method, every path
 * the upstream serves it under, its querystring schema, and the upstream request it becomes.
 * Upstream requests are built by the typed clients, never here.
 */
import type { CallOptions, UpstreamRequest, UpstreamResponse } from '../upstream/request.js';
import type { UpstreamService } from '../upstream/service.js';
import { hiroAnswer } from '../sources/wire.js';
import type { Upstreams } from '../upstream/index.js';
import { isDotSegment, isPlatformKey, isUuid, PLATFORM_KEY_RULE, UUID_RULE } from '../upstream/paths.js';
import { fastifyError, jsonAnswer, type RestAnswer } from './responses.js';
import {
  PageQuerySchema,
  TransfersQuerySchema,
  querystringValidator,
  type PageQueryInput,
  type TransfersQueryInput,
  type Validator,
} from './schemas.js';

export interface RouteInput<Q> {
  params: Record<string, string>;
  query: Q;
  /** The raw remainder of a `*` pattern, query string included (bitcoin-node paths). */
  rest: string;
}

export interface RestRoute<Q = unknown> {
  method: 'GET' | 'DELETE';
  /** Patterns: `:name` matches one segment, a final `*` matches the rest of the path. */
  paths: string[];
  query?: Validator<Q>;
  /** Answers without the upstream where the answer is certain (and the request unsafe to send). */
  local?(input: RouteInput<Q>): RestAnswer | undefined;
  upstream(upstreams: Upstreams, input: RouteInput<Q>): [UpstreamService, UpstreamRequest];
  /** The answer of the operation's data source when it is not hiro (src/sources/); undefined: hiro. */
  sourced?(upstreams: Upstreams, input: RouteInput<Q>, call: CallOptions): Promise<UpstreamResponse> | undefined;
}

/** Each hiro API is mounted with and without its version segment. */
const versioned = (service: string, path: string) => [`/${service}/v1${path}`, `/${service}${path}`];

function route<Q>(definition: RestRoute<Q>): RestRoute {
  return definition as RestRoute;
}

/**
 * The platform key is held to the proxy rules (upstream/paths.ts) before anything is sent: a 400
 * in the upstream's format, as a Fastify route with that param schema would answer. Never echoed.
 */
const badKey = ({ params }: RouteInput<unknown>): RestAnswer | undefined =>
  isPlatformKey(params.apiKey ?? '') ? undefined : fastifyError(400, `params/apiKey ${PLATFORM_KEY_RULE}`);

/**
 * ajv, as the upstream's Fastify runs it, coerces `limit=1e400` to Infinity and lets it pass as an
 * integer; the upstream then fails with a 500 when it writes its answer. Answered here as the
 * upstream would, without sending it: a request that can only fail must not spend quota, nor
 * count towards opening the service's breaker for everyone.
 */
const nonFinitePage = ({ query }: RouteInput<{ limit?: number; offset?: number }>): RestAnswer | undefined => {
  // The upstream writes `limit` before `offset`: the first non-finite one is named.
  const value = [query.limit, query.offset].find((v) => v !== undefined && !Number.isFinite(v));
  return value === undefined ? undefined : fastifyError(500, `The value "${value}" cannot be converted to an integer.`);
};

export const routes: RestRoute[] = [
  route({
    method: 'GET',
    paths: ['/metadata/v1', '/metadata/v1/', '/metadata', '/metadata/'],
    upstream: ({ metadata }) => [metadata.service, metadata.statusRequest()],
  }),
  route({
    method: 'GET',
    paths: versioned('ordinals', '/brc-20/tokens/:ticker'),
    // No token is named `.` or `..`, and those segments are not safe to send on.
    local: ({ params }) => (isDotSegment(params.ticker ?? '') ? jsonAnswer(404, { error: 'Not found' }) : undefined),
    upstream: ({ ordinals }, { params }) => [ordinals.service, ordinals.brc20TokenRequest(params.ticker ?? '')],
    sourced: ({ sources: { brc20 } }, { params }, call) =>
      brc20?.run(params.ticker ?? '', call).then((value) => hiroAnswer(value, brc20.source)),
  }),
  route<TransfersQueryInput>({
    method: 'GET',
    paths: versioned('ordinals', '/inscriptions/transfers'),
    query: querystringValidator(TransfersQuerySchema),
    local: nonFinitePage,
    upstream: ({ ordinals }, { query: { block, offset = 0, limit = 20 } }) => [
      ordinals.service,
      ordinals.transfersRequest(block, { offset, limit }),
    ],
    sourced: ({ sources: { transfers } }, { query: { block, offset = 0, limit = 20 } }, call) =>
      transfers?.run(block, { offset, limit }, call).then((value) => hiroAnswer(value, transfers.source)),
  }),
  route<PageQueryInput>({
    method: 'GET',
    paths: versioned('runes', '/etchings'),
    query: querystringValidator(PageQuerySchema),
    local: nonFinitePage,
    upstream: ({ runes }, { query: { offset = 0, limit = 20 } }) => [runes.service, runes.etchingsRequest({ offset, limit })],
    sourced: ({ sources: { etchings } }, { query: { offset = 0, limit = 20 } }, call) =>
      etchings?.run({ offset, limit }, call).then((value) => hiroAnswer(value, etchings.source)),
  }),
  route({
    method: 'DELETE',
    paths: ['/v1/ext/:apiKey/chainhooks/:chainhookUuid'],
    // As GraphQL's deleteChainhook: only a UUID is sent on (the platform documents 400 for bad parameters).
    local: (input) =>
      badKey(input) ?? (isUuid(input.params.chainhookUuid ?? '') ? undefined : fastifyError(400, `params/chainhookUuid ${UUID_RULE}`)),
    upstream: ({ platform }, { params }) => [
      platform.service,
      platform.deleteChainhookRequest(params.apiKey ?? '', params.chainhookUuid ?? ''),
    ],
  }),
  route({
    method: 'GET',
    paths: ['/v1/ext/:apiKey/bitcoin-node/*'],
    local: badKey,
    upstream: ({ platform }, { params, rest }) => [platform.service, platform.bitcoinNodeRequest(params.apiKey ?? '', rest)],
  }),
];

/** Paths under these prefixes belong to the upstreams: unmatched ones get Fastify's route 404. */
export const UPSTREAM_PREFIXES = ['/metadata', '/ordinals', '/runes', '/v1/ext/'];
