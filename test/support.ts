/**
 * Shared helpers of the GraphQL test suites: selection sets, the explicit snake_case → camelCase
 * mapping from the upstream's bodies (sampleData, example JSON) to the GraphQL answers, and
 * readers of the sample upstream's request log. Nothing here calls gateway code.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import WebSocket from 'ws';
import {
  findTransferBlock,
  type BlockTransfer,
  type Brc20TokenDetails,
  type Etching,
  type InscriptionLocation,
} from '../src/sample/data.js';
import type { SampleUpstream } from '../src/sample/server.js';
import type { ApiStatusResponse } from '../src/upstream/types.js';

// ---------- example files ----------

/** An upstream example body, as checked in next to the sample upstream. */
export function example<T = unknown>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../src/sample/data/${name}.json`, import.meta.url), 'utf8')) as T;
}

// ---------- selection sets (every field of each type) ----------

export const STATUS_FIELDS = `serverVersion status chainTip { blockHeight indexBlockHash }
  tokens { ft nft sft } tokenContracts { sip009 sip010 sip013 } jobQueue { pending queued done failed invalid }`;

export const BRC20_FIELDS = `token { id inscriptionId number blockHeight txId address ticker maxSupply mintLimit decimals
  deployTimestamp mintedSupply txCount selfMint } supply { maxSupply mintedSupply holders }`;

const LOCATION_FIELDS = 'blockHeight blockHash address txId location output value offset timestamp';
export const TRANSFER_PAGE_FIELDS = `limit offset total results { id inscriptionId number from { ${LOCATION_FIELDS} } to { ${LOCATION_FIELDS} } }`;

export const ETCHING_FIELDS = `id runeId name spacedName number divisibility symbol turbo
  mintTerms { amount cap heightStart heightEnd offsetStart offsetEnd }
  supply { current minted totalMints mintPercentage mintable burned totalBurns premine }
  location { blockHash blockHeight txId txIndex vout output timestamp }`;
export const ETCHING_PAGE_FIELDS = `limit offset total results { ${ETCHING_FIELDS} }`;

// ---------- global ids ----------

/** A global id as the contract fixes it: the base64url of `<Type>:<local id>` (written out here, not imported). */
export function globalId(type: 'Brc20Token' | 'Brc20TokenDetails' | 'InscriptionTransfer' | 'RuneEtching', local: string): string {
  return Buffer.from(`${type}:${local}`, 'utf8').toString('base64url');
}

/** A transfer's offset in its block's newest-first list, as the sample serves it. */
export function transferOffset(t: BlockTransfer): number {
  // The same inscription can move twice in a block: its destination tells the two apart.
  const same = (x: BlockTransfer) => x.id === t.id && x.to.tx_id === t.to.tx_id && x.to.location === t.to.location;
  const transfers = findTransferBlock(String(t.to.block_height))?.transfers ?? [];
  const position = transfers.findIndex(same);
  if (position < 0) throw new Error(`transfer ${t.id} is not one of the sample's`);
  return transfers.length - 1 - position;
}

export const transferId = (t: BlockTransfer): string =>
  globalId('InscriptionTransfer', `${t.to.block_height}:${transferOffset(t)}:${t.id}`);

// ---------- upstream (snake_case) → GraphQL (camelCase) ----------

export type UpstreamStatus = ApiStatusResponse;

/** Counts the upstream leaves out are 0; count objects it leaves out are null. */
export function toStatus(s: UpstreamStatus) {
  return {
    serverVersion: s.server_version,
    status: s.status,
    chainTip: s.chain_tip ? { blockHeight: s.chain_tip.block_height, indexBlockHash: s.chain_tip.index_block_hash ?? null } : null,
    tokens: s.tokens ? { ft: s.tokens.ft ?? 0, nft: s.tokens.nft ?? 0, sft: s.tokens.sft ?? 0 } : null,
    tokenContracts: s.token_contracts
      ? {
          sip009: s.token_contracts['sip-009'] ?? 0,
          sip010: s.token_contracts['sip-010'] ?? 0,
          sip013: s.token_contracts['sip-013'] ?? 0,
        }
      : null,
    jobQueue: s.job_queue
      ? {
          pending: s.job_queue.pending ?? 0,
          queued: s.job_queue.queued ?? 0,
          done: s.job_queue.done ?? 0,
          failed: s.job_queue.failed ?? 0,
          invalid: s.job_queue.invalid ?? 0,
        }
      : null,
  };
}

export function toBrc20(d: Brc20TokenDetails) {
  const t = d.token;
  return {
    token: {
      id: globalId('Brc20Token', t.ticker),
      inscriptionId: t.id,
      number: t.number,
      blockHeight: t.block_height,
      txId: t.tx_id,
      address: t.address,
      ticker: t.ticker,
      maxSupply: t.max_supply,
      mintLimit: t.mint_limit,
      decimals: t.decimals,
      deployTimestamp: t.deploy_timestamp, // already ms in the ordinals API
      mintedSupply: t.minted_supply,
      txCount: t.tx_count,
      selfMint: t.self_mint,
    },
    supply: { maxSupply: d.supply.max_supply, mintedSupply: d.supply.minted_supply, holders: d.supply.holders },
  };
}

export function toLocation(l: InscriptionLocation) {
  return {
    blockHeight: l.block_height,
    blockHash: l.block_hash,
    address: l.address,
    txId: l.tx_id,
    location: l.location,
    output: l.output,
    value: l.value,
    offset: l.offset,
    timestamp: l.timestamp, // already ms in the ordinals API
  };
}

export function toTransfer(t: BlockTransfer) {
  return { id: transferId(t), inscriptionId: t.id, number: t.number, from: toLocation(t.from), to: toLocation(t.to) };
}

export function toEtching(e: Etching) {
  return {
    id: globalId('RuneEtching', e.id),
    runeId: e.id,
    name: e.name,
    spacedName: e.spaced_name,
    number: e.number,
    divisibility: e.divisibility,
    symbol: e.symbol,
    turbo: e.turbo,
    mintTerms: {
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
      vout: null, // absent in etching responses
      output: null,
      timestamp: e.location.timestamp * 1000, // the runes API answers seconds
    },
  };
}

export function toPage<T, U>(page: { limit: number; offset: number; total: number; results: T[] }, map: (item: T) => U) {
  return { limit: page.limit, offset: page.offset, total: page.total, results: page.results.map(map) };
}

// ---------- the sample upstream's request log ----------

export interface UpstreamCall {
  method: string;
  /** Raw path, still percent-encoded. */
  path: string;
  /** The decoded query parameters. */
  query: Record<string, string>;
}

/**
 * UniSat's height routes (src/sources/unisat/heights.ts): each is asked at most every 30 s per
 * process, so whether a request's log holds one depends on what ran before it. The logs below leave
 * them out; test/sources/unisat-heights.test.ts counts them.
 */
const UNISAT_HEIGHT_PATHS = new Set(['/v1/indexer/brc20/bestheight', '/v1/indexer/runes/status', '/v1/indexer/blockchain/info']);

/** The logged requests but UniSat's height asks (see above). */
export function dataRequests(sample: SampleUpstream): SampleUpstream['requests'] {
  return sample.requests.filter((r) => !UNISAT_HEIGHT_PATHS.has(r.path));
}

/** The logged requests (but UniSat's height asks) with their query parsed, so parameter order does not matter. */
export function callsOf(sample: SampleUpstream): UpstreamCall[] {
  return dataRequests(sample).map((r) => {
    const q = r.url.indexOf('?');
    return {
      method: r.method,
      path: r.path,
      query: Object.fromEntries(new URLSearchParams(q === -1 ? '' : r.url.slice(q + 1))),
    };
  });
}

/** Percent-escapes with uppercase hex digits, so `%f0` and `%F0` compare equal. */
export function normalizeEscapes(path: string): string {
  return path.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
}

// ---------- GraphQL errors ----------

/** A whole GraphQL field error: any message and locations, the exact path and extensions. */
export function fieldError(path: Array<string | number>, extensions: Record<string, unknown>) {
  return { message: expect.any(String), locations: expect.any(Array), path, extensions };
}

/** Fails when any of `secrets` (or a stack trace) appears in `text`. */
export function expectNoSecrets(text: string, secrets: readonly string[]): void {
  for (const secret of secrets) {
    expect(text.includes(secret), `leaked ${JSON.stringify(secret)}`).toBe(false);
  }
}

/** A V8 stack frame: `at fn (file:line:col)` or `at file:line:col`. */
export const STACK_FRAME = /\bat [^\s"]*\s*\(?[^\s"()]+:\d+:\d+\)?/;

/** One operation over graphql-ws (raw frames): the payload of its first `next` or `error` message. */
export async function overWebSocket(
  gatewayUrl: string,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
  /** connection_init's payload, as a browser's graphql-ws client sends its connectionParams. */
  connectionParams?: Record<string, unknown>,
): Promise<unknown> {
  const socket = new WebSocket(`${gatewayUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers });
  try {
    const messages: Array<{ type: string; id?: string; payload?: unknown }> = [];
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString()) as (typeof messages)[number]));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ type: 'connection_init', ...(connectionParams ? { payload: connectionParams } : {}) }));
    let subscribed = false;
    for (let waited = 0; waited < 5000; waited += 10) {
      if (!subscribed && messages.some((m) => m.type === 'connection_ack')) {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload }));
        subscribed = true;
      }
      const answer = messages.find((m) => m.id === '1' && (m.type === 'next' || m.type === 'error'));
      if (answer) return answer.type === 'next' ? answer.payload : { errors: answer.payload };
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no answer over graphql-ws: ${JSON.stringify(messages)}`);
  } finally {
    socket.close();
  }
}

/**
 * The access log's GraphQL requests (`logs`: a stack's log lines) from line `from` on, only those
 * named `operationName` when it is given: method and status.
 */
export function graphqlRequestsLogged(
  logs: readonly string[],
  from: number,
  operationName?: string,
): Array<{ method: string; status: number }> {
  return logs
    .slice(from)
    .map((line) => JSON.parse(line) as { msg: string; path?: string; operationName?: string; method: string; status: number })
    .filter(
      (line) => line.msg === 'request' && line.path === '/graphql' && (operationName === undefined || line.operationName === operationName),
    )
    .map(({ method, status }) => ({ method, status }));
}

/** An ETag satgate makes from an answer's bytes (http/etag.ts etagOf): a quoted SHA-1, base64url. */
export const BYTES_ETAG = /^"[\w-]{27}"$/;
