/**
 * Per-client fairness applies to a data source's calls as to hiro's: CLIENT_UPSTREAM_CALLS_PER_MINUTE
 * a client, and by default (`fair-share`) a fifth of UniSat's budget (UNISAT_RATE_LIMIT_PER_SECOND
 * × 60), which UniSat does not advertise. A refused call is never sent; other clients are served.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sampleData } from '../../src/sample/data.js';
import type { SampleUpstream } from '../../src/sample/server.js';
import { startUnisatStack, type Stack } from '../harness.js';
import { dataRequests, fieldError } from '../support.js';
import { BRC20_HEIGHT } from '../../src/sample/unisat.js';

const tickers = sampleData.brc20Tokens.map((t) => t.token.ticker).filter((t) => /^[a-z0-9]+$/.test(t));
const lookups = (list: string[]) => `{ ${list.map((t, i) => `t${i}: brc20Token(ticker: "${t}") { token { ticker } }`).join(' ')} }`;
const unisatCalls = (sample: SampleUpstream) => dataRequests(sample).filter((r) => r.path.startsWith('/v1/indexer/')).length;
const from = (address: string) => ({ 'x-forwarded-for': address });

describe('CLIENT_UPSTREAM_CALLS_PER_MINUTE=3 over UniSat', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startUnisatStack({ UNISAT_RATE_LIMIT_PER_SECOND: '1000', CLIENT_UPSTREAM_CALLS_PER_MINUTE: '3', TRUST_PROXY: 'on' });
  });
  afterAll(() => stack.close());

  test('a client past its share is refused without a call; another client is served', async () => {
    stack.sample.reset();
    const first = await stack.graphql(lookups(tickers.slice(0, 4)), undefined, from('203.0.113.10'));
    const answered = Object.entries(first.body.data!).filter(([, value]) => value !== null);
    expect(answered).toHaveLength(3);
    expect(first.body.errors).toEqual([
      fieldError([expect.stringMatching(/^t\d$/)], {
        code: 'RATE_LIMITED',
        service: 'ordinals',
        source: 'unisat',
        retryAfter: expect.any(Number),
        limit: 3,
      }),
    ]);
    expect(unisatCalls(stack.sample)).toBe(3);

    const other = await stack.graphql(lookups(tickers.slice(4, 5)), undefined, from('203.0.113.11'));
    expect(other.body).toEqual({
      data: { t0: { token: { ticker: tickers[4] } } },
      extensions: { sources: [{ source: 'unisat', height: BRC20_HEIGHT, unavailable: [] }] },
    });
    expect(unisatCalls(stack.sample)).toBe(4);
  });
});

describe('the default fair share over UniSat (UNISAT_RATE_LIMIT_PER_SECOND=1: 12 calls a minute a client)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startUnisatStack({ UNISAT_RATE_LIMIT_PER_SECOND: '1', UPSTREAM_TIMEOUT_MS: '1500' });
  });
  afterAll(() => stack.close());

  test('the thirteenth lookup of one client is refused for its share, the others queue for the budget', async () => {
    stack.sample.reset();
    const { body } = await stack.graphql(lookups(tickers.slice(0, 13)));
    const limits = (body.errors ?? []).map((error) => error.extensions?.limit).sort();
    // One refusal for the client's share (12); every other refusal is the per-second budget's (1).
    expect(limits.filter((limit) => limit === 12)).toHaveLength(1);
    expect(limits.filter((limit) => limit !== 12 && limit !== 1)).toEqual([]);
    expect(unisatCalls(stack.sample)).toBe(13 - limits.length);
  });
});

describe("UniSat's budget taken in turns (UNISAT_RATE_LIMIT_PER_SECOND=5, so 60 calls a minute a client)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startUnisatStack({ UNISAT_RATE_LIMIT_PER_SECOND: '5', UPSTREAM_TIMEOUT_MS: '10000', TRUST_PROXY: 'on' });
  });
  afterAll(() => stack.close());

  test("a burst within one client's share waits behind another client's next call, not in front of it", async () => {
    stack.sample.reset();
    // 60 distinct tickers at once, the client's whole minute (the sample knows none: each is still a
    // call): twelve seconds of the budget, past UPSTREAM_TIMEOUT_MS (10 s).
    const burst = Array.from({ length: 3 }, (_, r) => Array.from({ length: 20 }, (_, i) => `q${r}${String(i).padStart(2, '0')}`));
    const first = Promise.all(burst.map((list) => stack.graphql(lookups(list), undefined, from('203.0.113.10'))));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const other = await stack.graphql(lookups(['ordi']), undefined, from('203.0.113.11'));
    expect(other.body).toEqual({
      data: { t0: { token: { ticker: 'ordi' } } },
      extensions: { sources: [{ source: 'unisat', height: BRC20_HEIGHT, unavailable: [] }] },
    });
    // The first second's five went before the other client came; then at most one more of the
    // burst before its call (it was the 31st, behind the burst's waiting calls).
    const ordi = dataRequests(stack.sample).findIndex((r) => r.path === '/v1/indexer/brc20/ordi/info');
    expect(ordi).toBeGreaterThanOrEqual(0);
    expect(ordi).toBeLessThanOrEqual(6);
    await first;
  }, 30_000);

  test("a client joining another's call for the same ticker waits in its own turn, not behind the starter's backlog", async () => {
    stack.sample.reset();
    // 59 distinct tickers, then ordi: the client's whole minute, ordi last in its turn (12 s away).
    const burst = Array.from({ length: 3 }, (_, r) =>
      Array.from({ length: r < 2 ? 20 : 19 }, (_, i) => `j${r}${String(i).padStart(2, '0')}`),
    );
    const attacker = from('203.0.113.12');
    const first = Promise.all(burst.map((list) => stack.graphql(lookups(list), undefined, attacker)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const attackersOrdi = stack.graphql(lookups(['ordi']), undefined, attacker);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Another client asks for ordi: it joins the call in flight, which goes in its turn.
    const served = {
      data: { t0: { token: { ticker: 'ordi' } } },
      extensions: { sources: [{ source: 'unisat', height: BRC20_HEIGHT, unavailable: [] }] },
    };
    expect((await stack.graphql(lookups(['ordi']), undefined, from('203.0.113.13'))).body).toEqual(served);
    expect((await attackersOrdi).body).toEqual(served);
    // One call for both, among the first second's five and the next one or two.
    const calls = dataRequests(stack.sample).map((r) => r.path);
    expect(calls.filter((path) => path === '/v1/indexer/brc20/ordi/info')).toHaveLength(1);
    expect(calls.indexOf('/v1/indexer/brc20/ordi/info')).toBeLessThanOrEqual(6);
    await first;
  }, 30_000);
});
