/**
 * The side-by-side references for GraphQL figures, graphql-yoga + Pothos servers over the same
 * sample upstream, written independently of satgate's code. PEER_KIND picks one:
 * - `plain` (the default): built as the tutorials build one: each resolver asks the upstream, no
 *   cache, no DataLoader, no plugins.
 * - `yoga-rc`: the tuned peer of issue 27, what a competent team builds in an afternoon with the
 *   standard plugins: `@graphql-yoga/plugin-response-cache` (ttl 1 s, as satgate's default upstream
 *   freshness) and a DataLoader per request (one upstream call per distinct path in a request).
 * Both ask through a keep-alive undici Pool rather than `fetch`, which costs about twice the CPU
 * here: the strongest plain server, not a strawman. They answer the bench's documents
 * (bench/lib/queries.ts) with the same field names as satgate. Forked by bench/run.ts with
 * SAMPLE_URL, PORT and PEER_KIND; reports its url over IPC.
 */
import { createServer } from 'node:http';
import SchemaBuilder from '@pothos/core';
import { useResponseCache } from '@graphql-yoga/plugin-response-cache';
import DataLoader from 'dataloader';
import { createYoga } from 'graphql-yoga';
import { Pool } from 'undici';
import { serveChild } from './lib/child-server.js';

const target = process.env.SAMPLE_URL;
if (!target) throw new Error('peer: SAMPLE_URL is required');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const pool = new Pool(target, { connections: 64, pipelining: 1, keepAliveTimeout: 4_000 });

async function get(path: string): Promise<Json | null> {
  const { statusCode, body } = await pool.request({ method: 'GET', path, headers: { accept: 'application/json' } });
  const parsed = (await body.json()) as Json;
  if (statusCode === 404) return null;
  if (statusCode >= 300) throw new Error(`upstream answered ${statusCode}`);
  return parsed;
}

/** How resolvers ask the upstream: directly (plain), or through the request's DataLoader (yoga-rc). */
interface PeerContext {
  get(path: string): Promise<Json | null>;
}

const kind = process.env.PEER_KIND ?? 'plain';
if (kind !== 'plain' && kind !== 'yoga-rc') throw new Error(`peer: PEER_KIND must be plain or yoga-rc, got ${kind}`);

const builder = new SchemaBuilder<{ Objects: Record<string, Json>; Context: PeerContext }>({});

/** An object type whose fields read snake_case keys of the upstream's JSON. */
function plain(name: string, fields: Record<string, [key: string, type: 'String' | 'Int' | 'Boolean' | 'Float']>) {
  return builder.objectRef<Json>(name).implement({
    fields: (t) =>
      Object.fromEntries(
        Object.entries(fields).map(([field, [key, type]]) => [
          field,
          t.field({ type, nullable: true, resolve: (parent) => parent[key] ?? null }),
        ]),
      ),
  });
}

const Token = plain('Brc20Token', {
  id: ['id', 'String'],
  number: ['number', 'Int'],
  blockHeight: ['block_height', 'Int'],
  txId: ['tx_id', 'String'],
  address: ['address', 'String'],
  ticker: ['ticker', 'String'],
  maxSupply: ['max_supply', 'String'],
  mintLimit: ['mint_limit', 'String'],
  decimals: ['decimals', 'Int'],
  deployTimestamp: ['deploy_timestamp', 'Float'],
  mintedSupply: ['minted_supply', 'String'],
  txCount: ['tx_count', 'Int'],
  selfMint: ['self_mint', 'Boolean'],
});
const Supply = plain('Brc20Supply', {
  maxSupply: ['max_supply', 'String'],
  mintedSupply: ['minted_supply', 'String'],
  holders: ['holders', 'Int'],
});
const TokenDetails = builder.objectRef<Json>('Brc20TokenDetails').implement({
  fields: (t) => ({
    token: t.field({ type: Token, resolve: (d) => d.token }),
    supply: t.field({ type: Supply, resolve: (d) => d.supply }),
  }),
});

const Location = plain('InscriptionLocation', {
  blockHeight: ['block_height', 'Int'],
  blockHash: ['block_hash', 'String'],
  address: ['address', 'String'],
  txId: ['tx_id', 'String'],
  location: ['location', 'String'],
  output: ['output', 'String'],
  value: ['value', 'String'],
  offset: ['offset', 'String'],
  timestamp: ['timestamp', 'Float'],
});
const Transfer = builder.objectRef<Json>('InscriptionTransfer').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    number: t.exposeInt('number'),
    from: t.field({ type: Location, resolve: (x) => x.from }),
    to: t.field({ type: Location, resolve: (x) => x.to }),
  }),
});

const MintTerms = plain('RuneMintTerms', {
  amount: ['amount', 'String'],
  cap: ['cap', 'String'],
  heightStart: ['height_start', 'Int'],
  heightEnd: ['height_end', 'Int'],
  offsetStart: ['offset_start', 'Int'],
  offsetEnd: ['offset_end', 'Int'],
});
const RuneSupply = plain('RuneSupply', {
  current: ['current', 'String'],
  minted: ['minted', 'String'],
  totalMints: ['total_mints', 'String'],
  mintPercentage: ['mint_percentage', 'String'],
  mintable: ['mintable', 'Boolean'],
  burned: ['burned', 'String'],
  totalBurns: ['total_burns', 'String'],
  premine: ['premine', 'String'],
});
const RuneLocation = builder.objectRef<Json>('RuneLocation').implement({
  fields: (t) => ({
    blockHash: t.exposeString('block_hash'),
    blockHeight: t.exposeInt('block_height'),
    txId: t.exposeString('tx_id'),
    txIndex: t.exposeInt('tx_index'),
    vout: t.int({ nullable: true, resolve: (l) => l.vout ?? null }),
    output: t.string({ nullable: true, resolve: (l) => l.output ?? null }),
    timestamp: t.float({ resolve: (l) => l.timestamp * 1000 }),
  }),
});
const Etching = builder.objectRef<Json>('RuneEtching').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    name: t.exposeString('name'),
    spacedName: t.exposeString('spaced_name'),
    number: t.exposeInt('number'),
    divisibility: t.exposeInt('divisibility'),
    symbol: t.exposeString('symbol'),
    turbo: t.exposeBoolean('turbo'),
    mintTerms: t.field({ type: MintTerms, resolve: (e) => e.mint_terms }),
    supply: t.field({ type: RuneSupply, resolve: (e) => e.supply }),
    location: t.field({ type: RuneLocation, resolve: (e) => e.location }),
  }),
});

function page(name: string, item: ReturnType<typeof plain>) {
  return builder.objectRef<Json>(name).implement({
    fields: (t) => ({
      limit: t.exposeInt('limit'),
      offset: t.exposeInt('offset'),
      total: t.exposeInt('total'),
      results: t.field({ type: [item], resolve: (p) => p.results }),
    }),
  });
}
const EtchingPage = page('RuneEtchingPage', Etching);
const TransferPage = page('InscriptionTransferPage', Transfer);

const Counts = (name: string, keys: Record<string, string>) =>
  builder.objectRef<Json>(name).implement({
    fields: (t) => Object.fromEntries(Object.entries(keys).map(([field, key]) => [field, t.int({ resolve: (c) => c[key] ?? 0 })])),
  });
const Status = builder.objectRef<Json>('Status').implement({
  fields: (t) => ({
    status: t.exposeString('status'),
    serverVersion: t.exposeString('server_version'),
    chainTip: t.field({
      type: builder.objectRef<Json>('ChainTip').implement({
        fields: (c) => ({
          blockHeight: c.exposeInt('block_height'),
          indexBlockHash: c.string({ nullable: true, resolve: (tip) => tip.index_block_hash ?? null }),
        }),
      }),
      nullable: true,
      resolve: (s) => s.chain_tip ?? null,
    }),
    tokens: t.field({
      type: Counts('TokenCounts', { ft: 'ft', nft: 'nft', sft: 'sft' }),
      nullable: true,
      resolve: (s) => s.tokens ?? null,
    }),
    tokenContracts: t.field({
      type: Counts('TokenContractCounts', { sip009: 'sip-009', sip010: 'sip-010', sip013: 'sip-013' }),
      nullable: true,
      resolve: (s) => s.token_contracts ?? null,
    }),
    jobQueue: t.field({
      type: Counts('JobQueueCounts', { pending: 'pending', queued: 'queued', done: 'done', failed: 'failed', invalid: 'invalid' }),
      nullable: true,
      resolve: (s) => s.job_queue ?? null,
    }),
  }),
});

const Edge = builder.objectRef<Json>('RuneEtchingEdge').implement({
  fields: (t) => ({ cursor: t.exposeString('cursor'), node: t.field({ type: Etching, resolve: (e) => e.node }) }),
});
const PageInfo = builder.objectRef<Json>('PageInfo').implement({
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage'),
    endCursor: t.string({ nullable: true, resolve: (p) => p.endCursor ?? null }),
  }),
});
const EtchingConnection = builder.objectRef<Json>('RuneEtchingConnection').implement({
  fields: (t) => ({
    totalCount: t.exposeInt('totalCount'),
    edges: t.field({ type: [Edge], resolve: (c) => c.edges }),
    pageInfo: t.field({ type: PageInfo, resolve: (c) => c.pageInfo }),
  }),
});

const cursor = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64');

builder.queryType({
  fields: (t) => ({
    status: t.field({ type: Status, nullable: true, resolve: (_root, _args, ctx) => ctx.get('/metadata/v1') }),
    brc20Token: t.field({
      type: TokenDetails,
      nullable: true,
      args: { ticker: t.arg.string({ required: true }) },
      resolve: (_root, { ticker }, ctx) => ctx.get(`/ordinals/v1/brc-20/tokens/${encodeURIComponent(ticker)}`),
    }),
    etchings: t.field({
      type: EtchingPage,
      nullable: true,
      args: { offset: t.arg.int({ defaultValue: 0 }), limit: t.arg.int({ defaultValue: 20 }) },
      resolve: (_root, { offset, limit }, ctx) => ctx.get(`/runes/v1/etchings?offset=${offset ?? 0}&limit=${limit ?? 20}`),
    }),
    transfers: t.field({
      type: TransferPage,
      nullable: true,
      args: { block: t.arg.id({ required: true }), offset: t.arg.int({ defaultValue: 0 }), limit: t.arg.int({ defaultValue: 20 }) },
      resolve: (_root, { block, offset, limit }, ctx) =>
        ctx.get(
          `/ordinals/v1/inscriptions/transfers?block=${encodeURIComponent(String(block))}&offset=${offset ?? 0}&limit=${limit ?? 20}`,
        ),
    }),
    // A Relay window read page by page (60 items per upstream call), as a tutorial would.
    etchingsConnection: t.field({
      type: EtchingConnection,
      nullable: true,
      args: { first: t.arg.int({ required: true }) },
      resolve: async (_root, { first }, ctx) => {
        const edges: Json[] = [];
        let total = 0;
        for (let offset = 0; offset < first; offset += 60) {
          const limit = Math.min(60, first - offset);
          const result = await ctx.get(`/runes/v1/etchings?offset=${offset}&limit=${limit}`);
          total = result?.total ?? 0;
          const items = (result?.results ?? []) as Json[];
          items.forEach((node, i) => edges.push({ cursor: cursor(offset + i), node }));
          if (items.length < limit) break;
        }
        return { totalCount: total, edges, pageInfo: { hasNextPage: edges.length < total, endCursor: edges.at(-1)?.cursor } };
      },
    }),
  }),
});

const plainContext: PeerContext = { get };
/** A DataLoader per request: paths asked twice in one request (aliases) are one upstream call. */
const loaderContext = (): PeerContext => {
  const loader = new DataLoader<string, Json | null>((paths) => Promise.all(paths.map(get)));
  return { get: (path) => loader.load(path) };
};

const yoga = createYoga<object, PeerContext>({
  schema: builder.toSchema(),
  logging: false,
  landingPage: false,
  graphiql: false,
  context: kind === 'plain' ? () => plainContext : loaderContext,
  // Every answer public (no session), kept 1 s; no cache metadata in the answers, so that a hit and a miss are the same bytes.
  plugins: kind === 'yoga-rc' ? [useResponseCache({ session: () => null, ttl: 1_000, includeExtensionMetadata: false })] : [],
});
const server = createServer(yoga);

serveChild(server, 'peer');
