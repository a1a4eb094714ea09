/**
 * UniSat's indexed heights in `extensions.sources` (src/sources/unisat/heights.ts): each index's own
 * route, asked once beside the first answer and then at most every 30 s a process; a height that
 * cannot be had is null, never a failed answer. The request log proves how often they are asked.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { UNISAT_TIP } from '../../src/sample/sources-data.js';
import { BRC20_HEIGHT, RUNES_HEIGHT } from '../../src/sample/unisat.js';
import type { SampleUpstream } from '../../src/sample/server.js';
import { startUnisatStack, type Stack } from '../harness.js';

const UNISAT_KEY = 'unisat-heights-key-51c0';
const HEIGHT_PATHS = ['/v1/indexer/brc20/bestheight', '/v1/indexer/runes/status', '/v1/indexer/blockchain/info'];

/** The height asks in the log, with the key each carried. */
const heightCalls = (sample: SampleUpstream) =>
  sample.requests.filter((r) => HEIGHT_PATHS.includes(r.path)).map((r) => [r.path, r.headers.authorization]);

/** A gateway of its own (its heights are its own): everything from UniSat. */
const everythingFromUnisat = () =>
  startUnisatStack(
    { TRANSFERS_SOURCE: 'unisat', ETCHINGS_SOURCE: 'unisat', UNISAT_API_KEY: UNISAT_KEY, UNISAT_RATE_LIMIT_PER_SECOND: '1000' },
    { apiKey: UNISAT_KEY },
  );

const heightOf = (body: { extensions?: unknown }) => (body.extensions as { sources: Array<{ height: number | null }> }).sources[0]!.height;

describe('every operation from UniSat', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await everythingFromUnisat();
  });
  afterAll(() => stack.close());

  test("each answer carries its index's height; each index is asked once, with the key", async () => {
    stack.sample.reset();
    const brc20 = await stack.graphql('{ brc20Token(ticker: "ordi") { token { ticker } } }');
    const etchings = await stack.graphql('{ etchings(limit: 1) { total } }');
    const transfers = await stack.graphql('{ transfers(block: 775700) { total } }');
    expect([brc20, etchings, transfers].map(({ body }) => heightOf(body))).toEqual([BRC20_HEIGHT, RUNES_HEIGHT, UNISAT_TIP]);
    expect(heightCalls(stack.sample)).toEqual(HEIGHT_PATHS.map((path) => [path, `Bearer ${UNISAT_KEY}`]));

    // Within 30 s the heights known are used as they are: no further ask.
    stack.sample.clearLog();
    const together = await stack.graphql('{ brc20Token(ticker: "pepe") { token { ticker } } etchings(limit: 1) { total } }');
    expect(together.body.extensions).toEqual({ sources: [{ source: 'unisat', height: BRC20_HEIGHT, unavailable: [] }] });
    expect(heightCalls(stack.sample)).toEqual([]);
  });
});

describe('a height route that fails', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await everythingFromUnisat();
  });
  afterAll(() => stack.close());

  test('leaves the height null and the answer whole; it is not asked again at once', async () => {
    stack.sample.reset();
    stack.sample.inject({ path: '/v1/indexer/runes/status', status: 500, body: { code: -1, msg: 'busy', data: null } });
    const first = await stack.graphql('{ etchings(limit: 1) { total } }');
    expect(first.body).toEqual({
      data: { etchings: { total: expect.any(Number) } },
      extensions: { sources: [{ source: 'unisat', height: null, unavailable: [] }] },
    });
    await stack.graphql('{ etchings(limit: 2) { total } }');
    expect(heightCalls(stack.sample)).toEqual([['/v1/indexer/runes/status', `Bearer ${UNISAT_KEY}`]]);
  });
});

describe('a stored result and the height it shows', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await everythingFromUnisat();
  });
  afterAll(async () => {
    vi.useRealTimers();
    await stack.close();
  });

  test('is executed again once the index moved: the height is one of the answers it rests on', async () => {
    const query = '{ brc20Token(ticker: "ordi") { token { ticker } } }';
    const heights = [heightOf((await stack.graphql(query)).body), heightOf((await stack.graphql(query)).body)];
    stack.sample.inject({
      path: '/v1/indexer/brc20/bestheight',
      status: 200,
      body: { code: 0, msg: 'ok', data: { height: BRC20_HEIGHT + 1 } },
    });
    stack.sample.clearLog();
    // Past the 30 s a height is known for (the gateway runs in this process: its clock is this one).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31_000 });
    // Served as stored while the new height is asked for the next request.
    heights.push(heightOf((await stack.graphql(query)).body));
    const deadline = performance.now() + 5_000;
    while (heightCalls(stack.sample).length === 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    heights.push(heightOf((await stack.graphql(query)).body));
    expect(heights).toEqual([BRC20_HEIGHT, BRC20_HEIGHT, BRC20_HEIGHT, BRC20_HEIGHT + 1]);
    expect(heightCalls(stack.sample)).toEqual([['/v1/indexer/brc20/bestheight', `Bearer ${UNISAT_KEY}`]]);
  });
});
