/**
 * The shared response cache in the upstream layer: freshness, ETag revalidation (also through the
 * global ETag), coalescing, the byte bound, 404s cached briefly, failures never cached. Upstream
 * calls are counted in the sample upstream's request log.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ORDINALS_ETAG, sampleData } from '../../src/sample/data.js';
import { rest, startStack, type Stack } from '../harness.js';

const token = (ticker: string) => {
  const found = sampleData.brc20Tokens.find((t) => t.token.ticker === ticker);
  if (!found) throw new Error(`no sample token ${ticker}`);
  return found;
};
const tokenPath = (ticker: string) => `/ordinals/v1/brc-20/tokens/${encodeURIComponent(ticker)}`;
const TOKEN_QUERY = `query ($t: String!) { brc20Token(ticker: $t) { token { ticker maxSupply } supply { holders } } }`;
const tokenData = (ticker: string) => ({
  brc20Token: {
    token: { ticker, maxSupply: token(ticker).token.max_supply },
    supply: { holders: token(ticker).supply.holders },
  },
});

describe('inside the freshness window', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ CACHE_TTL_MS: '60000', CACHE_NOT_FOUND_TTL_MS: '60000' });
  });
  afterAll(() => stack.close());
  afterEach(() => stack.sample.reset());

  test('REST and GraphQL share one cached answer: one upstream call for all of them', async () => {
    const first = await rest(`${stack.gatewayUrl}${tokenPath('ordi')}`);
    const second = await rest(`${stack.gatewayUrl}/ordinals/brc-20/tokens/ORDI`);
    const graphql = await stack.graphql(TOKEN_QUERY, { t: 'Ordi' });
    expect(first).toEqual({
      status: 200,
      body: token('ordi'),
      etag: `"${ORDINALS_ETAG}"`,
      cacheControl: 'public, no-cache, must-revalidate',
      contentType: 'application/json; charset=utf-8',
    });
    expect(second).toEqual(first);
    expect(graphql).toEqual({ status: 200, body: { data: tokenData('ordi') } });
    // Tickers are case-insensitive upstream: ASCII case is folded before the cache key is made.
    expect(stack.upstreamCalls()).toEqual([`GET ${tokenPath('ordi')}`]);
  });

  test('an answer the upstream marks no-store or private is passed on and never kept', async () => {
    for (const [ticker, cacheControl] of [
      ['trac', 'no-store'],
      ['mubi', 'private, max-age=60'],
      ['bili', 'PRIVATE="set-cookie"'],
    ] as const) {
      stack.sample.inject({
        path: tokenPath(ticker),
        status: 200,
        body: token(ticker),
        headers: { 'cache-control': cacheControl, etag: '"kept-nowhere"' },
      });
      const first = await rest(`${stack.gatewayUrl}${tokenPath(ticker)}`);
      const second = await rest(`${stack.gatewayUrl}${tokenPath(ticker)}`);
      const graphql = await stack.graphql(TOKEN_QUERY, { t: ticker });
      expect([first, second]).toEqual([
        { status: 200, body: token(ticker), etag: '"kept-nowhere"', cacheControl, contentType: 'application/json; charset=utf-8' },
        { status: 200, body: token(ticker), etag: '"kept-nowhere"', cacheControl, contentType: 'application/json; charset=utf-8' },
      ]);
      expect(graphql).toEqual({ status: 200, body: { data: tokenData(ticker) } });
      expect(stack.upstreamCalls()).toEqual(Array(3).fill(`GET ${tokenPath(ticker)}`));
      stack.sample.reset();
    }
  });

  test("a client's If-None-Match is answered 304 from the cache, without an upstream call", async () => {
    await rest(`${stack.gatewayUrl}${tokenPath('pepe')}`);
    stack.sample.clearLog();
    const answer = await rest(`${stack.gatewayUrl}${tokenPath('pepe')}`, {
      headers: { 'if-none-match': `W/"${ORDINALS_ETAG}"` },
    });
    expect(answer).toEqual({
      status: 304,
      body: null,
      etag: null,
      cacheControl: 'public, no-cache, must-revalidate',
      contentType: null,
    });
    expect(stack.upstreamCalls()).toEqual([]);
  });

  test('a 404 is cached for CACHE_NOT_FOUND_TTL_MS', async () => {
    const first = await stack.graphql(TOKEN_QUERY, { t: 'nope-404' });
    const second = await stack.graphql(TOKEN_QUERY, { t: 'nope-404' });
    expect([first, second]).toEqual([
      { status: 200, body: { data: { brc20Token: null } } },
      { status: 200, body: { data: { brc20Token: null } } },
    ]);
    expect(stack.upstreamCalls()).toEqual(['GET /ordinals/v1/brc-20/tokens/nope-404']);
  });

  test('a ticker no token can have (empty, one that reads as a path, longer than a path parameter) is null without an upstream call', async () => {
    // With holders the detail route; without, the token list's ticker filter.
    const SUMMARY_QUERY = `query ($t: String!) { brc20Token(ticker: $t) { token { ticker maxSupply } } }`;
    const answers = [];
    const pathLike = ['.', '..', '../../../runes/v1/etchings', 'a\\..\\b', '%2e%2e', '%252e%252e%252fx'];
    for (const ticker of ['b'.repeat(100), '', ...pathLike, 'b'.repeat(101), 'b'.repeat(20_000)]) {
      answers.push(await stack.graphql(TOKEN_QUERY, { t: ticker }), await stack.graphql(SUMMARY_QUERY, { t: ticker }));
    }
    expect(answers).toEqual(answers.map(() => ({ status: 200, body: { data: { brc20Token: null } } })));
    expect(stack.upstreamCalls()).toEqual([
      `GET /ordinals/v1/brc-20/tokens/${'b'.repeat(100)}`,
      `GET /ordinals/v1/brc-20/tokens?ticker=${'b'.repeat(100)}&offset=0&limit=60`,
    ]);
  });

  test.each([
    ['a 500', 'sats', { status: 500, body: { message: 'boom' } }, 'UPSTREAM_ERROR'],
    ['a 503', sampleData.brc20Tokens[10]!.token.ticker, { status: 503, body: { message: 'down' } }, 'UPSTREAM_ERROR'],
    ['a 429', sampleData.brc20Tokens[11]!.token.ticker, { status: 429, body: {} }, 'RATE_LIMITED'],
    ['a reset connection', sampleData.brc20Tokens[12]!.token.ticker, { reset: true }, 'UPSTREAM_UNAVAILABLE'],
  ])('%s is never cached: the next request asks the upstream again', async (_name, ticker, fault, code) => {
    stack.sample.inject({ path: tokenPath(ticker), times: 1, ...fault });
    const failed = await stack.graphql(TOKEN_QUERY, { t: ticker });
    const next = await stack.graphql(TOKEN_QUERY, { t: ticker });
    const cached = await stack.graphql(TOKEN_QUERY, { t: ticker });
    expect(failed.body.data).toEqual({ brc20Token: null });
    expect(failed.body.errors?.map((e) => e.extensions?.code)).toEqual([code]);
    expect([next, cached]).toEqual([
      { status: 200, body: { data: tokenData(ticker) } },
      { status: 200, body: { data: tokenData(ticker) } },
    ]);
    // The failure, then the success, which is then served from the cache.
    expect(stack.upstreamCalls()).toEqual([`GET ${tokenPath(ticker)}`, `GET ${tokenPath(ticker)}`]);
  });

  test('200 concurrent clients asking the same cold query make one upstream call', async () => {
    stack.sample.inject({ path: '/runes/v1/etchings', delayMs: 150 });
    const query = '{ etchings(limit: 3) { total results { runeId } } }';
    const answers = await Promise.all(Array.from({ length: 200 }, () => stack.graphql(query)));
    const expected = {
      status: 200,
      body: {
        data: {
          etchings: { total: sampleData.etchingsTotal, results: sampleData.etchings.slice(0, 3).map((e) => ({ runeId: e.id })) },
        },
      },
    };
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(new Set([JSON.stringify(expected)]));
    expect(stack.upstreamCalls()).toEqual(['GET /runes/v1/etchings?offset=0&limit=3']);
  });

  test('GraphQL and REST clients asking at the same time share the in-flight upstream call', async () => {
    stack.sample.inject({ path: '/runes/v1/etchings', delayMs: 150 });
    const [graphql, restAnswer] = await Promise.all([
      stack.graphql('{ etchings(limit: 4, offset: 2) { total } }'),
      rest(`${stack.gatewayUrl}/runes/etchings?offset=2&limit=4`),
    ]);
    expect(graphql).toEqual({ status: 200, body: { data: { etchings: { total: sampleData.etchingsTotal } } } });
    expect(restAnswer.body).toEqual({
      limit: 4,
      offset: 2,
      total: sampleData.etchingsTotal,
      results: sampleData.etchings.slice(2, 6),
    });
    expect(stack.upstreamCalls()).toEqual(['GET /runes/v1/etchings?offset=2&limit=4']);
  });
});

describe('revalidation', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ CACHE_TTL_MS: '0' });
  });
  afterAll(() => stack.close());

  test('with CACHE_TTL_MS=0 every request revalidates with If-None-Match and reuses the stored body on 304', async () => {
    const first = await rest(`${stack.gatewayUrl}${tokenPath('ordi')}`);
    const second = await rest(`${stack.gatewayUrl}${tokenPath('ordi')}`);
    expect(second).toEqual(first);
    expect(second.body).toEqual(token('ordi'));
    expect(stack.sample.requests.map((r) => [r.url, r.headers['if-none-match']])).toEqual([
      [tokenPath('ordi'), undefined],
      [tokenPath('ordi'), `"${ORDINALS_ETAG}"`],
    ]);
  });
});

describe('a global ETag', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ CACHE_TTL_MS: '400' });
  });
  afterAll(() => stack.close());

  test('one 304 for one ordinals path keeps every entry with that ETag fresh', async () => {
    await stack.graphql(TOKEN_QUERY, { t: 'ordi' });
    await stack.graphql(TOKEN_QUERY, { t: 'pepe' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    stack.sample.clearLog();
    const ordi = await stack.graphql(TOKEN_QUERY, { t: 'ordi' });
    const pepe = await stack.graphql(TOKEN_QUERY, { t: 'pepe' });
    expect([ordi.body, pepe.body]).toEqual([{ data: tokenData('ordi') }, { data: tokenData('pepe') }]);
    // ordi was revalidated (304); pepe carries the same global ETag, so it needed no call.
    expect(stack.sample.requests.map((r) => [r.url, r.headers['if-none-match']])).toEqual([[tokenPath('ordi'), `"${ORDINALS_ETAG}"`]]);
  });
});

/** A token asked twice, the second time with another body (an unused variable), so executed twice. */
async function readTwice(stack: Stack, ticker: string): Promise<void> {
  for (const variables of [{ t: ticker }, { t: ticker, again: true }]) {
    expect((await stack.graphql(TOKEN_QUERY, variables)).body).toEqual({ data: tokenData(ticker) });
  }
}

describe('CACHE_MAX_BYTES', () => {
  let stack: Stack;
  beforeAll(async () => {
    // Room for three token answers kept parsed (~3,050 bytes each: ~1,800 stored with the entry's
    // overhead, twice the body parsed), not for a fourth beside them.
    stack = await startStack({ CACHE_TTL_MS: '60000', CACHE_MAX_BYTES: '10000' });
  });
  afterAll(() => stack.close());

  test('evicts the least recently used answers first', async () => {
    // Each read twice (the second with another body, so it executes again): kept parsed.
    for (const ticker of ['ordi', 'pepe', 'sats']) await readTwice(stack, ticker);
    await stack.graphql(TOKEN_QUERY, { t: 'ordi' }); // ordi is now the most recently used
    const fourth = sampleData.brc20Tokens[5]!.token.ticker;
    await stack.graphql(TOKEN_QUERY, { t: fourth }); // evicts pepe, the least recently used
    stack.sample.clearLog();
    for (const ticker of ['ordi', 'sats', fourth, 'pepe']) {
      expect((await stack.graphql(TOKEN_QUERY, { t: ticker })).body).toEqual({ data: tokenData(ticker) });
    }
    expect(stack.upstreamCalls()).toEqual([`GET ${tokenPath('pepe')}`]);
  });
});

describe('CACHE_MAX_BYTES counts memoised parsed JSON', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ CACHE_TTL_MS: '60000', CACHE_MAX_BYTES: '10000' });
  });
  afterAll(() => stack.close());

  test('four raw answers fit; once GraphQL has parsed three of them, the least recently used is evicted', async () => {
    const fourth = sampleData.brc20Tokens[5]!.token.ticker;
    const tickers = ['ordi', 'pepe', 'sats', fourth];
    // REST mirrors the bytes: nothing is parsed, four answers (~7.2 KB) fit.
    for (const ticker of tickers) await rest(`${stack.gatewayUrl}${tokenPath(ticker)}`);
    stack.sample.clearLog();
    for (const ticker of tickers) expect((await rest(`${stack.gatewayUrl}${tokenPath(ticker)}`)).body).toEqual(token(ticker));
    expect(stack.upstreamCalls()).toEqual([]);
    // GraphQL reads ordi, pepe and sats once (cache hits): an answer read once is not kept parsed,
    // so all four still fit.
    for (const ticker of ['ordi', 'pepe', 'sats']) {
      expect((await stack.graphql(TOKEN_QUERY, { t: ticker })).body).toEqual({ data: tokenData(ticker) });
    }
    for (const ticker of tickers) expect((await rest(`${stack.gatewayUrl}${tokenPath(ticker)}`)).body).toEqual(token(ticker));
    expect(stack.upstreamCalls()).toEqual([]);
    // Read again (another body, so executed again), they are kept parsed: their parsed values now
    // count, and the least recently used answer (the fourth) no longer fits.
    for (const ticker of ['ordi', 'pepe', 'sats']) {
      expect((await stack.graphql(TOKEN_QUERY, { t: ticker, again: true })).body).toEqual({ data: tokenData(ticker) });
    }
    expect(stack.upstreamCalls()).toEqual([]);
    expect((await stack.graphql(TOKEN_QUERY, { t: fourth })).body).toEqual({ data: tokenData(fourth) });
    expect(stack.upstreamCalls()).toEqual([`GET ${tokenPath(fourth)}`]);
  });
});
