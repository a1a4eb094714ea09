/**
 * The REST compatibility layer as one declarative table: each route names its method, every path
 * the upstream serves it under, its querystring schema, and the upstream request it becomes.
 * Upstream requests are built by the typed clients, never here.
 */
import type { CallOptions, UpstreamRequest, UpstreamResponse } from '../upstream/request.js';
import type { UpstreamService } from '../upstream/service.js';
import { hiroAnswer } from '../sources/wire.js';
import type { Upstreams } from '../upstream/index.js';
import { UnsafePathError } from '../errors.js';
import { isPlatformKey, isUuid, PLATFORM_KEY_RULE, readsAsPath, UUID_RULE } from '../upstream/paths.js';
import { fastifyError, jsonAnswer, type RestAnswer } from './responses.js';
import {
  EtchingParamsSchema,
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

interface RouteBase<Q> {
  method: 'GET' | 'DELETE';
  /** Patterns: `:name` matches one segment, a final `*` matches the rest of the path. */
  paths: string[];
  query?: Validator<Q>;
}

/** A path whose answer never depends on the upstream's data: always answered here, never sent. */
export interface LocalRoute<Q = unknown> extends RouteBase<Q> {
  upstream?: undefined;
  local(input: RouteInput<Q>): RestAnswer;
}

export interface ProxiedRoute<Q = unknown> extends RouteBase<Q> {
  /** Answers without the upstream where the answer is certain (and the request unsafe to send). */
  local?(input: RouteInput<Q>): RestAnswer | undefined;
  upstream(upstreams: Upstreams, input: RouteInput<Q>): [UpstreamService, UpstreamRequest];
  /** The answer of the operation's data source when it is not hiro (src/sources/); undefined: hiro. */
  sourced?(upstreams: Upstreams, input: RouteInput<Q>, call: CallOptions): Promise<UpstreamResponse> | undefined;
}

export type RestRoute<Q = unknown> = ProxiedRoute<Q> | LocalRoute<Q>;

/** Each hiro API is mounted with and without its version segment. */
const versioned = (service: string, path: string) => [`/${service}/v1${path}`, `/${service}${path}`];

function route<Q>(definition: ProxiedRoute<Q> | LocalRoute<Q>): RestRoute {
  return definition as RestRoute;
}

/**
 * The platform key is held to the proxy rules (upstream/paths.ts) before anything is sent: a 400
 * in the upstream's format, as a Fastify route with that param schema would answer. Never echoed.
 */
const badKey = ({ params }: RouteInput<unknown>): RestAnswer | undefined =>
  isPlatformKey(params.apiKey ?? '') ? undefined : fastifyError(400, `params/apiKey ${PLATFORM_KEY_RULE}`);

/**
 * ajv, as the upstream's Fastify runs it, passes any integer, however large (`offset=1e23`), and
 * coerces `limit=1e400` to Infinity; postgres.js sends a number as its JavaScript text
 * (`1e+23`, `Infinity`), which Postgres refuses as the query's parameter: `22P02` for text that is
 * no integer, `22003` for one past the type's range (docs/upstream.md, "Things that are easy to
 * miss": offset ≥ 2^31 on transfers, ≥ 2^63 on etchings). Fastify answers that error with its
 * code. Answered here as the upstream does, without sending it: a request that can only fail
 * must not spend quota, count towards opening the service's breaker for everyone, or reach a
 * source (UniSat, ord) as `start=1e+23`.
 * `sqlType` is the parameters' type in the upstream's query: transfers cast to `int`, the runes
 * query's `OFFSET`/`LIMIT` take `bigint`.
 */
const unbindablePage =
  (sqlType: 'integer' | 'bigint') =>
  ({ query }: RouteInput<{ limit?: number; offset?: number }>): RestAnswer | undefined => {
    // The queries bind `offset` before `limit`: Postgres names the first it cannot read.
    for (const value of [query.offset, query.limit]) {
      if (value === undefined) continue;
      const text = String(value);
      if (!/^-?\d+$/.test(text)) return postgresError('22P02', `invalid input syntax for type ${sqlType}: "${text}"`);
      const bound = SQL_INTEGER_BOUND[sqlType];
      const integer = BigInt(text);
      if (integer >= bound || integer < -bound) return postgresError('22003', `value "${text}" is out of range for type ${sqlType}`);
    }
    return undefined;
  };

/** 2^31 and 2^63: Postgres' int4 and int8 hold [-bound, bound). */
const SQL_INTEGER_BOUND = { integer: 2n ** 31n, bigint: 2n ** 63n } as const;

const postgresError = (code: string, message: string) =>
  jsonAnswer(500, { statusCode: 500, code, error: 'Internal Server Error', message });

/** What the single-etching route's param schema says to an empty id. */
const emptyEtchingId = querystringValidator(EtchingParamsSchema, 'params')({ etching: '' });

export const routes: RestRoute[] = [
  route({
    method: 'GET',
    paths: ['/metadata/v1', '/metadata/v1/', '/metadata', '/metadata/'],
    upstream: ({ metadata }) => [metadata.service, metadata.statusRequest()],
  }),
  route({
    method: 'GET',
    paths: versioned('ordinals', '/brc-20/tokens/:ticker'),
    // No token is named `.` or `..`, and a ticker that reads as a path is not safe to send on.
    local: ({ params }) => (readsAsPath(params.ticker ?? '') ? jsonAnswer(404, { error: 'Not found' }) : undefined),
    upstream: ({ ordinals }, { params }) => [ordinals.service, ordinals.brc20TokenRequest(params.ticker ?? '')],
    sourced: ({ sources: { brc20 } }, { params }, call) =>
      brc20?.run(params.ticker ?? '', call).then((value) => hiroAnswer(value, brc20.source)),
  }),
  route<TransfersQueryInput>({
    method: 'GET',
    paths: versioned('ordinals', '/inscriptions/transfers'),
    query: querystringValidator(TransfersQuerySchema),
    local: unbindablePage('integer'),
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
    local: unbindablePage('bigint'),
    upstream: ({ runes }, { query: { offset = 0, limit = 20 } }) => [runes.service, runes.etchingsRequest({ offset, limit })],
    sourced: ({ sources: { etchings } }, { query: { offset = 0, limit = 20 } }, call) =>
      etchings?.run({ offset, limit }, call).then((value) => hiroAnswer(value, etchings.source)),
  }),
  route({
    method: 'GET',
    paths: versioned('runes', '/etchings/'),
    // Upstream this is the single-etching route with an empty id: its param schema's 400.
    local: () => fastifyError(400, 'message' in emptyEtchingId ? emptyEtchingId.message : ''),
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
    upstream: ({ platform }, { params, rest }) => {
      // `bitcoin-node//x`: an empty first segment, refused as any other is (proxyPath would drop it).
      if (rest.startsWith('/')) throw new UnsafePathError('path must not contain empty segments');
      return [platform.service, platform.bitcoinNodeRequest(params.apiKey ?? '', rest)];
    },
  }),
];

/** Paths under these prefixes belong to the upstreams: unmatched ones get Fastify's route 404. */
export const UPSTREAM_PREFIXES = ['/metadata', '/ordinals', '/runes', '/v1/ext/'];
