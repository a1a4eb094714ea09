/** The workloads' GraphQL documents and REST paths. */
import { BIG_TRANSFER_BLOCK, sampleData } from '../../src/sample/data.js';

export const TICKERS = sampleData.brc20Tokens.map((t) => t.token.ticker);
/** The first 20 tickers (all plain ASCII). */
export const TICKERS_20 = TICKERS.slice(0, 20);
export const TICKERS_5 = TICKERS.slice(0, 5);
/** Never asked by any other workload: fresh keys for the coalescing checks. */
export const FRESH_TICKERS = [TICKERS[25] ?? 'punk', TICKERS[26] ?? 'turt'] as const;

const BRC20 = `token { id number blockHeight txId address ticker maxSupply mintLimit decimals deployTimestamp mintedSupply txCount selfMint }
    supply { holders maxSupply mintedSupply }`;

const LOCATION = 'blockHeight blockHash address txId location output value offset timestamp';
const TRANSFERS_PAGE = `limit offset total results { id number from { ${LOCATION} } to { ${LOCATION} } }`;

const ETCHINGS_PAGE = `limit offset total results {
    id name spacedName number divisibility symbol turbo
    mintTerms { amount cap heightStart heightEnd offsetStart offsetEnd }
    supply { current minted totalMints mintPercentage mintable burned totalBurns premine }
    location { blockHash blockHeight txId txIndex vout output timestamp }
  }`;

const STATUS = `status serverVersion chainTip { blockHeight indexBlockHash } tokens { ft nft sft }
    tokenContracts { sip009 sip010 sip013 } jobQueue { pending queued done failed invalid }`;

export const quote = (text: string) => JSON.stringify(text);

export function brc20Query(ticker: string): string {
  return `query W1 { brc20Token(ticker: ${quote(ticker)}) { ${BRC20} } }`;
}

/** Every field but `supply.holders`: answered through the token list's ticker filter. */
const BRC20_NO_HOLDERS = BRC20.replace('holders ', '');

/** 20 aliased brc20Token fields, cycling over `tickers`. */
export function aliasedBrc20Query(tickers: readonly string[], count = 20, holders = true): string {
  const fields = Array.from(
    { length: count },
    (_, i) => `t${i}: brc20Token(ticker: ${quote(tickers[i % tickers.length] ?? 'ordi')}) { ${holders ? BRC20 : BRC20_NO_HOLDERS} }`,
  );
  return `query Many {\n  ${fields.join('\n  ')}\n}`;
}

export const ETCHINGS_60 = `query W3 { etchings(limit: 60) { ${ETCHINGS_PAGE} } }`;
export const TRANSFERS_60 = `query W4 { transfers(block: ${BIG_TRANSFER_BLOCK}, limit: 60) { ${TRANSFERS_PAGE} } }`;
export const EVERYTHING = `query W5 {
  status { ${STATUS} }
  brc20Token(ticker: "ordi") { ${BRC20} }
  transfers(block: ${BIG_TRANSFER_BLOCK}, limit: 20) { ${TRANSFERS_PAGE} }
  etchings(limit: 20) { ${ETCHINGS_PAGE} }
}`;

/** A 500-item Relay window: 9 upstream pages of 60 (the sample is given 250 more etchings first). */
export const CONNECTION_500 = `query C1 { etchingsConnection(first: 500) {
  totalCount edges { cursor node { ${ETCHINGS_PAGE.replace(/^limit offset total results \{/, '').replace(/\}\s*$/, '')} } }
  pageInfo { hasNextPage endCursor } } }`;

export const restToken = (ticker: string) => `/ordinals/v1/brc-20/tokens/${encodeURIComponent(ticker)}`;
export const REST_TRANSFERS = `/ordinals/v1/inscriptions/transfers?block=${BIG_TRANSFER_BLOCK}&limit=60`;
export const REST_ETCHINGS = '/runes/v1/etchings?limit=60';
export const REST_STATUS = '/metadata/v1';

/** W6's 500 tickers: the sample's, then generated ones the bench's sample serves too (bench/sample-process.ts). */
export const GENERATED_TICKERS = Array.from({ length: 500 - TICKERS.length }, (_, i) => `g${i.toString(36).padStart(3, '0')}`);
export const TICKERS_500 = [...TICKERS, ...GENERATED_TICKERS];

/** W6: one token, the ticker a variable. */
const TOKEN_BY_VARIABLE = `query W6($ticker: String!) { brc20Token(ticker: $ticker) { ${BRC20} } }`;
export const tokenByVariable = (ticker: string) => JSON.stringify({ query: TOKEN_BY_VARIABLE, variables: { ticker } });
/** W6-literal: the same, the ticker written in the document (a distinct document per ticker). */
export const tokenByLiteral = (ticker: string) => graphqlBody(`query W6 { brc20Token(ticker: ${quote(ticker)}) { ${BRC20} } }`);

/** W7 and W8: a 60-etching page at an offset given as a variable. */
export const ETCHINGS_AT = `query W7($offset: Int!) { etchings(offset: $offset, limit: 60) { ${ETCHINGS_PAGE} } }`;
export const etchingsAt = (offset: number) => JSON.stringify({ query: ETCHINGS_AT, variables: { offset } });
/** The etchings W7 and W8 read: 10,000, so that offset 9,940 is a full page (the sample has 302 + 250 for C1). */
export const BENCH_ETCHINGS = 10_000;
/** W7: 151 pages (offsets 0, 60, …, 9,000). */
export const W7_OFFSETS = Array.from({ length: 151 }, (_, i) => i * 60);
/** W8: every offset 0..9,940: more keys than req/s × 1 s of freshness, so every request misses every cache. */
export const W8_OFFSETS = Array.from({ length: BENCH_ETCHINGS - 59 }, (_, i) => i);

export function graphqlBody(query: string): string {
  return JSON.stringify({ query });
}

/**
 * Bodies with a variable the operation does not declare, a new value each call: GraphQL ignores it,
 * so the answer and the upstream calls are the same, but no two requests share a response-cache key.
 */
export function distinctBody(query: string): () => string {
  let nonce = 0;
  return () => JSON.stringify({ query, variables: { nonce: nonce++ } });
}
