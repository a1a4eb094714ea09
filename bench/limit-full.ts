/**
 * The full-path floor (`limit-full`): what a W8 request costs in Node with no GraphQL at all. A plain
 * node:http server that reads the body, takes `variables.offset`, asks the upstream's 60-etching page
 * at that offset over a keep-alive undici Pool, parses it, maps it by hand to the fields W8's document
 * selects and writes the answer serialised. No shape check, cache, limit or log: the least any
 * server answering W8 from the upstream does, so the part of a W8 request that no server can cut.
 * Written independently of satgate's code. Forked by bench/run.ts with SAMPLE_URL and PORT; reports
 * its url over IPC. A body that is not W8's document is a 404.
 */
import { createServer } from 'node:http';
import { Pool } from 'undici';
import { serveChild } from './lib/child-server.js';
import { ETCHINGS_AT } from './lib/queries.js';

const target = process.env.SAMPLE_URL;
if (!target) throw new Error('limit-full: SAMPLE_URL is required');
const pool = new Pool(target, { connections: 64, pipelining: 1, keepAliveTimeout: 4_000 });

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The page in the order and names of W8's selection (bench/lib/queries.ts). */
const answer = (page: Json) => ({
  data: {
    etchings: {
      limit: page.limit,
      offset: page.offset,
      total: page.total,
      results: page.results.map((e: Json) => ({
        id: e.id,
        name: e.name,
        spacedName: e.spaced_name,
        number: e.number,
        divisibility: e.divisibility,
        symbol: e.symbol,
        turbo: e.turbo,
        mintTerms: e.mint_terms && {
          amount: e.mint_terms.amount,
          cap: e.mint_terms.cap,
          heightStart: e.mint_terms.height_start,
          heightEnd: e.mint_terms.height_end,
          offsetStart: e.mint_terms.offset_start,
          offsetEnd: e.mint_terms.offset_end,
        },
        supply: {
          current: e.supply.current,
          minted: e.supply.minted,
          totalMints: e.supply.total_mints,
          mintPercentage: e.supply.mint_percentage,
          mintable: e.supply.mintable,
          burned: e.supply.burned,
          totalBurns: e.supply.total_burns,
          premine: e.supply.premine,
        },
        location: {
          blockHash: e.location.block_hash,
          blockHeight: e.location.block_height,
          txId: e.location.tx_id,
          txIndex: e.location.tx_index,
          vout: e.location.vout ?? null,
          output: e.location.output ?? null,
          timestamp: e.location.timestamp * 1000, // the runes API answers seconds, the schema milliseconds
        },
      })),
    },
  },
});

async function answerFor(body: string): Promise<Buffer | undefined> {
  const request = JSON.parse(body) as { query?: unknown; variables?: { offset?: unknown } };
  const offset = request.variables?.offset;
  if (request.query !== ETCHINGS_AT || !Number.isSafeInteger(offset)) return undefined;
  const response = await pool.request({
    method: 'GET',
    path: `/runes/v1/etchings?offset=${offset}&limit=60`,
    headers: { accept: 'application/json' },
  });
  const bytes = Buffer.from(await response.body.arrayBuffer());
  if (response.statusCode !== 200) throw new Error(`upstream ${response.statusCode}`);
  return Buffer.from(JSON.stringify(answer(JSON.parse(bytes.toString('utf8')))));
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    answerFor(Buffer.concat(chunks).toString()).then(
      (bytes) => {
        if (!bytes) {
          res.writeHead(404, { 'content-length': 0 });
          res.end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
        res.end(bytes);
      },
      () => {
        res.writeHead(502, { 'content-length': 0 });
        res.end();
      },
    );
  });
});

serveChild(server, 'limit-full', () => pool.close());
