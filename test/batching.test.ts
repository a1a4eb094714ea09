// Per-request DataLoader batching, read from the sample upstream's request log: identical lookups in
// one GraphQL request make one upstream call; separate requests never share a loader.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { sampleData, type Brc20TokenDetails } from '../src/sample/data.js';
import { startStack, type Stack } from './harness.js';
import {
  BRC20_FIELDS,
  ETCHING_PAGE_FIELDS,
  STATUS_FIELDS,
  TRANSFER_PAGE_FIELDS,
  callsOf,
  toBrc20,
  toEtching,
  toStatus,
  toTransfer,
} from './support.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());
beforeEach(() => stack.sample.clearLog());

function token(ticker: string): Brc20TokenDetails {
  const found = sampleData.brc20Tokens.find((t) => t.token.ticker === ticker);
  if (!found) throw new Error(`no sample token ${ticker}`);
  return found;
}

/** ORDI, ordi, Ordi, oRdI */
function caseVariants(ticker: string): string[] {
  const alternating = [...ticker].map((c, i) => (i % 2 === 1 ? c.toUpperCase() : c.toLowerCase())).join('');
  return [ticker.toUpperCase(), ticker.toLowerCase(), ticker[0]!.toUpperCase() + ticker.slice(1), alternating];
}

const transfersPage = (height: number, offset: number, limit: number) => {
  const transfers = sampleData.transferBlocks.find((b) => b.height === height)!.transfers;
  const results = [...transfers].reverse().slice(offset, offset + limit);
  return { limit, offset, total: results.length > 0 ? transfers.length : 0, results: results.map(toTransfer) };
};

const etchingsPage = (offset: number, limit: number) => ({
  limit,
  offset,
  total: sampleData.etchingsTotal,
  results: sampleData.etchings.slice(offset, offset + limit).map(toEtching),
});

it('20 aliases of one ticker make exactly 1 upstream call', async () => {
  const aliases = Array.from({ length: 20 }, (_, i) => `t${i}: brc20Token(ticker: "ordi") { ${BRC20_FIELDS} }`);
  const { body } = await stack.graphql(`{ ${aliases.join('\n')} }`);
  const expected = toBrc20(token('ordi'));
  expect(body).toEqual({ data: Object.fromEntries(aliases.map((_, i) => [`t${i}`, expected])) });
  expect(callsOf(stack.sample)).toEqual([{ method: 'GET', path: '/ordinals/v1/brc-20/tokens/ordi', query: {} }]);
});

it('5 distinct tickers x 4 case variants make exactly 5 upstream calls', async () => {
  const tickers = ['ordi', 'pepe', 'sats', 'rats', 'trac'];
  const aliases = tickers.flatMap((ticker) =>
    caseVariants(ticker).map((variant, i) => ({ alias: `${ticker}${i}`, ticker, variant })),
  );
  expect(new Set(aliases.map((a) => a.variant)).size).toBe(20);
  const { body } = await stack.graphql(
    `{ ${aliases.map((a) => `${a.alias}: brc20Token(ticker: "${a.variant}") { ${BRC20_FIELDS} }`).join('\n')} }`,
  );
  expect(body).toEqual({ data: Object.fromEntries(aliases.map((a) => [a.alias, toBrc20(token(a.ticker))])) });
  const calls = callsOf(stack.sample);
  expect(calls).toHaveLength(5);
  // Whichever variant went out, each ticker was asked for once.
  expect(calls.map((c) => `${c.method} ${c.path.toLowerCase()}`).sort()).toEqual(
    tickers.map((t) => `GET /ordinals/v1/brc-20/tokens/${t}`).sort(),
  );
});

it('identical transfers arguments aliased make 1 call', async () => {
  const { body } = await stack.graphql(`{
    a: transfers(block: 800000, offset: 2, limit: 5) { ${TRANSFER_PAGE_FIELDS} }
    b: transfers(block: 800000, offset: 2, limit: 5) { ${TRANSFER_PAGE_FIELDS} }
    c: transfers(limit: 5, block: 800000, offset: 2) { ${TRANSFER_PAGE_FIELDS} }
  }`);
  const expected = transfersPage(800000, 2, 5);
  expect(body).toEqual({ data: { a: expected, b: expected, c: expected } });
  expect(callsOf(stack.sample)).toEqual([
    { method: 'GET', path: '/ordinals/v1/inscriptions/transfers', query: { block: '800000', offset: '2', limit: '5' } },
  ]);
});

it('identical etchings arguments aliased make 1 call (explicit defaults included)', async () => {
  const { body } = await stack.graphql(`{
    a: etchings { ${ETCHING_PAGE_FIELDS} }
    b: etchings(offset: 0, limit: 20) { ${ETCHING_PAGE_FIELDS} }
    c: etchings(limit: 20) { ${ETCHING_PAGE_FIELDS} }
  }`);
  const expected = etchingsPage(0, 20);
  expect(body).toEqual({ data: { a: expected, b: expected, c: expected } });
  expect(callsOf(stack.sample)).toEqual([
    { method: 'GET', path: '/runes/v1/etchings', query: { offset: '0', limit: '20' } },
  ]);
});

it('different page arguments make one call each', async () => {
  const { body } = await stack.graphql(`{
    a: etchings(limit: 2) { ${ETCHING_PAGE_FIELDS} }
    b: etchings(limit: 3) { ${ETCHING_PAGE_FIELDS} }
    c: etchings(limit: 2) { ${ETCHING_PAGE_FIELDS} }
    d: transfers(block: 800000, limit: 2) { ${TRANSFER_PAGE_FIELDS} }
    e: transfers(block: 800000, limit: 2, offset: 1) { ${TRANSFER_PAGE_FIELDS} }
  }`);
  expect(body).toEqual({
    data: {
      a: etchingsPage(0, 2),
      b: etchingsPage(0, 3),
      c: etchingsPage(0, 2),
      d: transfersPage(800000, 0, 2),
      e: transfersPage(800000, 1, 2),
    },
  });
  const calls = callsOf(stack.sample).map((c) => `${c.path}?${new URLSearchParams(Object.entries(c.query).sort()).toString()}`);
  expect(calls.sort()).toEqual(
    [
      '/runes/v1/etchings?limit=2&offset=0',
      '/runes/v1/etchings?limit=3&offset=0',
      '/ordinals/v1/inscriptions/transfers?block=800000&limit=2&offset=0',
      '/ordinals/v1/inscriptions/transfers?block=800000&limit=2&offset=1',
    ].sort(),
  );
});

it('status asked three times in one request makes 1 call', async () => {
  const { body } = await stack.graphql(`{ a: status { ${STATUS_FIELDS} } b: status { status } c: status { ${STATUS_FIELDS} } }`);
  const expected = toStatus(sampleData.statusV1);
  expect(body).toEqual({ data: { a: expected, b: { status: expected.status }, c: expected } });
  expect(callsOf(stack.sample)).toEqual([{ method: 'GET', path: '/metadata/v1', query: {} }]);
});

it('loaders are per request: two HTTP requests make separate calls', async () => {
  const query = `{ x: brc20Token(ticker: "ordi") { ${BRC20_FIELDS} } y: brc20Token(ticker: "ORDI") { ${BRC20_FIELDS} }
    e: etchings(limit: 1) { ${ETCHING_PAGE_FIELDS} } }`;
  const expected = { data: { x: toBrc20(token('ordi')), y: toBrc20(token('ordi')), e: etchingsPage(0, 1) } };

  const first = await stack.graphql(query);
  expect(first.body).toEqual(expected);
  const afterFirst = callsOf(stack.sample);
  expect(afterFirst.map((c) => c.path.toLowerCase()).sort()).toEqual(['/ordinals/v1/brc-20/tokens/ordi', '/runes/v1/etchings']);

  const second = await stack.graphql(query);
  expect(second.body).toEqual(expected);
  const all = callsOf(stack.sample);
  expect(all).toHaveLength(4);
  expect(all.slice(2).map((c) => c.path.toLowerCase()).sort()).toEqual(['/ordinals/v1/brc-20/tokens/ordi', '/runes/v1/etchings']);
});

// ---- many tickers, no holder counts: the list endpoint's ticker filter ----

const NO_HOLDERS = 'token { ticker maxSupply mintLimit txCount } supply { maxSupply mintedSupply }';
const summaryOf = (t: Brc20TokenDetails) => ({
  token: { ticker: t.token.ticker, maxSupply: t.token.max_supply, mintLimit: t.token.mint_limit, txCount: t.token.tx_count },
  supply: { maxSupply: t.supply.max_supply, mintedSupply: t.supply.minted_supply },
});
const listCall = (tickers: string[]) =>
  `GET /ordinals/v1/brc-20/tokens?${tickers.map((t) => `ticker=${encodeURIComponent(t).replace(/%20/g, '+')}`).join('&')}&offset=0&limit=60`;

it('20 distinct tickers without holders: one upstream call through the list filter, exact matches only', async () => {
  const tickers = sampleData.brc20Tokens.slice(0, 20).map((t) => t.token.ticker);
  const query = `{ ${tickers.map((t, i) => `t${i}: brc20Token(ticker: ${JSON.stringify(t.toUpperCase())}) { ${NO_HOLDERS} }`).join(' ')} }`;
  const { body } = await stack.graphql(query);
  expect(body).toEqual({
    data: Object.fromEntries(tickers.map((t, i) => [`t${i}`, summaryOf(token(t))])),
  });
  expect(stack.upstreamCalls()).toEqual([listCall(tickers.map(normalizeAscii))]);
});

it('asking for holders uses the detail route, one call per ticker', async () => {
  const tickers = sampleData.brc20Tokens.slice(0, 5).map((t) => t.token.ticker);
  await stack.graphql(`{ ${tickers.map((t, i) => `t${i}: brc20Token(ticker: ${JSON.stringify(t)}) { supply { holders } }`).join(' ')} }`);
  expect(stack.upstreamCalls()).toHaveLength(5);
  expect(stack.upstreamCalls().every((call) => call.startsWith('GET /ordinals/v1/brc-20/tokens/'))).toBe(true);
});

it('an unknown ASCII ticker is null from a complete list answer; wildcard tickers match only themselves', async () => {
  const { body } = await stack.graphql(
    `{ none: brc20Token(ticker: "zz_nope") { ${NO_HOLDERS} } pct: brc20Token(ticker: "x%y") { ${NO_HOLDERS} } sp: brc20Token(ticker: "a b") { ${NO_HOLDERS} } }`,
  );
  expect(body).toEqual({ data: { none: null, pct: summaryOf(token('x%y')), sp: summaryOf(token('a b')) } });
  expect(stack.upstreamCalls()).toEqual([listCall(['zz_nope', 'x%y', 'a b'])]);
});

it('a truncated list answer falls back to the detail route for the tickers it did not settle', async () => {
  const ordi = token('ordi');
  stack.sample.inject({
    path: '/ordinals/v1/brc-20/tokens',
    times: 1,
    status: 200,
    // More matches than one page holds, and ordi's exact match not among them.
    body: { limit: 60, offset: 0, total: 61, results: [token('pepe').token] },
  });
  const { body } = await stack.graphql(`{ a: brc20Token(ticker: "ordi") { ${NO_HOLDERS} } b: brc20Token(ticker: "pepe") { ${NO_HOLDERS} } }`);
  expect(body).toEqual({ data: { a: summaryOf(ordi), b: summaryOf(token('pepe')) } });
  expect(stack.upstreamCalls()).toEqual([listCall(['ordi', 'pepe']), 'GET /ordinals/v1/brc-20/tokens/ordi']);
});

it('more than 20 tickers make one list call per 20', async () => {
  const tickers = sampleData.brc20Tokens.slice(0, 30).map((t) => t.token.ticker);
  await stack.graphql(`{ ${tickers.map((t, i) => `t${i}: brc20Token(ticker: ${JSON.stringify(t)}) { token { ticker } }`).join(' ')} }`);
  expect(stack.upstreamCalls()).toEqual([listCall(tickers.slice(0, 20)), listCall(tickers.slice(20))]);
});

function normalizeAscii(ticker: string): string {
  return ticker.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}
