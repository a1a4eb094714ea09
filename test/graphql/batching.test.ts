// Per-request DataLoader batching, read from the sample upstream's request log: identical lookups in
// one GraphQL request make one upstream call; separate requests never share a loader. Lookups
// without holders go through the BRC-20 token list where the upstream serves it, and cost no more
// than one call per distinct ticker where it does not.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sampleData, type Brc20TokenDetails } from '../../src/sample/data.js';
import { BRC20_LIST_REPROBE_MS } from '../../src/upstream/ordinals.js';
import { startStack, type Stack } from '../harness.js';
import { listCall, tokenCall } from '../profiles.js';
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
} from '../support.js';

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
  const aliases = tickers.flatMap((ticker) => caseVariants(ticker).map((variant, i) => ({ alias: `${ticker}${i}`, ticker, variant })));
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
  expect(callsOf(stack.sample)).toEqual([{ method: 'GET', path: '/runes/v1/etchings', query: { offset: '0', limit: '20' } }]);
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
  expect(
    all
      .slice(2)
      .map((c) => c.path.toLowerCase())
      .sort(),
  ).toEqual(['/ordinals/v1/brc-20/tokens/ordi', '/runes/v1/etchings']);
});

// ---- many tickers, no holder counts: the list endpoint's ticker filter ----

const NO_HOLDERS = 'token { ticker maxSupply mintLimit txCount } supply { maxSupply mintedSupply }';
const summaryOf = (t: Brc20TokenDetails) => ({
  token: { ticker: t.token.ticker, maxSupply: t.token.max_supply, mintLimit: t.token.mint_limit, txCount: t.token.tx_count },
  supply: { maxSupply: t.supply.max_supply, mintedSupply: t.supply.minted_supply },
});

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
  const { body } = await stack.graphql(
    `{ a: brc20Token(ticker: "ordi") { ${NO_HOLDERS} } b: brc20Token(ticker: "pepe") { ${NO_HOLDERS} } }`,
  );
  expect(body).toEqual({ data: { a: summaryOf(ordi), b: summaryOf(token('pepe')) } });
  expect(stack.upstreamCalls()).toEqual([listCall(['ordi', 'pepe']), 'GET /ordinals/v1/brc-20/tokens/ordi']);
});

it('more than 20 tickers make one list call per 20', async () => {
  const tickers = sampleData.brc20Tokens.slice(0, 30).map((t) => t.token.ticker);
  await stack.graphql(`{ ${tickers.map((t, i) => `t${i}: brc20Token(ticker: ${JSON.stringify(t)}) { token { ticker } }`).join(' ')} }`);
  expect(stack.upstreamCalls()).toEqual([listCall(tickers.slice(0, 20)), listCall(tickers.slice(20))]);
});

it('20 aliases of 5 tickers without holders: one list call', async () => {
  const tickers = ['ordi', 'pepe', 'sats', 'rats', 'trac'];
  const aliases = tickers.flatMap((ticker) => caseVariants(ticker).map((variant, i) => ({ alias: `${ticker}${i}`, ticker, variant })));
  const { body } = await stack.graphql(
    `{ ${aliases.map((a) => `${a.alias}: brc20Token(ticker: "${a.variant}") { ${NO_HOLDERS} }`).join(' ')} }`,
  );
  expect(body).toEqual({ data: Object.fromEntries(aliases.map((a) => [a.alias, summaryOf(token(a.ticker))])) });
  expect(stack.upstreamCalls()).toEqual([listCall(tickers)]);
});

function normalizeAscii(ticker: string): string {
  return ticker.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** 20 distinct tickers without holders in one query, and the answer they must get. */
const TWENTY = sampleData.brc20Tokens.slice(0, 20).map((t) => t.token.ticker);
const TWENTY_QUERY = `{ ${TWENTY.map((t, i) => `t${i}: brc20Token(ticker: ${JSON.stringify(t)}) { ${NO_HOLDERS} }`).join(' ')} }`;
const TWENTY_DATA = { data: Object.fromEntries(TWENTY.map((t, i) => [`t${i}`, summaryOf(token(t))])) };

describe('an upstream without the token list (the documented routes only)', () => {
  let documented: Stack;
  const learn = () => documented.graphql('{ brc20Token(ticker: "ordi") { token { ticker } } }');
  beforeAll(async () => {
    // A budget of exactly 20 lookups: the probe of the missing list must not cost a ticker its answer.
    // These cases count which routes execution asks on repeated identical requests: with the
    // response fast path a repeat would revalidate its stored result's answers instead
    // (test/server/response-cache.test.ts), so it is off here.
    documented = await startStack({ MAX_UPSTREAM_CALLS_PER_REQUEST: '20', RESPONSE_CACHE: 'off' }, { profile: 'documented' });
    // The re-probe is minutes away: Date is moved forward (never back: cached answers carry times).
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  });
  afterAll(async () => {
    await documented.close();
    vi.useRealTimers();
  });
  beforeEach(() => documented.sample.clearLog());

  it("20 distinct tickers, cold: the list is asked once, then each token's own route once; later requests never ask the list", async () => {
    expect(await documented.graphql(TWENTY_QUERY)).toEqual({ status: 200, body: TWENTY_DATA });
    const cold = documented.upstreamCalls();
    expect(cold[0]).toBe(listCall(TWENTY));
    expect(cold.slice(1).sort()).toEqual(TWENTY.map(tokenCall).sort());

    documented.sample.clearLog();
    expect(await documented.graphql(TWENTY_QUERY)).toEqual({ status: 200, body: TWENTY_DATA });
    expect(documented.upstreamCalls().sort()).toEqual(TWENTY.map(tokenCall).sort());
  });

  it('20 aliases of 5 tickers: 5 calls', async () => {
    await learn();
    documented.sample.clearLog();
    const tickers = ['ordi', 'pepe', 'sats', 'rats', 'trac'];
    const aliases = tickers.flatMap((ticker) => caseVariants(ticker).map((variant, i) => ({ alias: `${ticker}${i}`, ticker, variant })));
    const { body } = await documented.graphql(
      `{ ${aliases.map((a) => `${a.alias}: brc20Token(ticker: "${a.variant}") { ${NO_HOLDERS} }`).join(' ')} }`,
    );
    expect(body).toEqual({ data: Object.fromEntries(aliases.map((a) => [a.alias, summaryOf(token(a.ticker))])) });
    expect(documented.upstreamCalls().sort()).toEqual(tickers.map(tokenCall).sort());
  });

  it(`the list is asked again after BRC20_LIST_REPROBE_MS (${BRC20_LIST_REPROBE_MS / 60_000} min), once, then left alone again`, async () => {
    const query = `{ brc20Token(ticker: "ordi") { ${NO_HOLDERS} } }`;
    const data = { data: { brc20Token: summaryOf(token('ordi')) } };
    await learn();
    documented.sample.clearLog();
    vi.setSystemTime(Date.now() + BRC20_LIST_REPROBE_MS - 5_000);
    expect((await documented.graphql(query)).body).toEqual(data);
    expect(documented.upstreamCalls()).toEqual([tokenCall('ordi')]);

    documented.sample.clearLog();
    vi.setSystemTime(Date.now() + 10_000);
    expect((await documented.graphql(query)).body).toEqual(data);
    expect((await documented.graphql(query)).body).toEqual(data);
    // Still missing: one probe, then the token route alone until the next re-probe.
    expect(documented.upstreamCalls()).toEqual([listCall(['ordi']), tokenCall('ordi'), tokenCall('ordi')]);
  });

  it('while a re-probe is in flight, other lookups do not probe too', async () => {
    const query = (ticker: string) => `{ brc20Token(ticker: "${ticker}") { ${NO_HOLDERS} } }`;
    await learn();
    vi.setSystemTime(Date.now() + BRC20_LIST_REPROBE_MS);
    documented.sample.clearLog();
    // The probe's route 404 is held back until the second lookup has been answered.
    documented.sample.inject({ path: '/ordinals/v1/brc-20/tokens', times: 1, delayMs: 500 });
    const probing = documented.graphql(query('ordi'));
    await vi.waitUntil(() => documented.sample.requests.length > 0);
    expect((await documented.graphql(query('pepe'))).body).toEqual({ data: { brc20Token: summaryOf(token('pepe')) } });
    expect(documented.upstreamCalls()).toEqual([listCall(['ordi']), tokenCall('pepe')]);
    expect((await probing).body).toEqual({ data: { brc20Token: summaryOf(token('ordi')) } });
    expect(documented.upstreamCalls()).toEqual([listCall(['ordi']), tokenCall('pepe'), tokenCall('ordi')]);
  });
});

describe("how the token list's answers are read (hiro upstream)", () => {
  let hiro: Stack;
  const query = `{ a: brc20Token(ticker: "ordi") { ${NO_HOLDERS} } b: brc20Token(ticker: "nope") { ${NO_HOLDERS} } }`;
  const data = { data: { a: summaryOf(token('ordi')), b: null } };
  const viaList = [listCall(['ordi', 'nope'])];
  const viaTokens = [tokenCall('nope'), tokenCall('ordi')];
  /** The list call, then the token routes, asked concurrently (in any order). */
  const listThenTokens = () => {
    const calls = hiro.upstreamCalls();
    return [calls[0], ...calls.slice(1).sort()];
  };
  beforeAll(async () => {
    // Repeats execute (no response fast path): the cases count the routes execution asks.
    hiro = await startStack({ RESPONSE_CACHE: 'off' });
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  });
  afterAll(async () => {
    await hiro.close();
    vi.useRealTimers();
  });
  beforeEach(() => {
    hiro.sample.reset();
    // Each case a second later: the list answer the case before stored is not younger than 1 ms
    // (a failure may be answered with a stored answer of age 0 even with STALE_IF_ERROR_MS=0).
    vi.setSystemTime(Date.now() + 1000);
  });

  const routeNotFound = { message: 'Route GET:/ordinals/v1/brc-20/tokens?ticker=ordi not found', error: 'Not Found', statusCode: 404 };
  it.each([
    ['a route 404 (Fastify)', { status: 404, body: routeNotFound }],
    ['a 404 of a proxy in front', { status: 404, body: '<html><body>404 Not Found</body></html>' }],
    ['405 Method Not Allowed', { status: 405, body: { statusCode: 405, error: 'Method Not Allowed', message: 'GET' } }],
    ['501 Not Implemented', { status: 501, body: { statusCode: 501, error: 'Not Implemented', message: 'x' } }],
    [
      'a 400 refusing the ticker filter',
      { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'querystring must NOT have additional properties' } },
    ],
  ])('%s: the list is missing, each token asks its own route, and the list is left alone until the re-probe', async (_name, fault) => {
    hiro.sample.inject({ path: '/ordinals/v1/brc-20/tokens', times: 1, ...fault });
    expect((await hiro.graphql(query)).body).toEqual(data);
    expect(listThenTokens()).toEqual([...viaList, ...viaTokens]);

    hiro.sample.clearLog();
    expect((await hiro.graphql(query)).body).toEqual(data);
    expect(hiro.upstreamCalls().sort()).toEqual(viaTokens);

    // The re-probe finds the list back: it is used again.
    vi.setSystemTime(Date.now() + BRC20_LIST_REPROBE_MS);
    hiro.sample.clearLog();
    expect((await hiro.graphql(query)).body).toEqual(data);
    expect((await hiro.graphql(query)).body).toEqual(data);
    expect(hiro.upstreamCalls()).toEqual([...viaList, ...viaList]);
  });

  it.each([
    ['a 500', { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'x' } }],
    ['a 503', { status: 503, body: 'busy' }],
    ['a 429 without Retry-After', { status: 429, body: {} }],
    ['a reset connection', { reset: true }],
    ['invalid JSON', { status: 200, body: '{"limit":60,"offset":0,"total":1,"results":[' }],
  ])('%s: each token asks its own route this time, and the list is asked again next time', async (_name, fault) => {
    hiro.sample.inject({ path: '/ordinals/v1/brc-20/tokens', times: 1, ...fault });
    expect((await hiro.graphql(query)).body).toEqual(data);
    expect(listThenTokens()).toEqual([...viaList, ...viaTokens]);
    hiro.sample.clearLog();
    expect((await hiro.graphql(query)).body).toEqual(data);
    expect(hiro.upstreamCalls()).toEqual(viaList);
  });
});

describe('BRC20_LIST_LOOKUPS=off', () => {
  let off: Stack;
  beforeAll(async () => {
    off = await startStack({ BRC20_LIST_LOOKUPS: 'off' });
  });
  afterAll(() => off.close());

  it('never asks the token list, even where the upstream serves it: one call per distinct ticker', async () => {
    expect(await off.graphql(TWENTY_QUERY)).toEqual({ status: 200, body: TWENTY_DATA });
    expect(off.upstreamCalls().sort()).toEqual(TWENTY.map(tokenCall).sort());
  });
});

describe('GRAPHQL_BATCH_LIMIT=10, MAX_UPSTREAM_CALLS_PER_REQUEST=2', () => {
  let batched: Stack;
  beforeAll(async () => {
    batched = await startStack({ GRAPHQL_BATCH_LIMIT: '10', MAX_UPSTREAM_CALLS_PER_REQUEST: '2' });
  });
  afterAll(() => batched.close());

  it('a batch is one request: its operations share the lookups one request may cause', async () => {
    const operation = (first: number) => ({
      query: `{ a: etchings(offset: ${first}, limit: 1) { offset } b: etchings(offset: ${first + 1}, limit: 1) { offset } }`,
    });
    const response = await fetch(`${batched.gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify([operation(10), operation(20), operation(30)]),
    });
    const refused = (column: number, field: string) => ({
      message: 'This request needs more than 2 upstream lookups; split it',
      locations: [{ line: 1, column }],
      path: [field],
      extensions: { code: 'TOO_MANY_UPSTREAM_CALLS', limit: 2 },
    });
    const spent = { errors: [refused(3, 'a'), refused(48, 'b')], data: { a: null, b: null } };
    // The first operation's lookups run first and spend the request's two.
    expect([response.status, await response.json()]).toEqual([200, [{ data: { a: { offset: 10 }, b: { offset: 11 } } }, spent, spent]]);
    expect(batched.upstreamCalls()).toEqual(['GET /runes/v1/etchings?offset=10&limit=1', 'GET /runes/v1/etchings?offset=11&limit=1']);
  });
});
