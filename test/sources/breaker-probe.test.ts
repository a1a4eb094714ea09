/**
 * A data source's breaker is probed by the gateway itself once its cooldown has passed
 * (src/upstream/guards/service-probe.ts): a cheap path of the source's own, never a client's
 * request. The request log proves the probe goes first, and that the request waits for it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startStack, startUnisatStack, type Stack } from '../harness.js';

const BREAKER = { BREAKER_THRESHOLD: '1', BREAKER_COOLDOWN_MS: '300', UPSTREAM_RETRIES: '0' };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Every logged request's path, UniSat's height asks included (callsOf leaves them out). */
const paths = (stack: Stack) => stack.sample.requests.map((request) => request.path);
const codes = (body: { errors?: Array<{ extensions?: Record<string, unknown> }> }) => body.errors?.map((e) => e.extensions?.code);

describe('ord (ETCHINGS_SOURCE=ord)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack((sample) => ({ ETCHINGS_SOURCE: 'ord', ORD_API_URL: sample.baseUrl, ...BREAKER }), { sources: { ord: {} } });
  });
  afterAll(() => stack.close());

  test("past the cooldown ord's /status is asked first, then the request that waited for it", async () => {
    const query = '{ etchings(limit: 1) { total } }';
    // ord down: the page and the index height asked beside it both fail.
    stack.sample.inject({ path: '/runes/0', status: 504, times: 1 });
    stack.sample.inject({ path: '/blockheight', status: 504, times: 1 });
    expect(codes((await stack.graphql(query)).body)).toEqual(['UPSTREAM_ERROR']);
    expect(codes((await stack.graphql(query)).body)).toEqual(['UPSTREAM_UNAVAILABLE']);
    await pause(350);
    stack.sample.clearLog();
    const { body } = await stack.graphql(query);
    // Then the page, with the index height and its block's hash beside it.
    expect([body.errors, paths(stack)[0], paths(stack).slice(1).sort()]).toEqual([
      undefined,
      '/status',
      ['/blockheight', '/r/blockhash/847041', '/runes/0'],
    ]);
  });
});

describe('UniSat (BRC20_SOURCE=unisat)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startUnisatStack({ ...BREAKER, UNISAT_RATE_LIMIT_PER_SECOND: '1000' });
  });
  afterAll(() => stack.close());

  test("past the cooldown the first BRC-20 token's lookup is asked first, then the request that waited for it", async () => {
    const query = '{ brc20Token(ticker: "ordi") { token { ticker } } }';
    // UniSat down: the token and the index height asked beside it both fail.
    stack.sample.inject({ path: '/v1/indexer/brc20/ordi/info', status: 504, times: 1 });
    stack.sample.inject({ path: '/v1/indexer/brc20/bestheight', status: 504, times: 1 });
    expect(codes((await stack.graphql(query)).body)).toEqual(['UPSTREAM_ERROR']);
    expect(codes((await stack.graphql(query)).body)).toEqual(['UPSTREAM_UNAVAILABLE']);
    await pause(350);
    stack.sample.clearLog();
    const { body } = await stack.graphql(query);
    // The probe (ordi's lookup), then this request's own.
    expect([body.data, paths(stack)]).toEqual([
      { brc20Token: { token: { ticker: 'ordi' } } },
      ['/v1/indexer/brc20/ordi/info', '/v1/indexer/brc20/ordi/info'],
    ]);
  });
});
