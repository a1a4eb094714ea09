// UniSat's open API as the sample plays it (unisat-wallet/unisat-dev-docs
// open-api/swagger-source/{brc20,inscription,runes,blockchain}-indexer.yaml): every answer is the
// `{ code, msg, data }` envelope on HTTP 200, errors being `code: -1`; a wrong Bearer key is a 401.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { blockTime } from './data.js';
import { hex } from './util.js';
import type { SampleActivity } from './activity.js';
import { blockHash, brc20TickerCount, findUnisatBrc20, UNISAT_TIP, unisatEvents, unisatRune } from './sources-data.js';
import { mappedOnce } from './util.js';

export interface UnisatOptions {
  /** The key the sample accepts as `Authorization: Bearer <key>`; keyless calls are served too. */
  apiKey?: string;
  /** The most events one page holds, whatever `size` asks (UniSat documents no maximum). */
  eventsPageSize?: number;
}

/** The BRC-20 and runes indexes' heights (`bestheight`, `runes/status`): a block or two behind the chain. */
export const BRC20_HEIGHT = UNISAT_TIP - 1;
export const RUNES_HEIGHT = UNISAT_TIP - 2;

/** The runes list's documented bounds: `limit` 1..500. */
const RUNES_MAX_LIMIT = 500;

const ok = (data: unknown) => ({ code: 0, msg: 'OK', data });
const failure = (msg: string) => ({ code: -1, msg, data: null });

/** A non-negative integer query parameter, or undefined. */
function integer(value: unknown): number | undefined {
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** `activity`: the sample's etchings and tokens as they are now (activity.ts), new mints included. */
export const unisatApi: FastifyPluginAsync<UnisatOptions & { activity: SampleActivity }> = async (
  app,
  { apiKey, eventsPageSize = 48, activity },
) => {
  const unisatRunes = mappedOnce(unisatRune);
  const runes = () => unisatRunes(activity.etchings());
  const token = (ticker: string) => activity.findBrc20Token(ticker);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.url.startsWith('/v1/indexer/')) return;
    const authorization = request.headers.authorization;
    if (authorization !== undefined && authorization !== `Bearer ${apiKey}`) {
      return reply.code(401).type('text/plain; charset=utf-8').send('Invalid API Key');
    }
  });

  app.get('/v1/indexer/brc20/:ticker/info', async (request) => {
    const { ticker } = request.params as { ticker: string };
    const info = findUnisatBrc20(ticker, token);
    return info ? ok(info) : failure('brc20 not found');
  });

  // Each index's height: the indexes lag the chain by a block or two, as UniSat's may.
  app.get('/v1/indexer/brc20/bestheight', async () =>
    ok({ height: BRC20_HEIGHT, blockid: blockHash(BRC20_HEIGHT), timestamp: blockTime(BRC20_HEIGHT), total: brc20TickerCount }),
  );
  app.get('/v1/indexer/runes/status', async () =>
    ok({ bestHeight: RUNES_HEIGHT, runes: runes().length, minimumRune: 'AAAAAAAAAAAA', halvingBlockCount: 1_050_000 - UNISAT_TIP }),
  );
  app.get('/v1/indexer/blockchain/info', async () =>
    ok({
      chain: 'main',
      blocks: UNISAT_TIP,
      headers: UNISAT_TIP,
      bestBlockHash: blockHash(UNISAT_TIP),
      prevBlockHash: blockHash(UNISAT_TIP - 1),
      medianTime: blockTime(UNISAT_TIP) - 3000,
      chainwork: hex('unisat-chainwork', 64),
    }),
  );

  app.get('/v1/indexer/inscription/events', async (request) => {
    const q = request.query as Record<string, unknown>;
    const [start, end, cursor, size] = [q.start, q.end, q.cursor, q.size].map(integer);
    if (start === undefined || end === undefined || cursor === undefined || size === undefined) return failure('invalid params');
    // `end` is read as inclusive; 0 reaches the tip (and the mempool, which the sample has not).
    const last = end === 0 ? Infinity : end;
    const range = unisatEvents.filter((e) => e.height >= start && e.height <= last);
    const detail = range.slice(cursor, cursor + Math.min(size, eventsPageSize));
    return ok({ cursor, total: range.length, detail });
  });

  app.get('/v1/indexer/height/:height/block', async (request) => {
    const height = integer((request.params as { height: string }).height);
    if (height === undefined || height > UNISAT_TIP) return failure('block not found');
    return ok(blockInfo(height));
  });

  app.get('/v1/indexer/block/id/:blockid', async (request) => {
    const { blockid } = request.params as { blockid: string };
    const height = unisatEvents.find((e) => blockHash(e.height) === blockid)?.height;
    return height === undefined ? failure('block not found') : ok(blockInfo(height));
  });

  app.get('/v1/indexer/runes/info-list', async (request) => {
    const q = request.query as Record<string, unknown>;
    const start = integer(q.start) ?? 0;
    const limit = integer(q.limit) ?? 10;
    if (limit < 1 || limit > RUNES_MAX_LIMIT) return failure('invalid limit');
    const all = runes();
    return ok({ total: all.length, start, detail: all.slice(start, start + limit) });
  });

  // One rune by its `block:tx` id: the list's RuneEntry.
  app.get('/v1/indexer/runes/:runeid/info', async (request) => {
    const { runeid } = request.params as { runeid: string };
    if (!/^\d+:\d+$/.test(runeid)) return failure('invalid runeid');
    const entry = runes().find((rune) => rune.runeid === runeid);
    return entry ? ok(entry) : failure('rune not found');
  });
};

/** UniSat's BlockInfo (blockchain-indexer.yaml). */
function blockInfo(height: number) {
  return {
    height,
    version: '0x20000000',
    auxpow: false,
    id: blockHash(height),
    prev: blockHash(height - 1),
    next: height < UNISAT_TIP ? blockHash(height + 1) : '',
    merkle: hex(`unisat-merkle:${height}`),
    ntx: 3000,
    inSatoshi: 1_250_000_000_000,
    outSatoshi: 1_250_312_500_000,
    // The subsidy (3.125 BTC) and the fees: inputs less fees plus the coinbase make the outputs.
    coinbaseOut: 337_500_000,
    timestamp: blockTime(height),
    bits: 386_089_497,
    size: 1_500_000,
  };
}
