// The three api.hiro.so services (token metadata, ordinals, runes) as Fastify plugins, each
// meant to be registered twice (with and without the version prefix) like the upstream does.
import type { Static } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { SampleActivity } from './activity.js';
import { findTransferBlock, sampleData, STATUS_V1_ETAG, STATUS_V2_ETAG } from './data.js';
import {
  Brc20TokenDetailsResponse,
  Brc20TokensQuery,
  Brc20TokensResponse,
  EtchingParams,
  EtchingResponse,
  EtchingsResponse,
  NotFoundResponse,
  PageQuery,
  StatusV1Response,
  StatusV2Response,
  TickerParams,
  TransfersQuery,
  TransfersResponse,
} from './schemas.js';

const DEFAULT_LIMIT = 20;
export const CACHE_CONTROL = 'public, no-cache, must-revalidate';

/** api-toolkit's permissive If-None-Match parsing: quotes and W/ stripped, lists split. */
function parseIfNoneMatch(value: string | undefined): string[] | undefined {
  if (!value) return undefined;
  const normalized = /^(?:"|W\/")?(.*?)"?$/i.exec(value.trim())?.[1];
  if (!normalized) return undefined;
  return normalized.includes(',') ? normalized.split(/(?:W\/"|")?(?:\s*),(?:\s*)(?:W\/"|")?/i) : [normalized];
}

/**
 * The upstream's cache preHandler: it runs after validation (400s carry no ETag) and before the
 * handler (404s from the handler do). A match answers 304 with only Cache-Control.
 */
function etagHook(current: string | (() => string)) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const etag = typeof current === 'string' ? current : current();
    if (parseIfNoneMatch(request.headers['if-none-match'])?.includes(etag)) {
      return reply.header('Cache-Control', CACHE_CONTROL).code(304).send();
    }
    void reply.headers({ 'Cache-Control': CACHE_CONTROL, ETag: `"${etag}"` });
  };
}

export function metadataApi(shape: 'v1' | 'v2'): FastifyPluginAsync {
  return async (app) => {
    app.addHook('preHandler', etagHook(shape === 'v1' ? STATUS_V1_ETAG : STATUS_V2_ETAG));
    // '/' under a prefix answers both '/metadata/v1' and '/metadata/v1/'.
    app.get('/', { schema: { response: { 200: shape === 'v1' ? StatusV1Response : StatusV2Response } } }, async () =>
      shape === 'v1' ? sampleData.statusV1 : sampleData.statusV2,
    );
  };
}

/**
 * Postgres reading the query's page parameters as postgres.js sends them (a number's JavaScript
 * text), bound `offset` first: ajv lets `1e400` through as Infinity and `1e23` as an integer, which
 * Postgres refuses (22P02: not an integer's text; 22003: past int4's or int8's range), and Fastify
 * answers the error with its code.
 */
function bindPage(sqlType: 'integer' | 'bigint', offset: number, limit: number): void {
  const bits = sqlType === 'integer' ? 31n : 63n;
  for (const value of [offset, limit]) {
    const text = `${value}`;
    if (!/^-?\d+$/.test(text)) throw Object.assign(new Error(`invalid input syntax for type ${sqlType}: "${text}"`), { code: '22P02' });
    const integer = BigInt(text);
    if (integer >= 1n << bits || integer < -(1n << bits)) {
      throw Object.assign(new Error(`value "${text}" is out of range for type ${sqlType}`), { code: '22003' });
    }
  }
}

/** A page as the upstream answers it: it reads total from the first row, so an empty page reports 0. */
function page<T>(items: readonly T[], offset: number, limit: number, total = items.length) {
  const results = items.slice(offset, offset + limit);
  return { limit, offset, total: results.length > 0 ? total : 0, results };
}

/** SQL LIKE `<value>%` as a regular expression. */
function likePrefix(value: string): RegExp {
  const body = [...value].map((c) => (c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${body}`, 'su');
}

/** The ordinals and runes services read the sample's current data (it changes: see activity.ts). */
export interface DataOptions {
  activity: SampleActivity;
}

export interface OrdinalsOptions extends DataOptions {
  /** Whether the BRC-20 token list is served: Hiro does; docs/upstream.md documents only the token route. */
  tokenList?: boolean;
}

export const ordinalsApi: FastifyPluginAsync<OrdinalsOptions> = async (app, { activity, tokenList = true }) => {
  // The ordinals ETag is global: the same for every ticker and block, found or not.
  app.addHook('preHandler', etagHook(activity.ordinalsEtag));

  // The status route (bitcoin-indexer api/ordinals/src/api/routes/status.ts).
  app.get('/', async () => ({
    server_version: 'bitcoin-indexer-ordinals-api sample',
    status: 'ready',
    block_height: Math.max(...activity.brc20Tokens().map(({ token }) => token.block_height)),
  }));

  if (tokenList) {
    app.get('/brc-20/tokens', { schema: { querystring: Brc20TokensQuery, response: { 200: Brc20TokensResponse } } }, async (request) => {
      const { ticker, offset = 0, limit = DEFAULT_LIMIT } = request.query as Static<typeof Brc20TokensQuery>;
      // The upstream filters with SQL `ticker LIKE lower(t) || '%'`: a prefix match in which `_`
      // and `%` are wildcards.
      const patterns = ticker?.map((t) => likePrefix(t.toLowerCase()));
      const matching = activity
        .brc20Tokens()
        .map((t) => t.token)
        .filter((token) => !patterns || patterns.some((pattern) => pattern.test(token.ticker)))
        .sort((a, b) => a.number - b.number);
      return page(matching, offset, limit);
    });
  }

  app.get(
    '/brc-20/tokens/:ticker',
    { schema: { params: TickerParams, response: { 200: Brc20TokenDetailsResponse, 404: NotFoundResponse } } },
    async (request, reply) => {
      const { ticker } = request.params as Static<typeof TickerParams>;
      const token = activity.findBrc20Token(ticker);
      if (!token) return reply.code(404).send({ error: 'Not found' });
      return token;
    },
  );

  app.get(
    '/inscriptions/transfers',
    { schema: { querystring: TransfersQuery, response: { 200: TransfersResponse, 404: NotFoundResponse } } },
    async (request) => {
      const { block, offset = 0, limit = DEFAULT_LIMIT } = request.query as Static<typeof TransfersQuery>;
      // The transfers query casts both with `::int`.
      bindPage('integer', offset, limit);
      // Unknown blocks are a 200 with an empty page, never a 404.
      const transfers = findTransferBlock(block)?.transfers ?? [];
      return page([...transfers].reverse(), offset, limit);
    },
  );
};

export const runesApi: FastifyPluginAsync<DataOptions> = async (app, { activity }) => {
  app.addHook('preHandler', etagHook(activity.runesEtag));

  // The status route (bitcoin-indexer api/runes/src/api/routes/status.ts): at `/runes/v1` only,
  // where a sample serving ord too has ord's `/runes` at the unversioned one.
  if (app.prefix.endsWith('/v1')) {
    app.get('/', async () => ({
      server_version: 'bitcoin-indexer-runes-api sample',
      status: 'ready',
      block_height: activity.etchings()[0]?.location.block_height,
    }));
  }

  app.get('/etchings', { schema: { querystring: PageQuery, response: { 200: EtchingsResponse } } }, async (request) => {
    const { offset = 0, limit = DEFAULT_LIMIT } = request.query as Static<typeof PageQuery>;
    // `OFFSET $1 LIMIT $2`: Postgres types both bigint.
    bindPage('bigint', offset, limit);
    return page(activity.etchings(), offset, limit, activity.etchingsTotal());
  });

  app.get(
    '/etchings/:etching',
    { schema: { params: EtchingParams, response: { 200: EtchingResponse, 404: NotFoundResponse } } },
    async (request, reply) => {
      const { etching } = request.params as Static<typeof EtchingParams>;
      return activity.findEtching(etching) ?? reply.code(404).send({ error: 'Not found' });
    },
  );
};
