/**
 * MAX_UPSTREAM_CALLS_PER_REQUEST counts a source's pages: one block's transfers from UniSat take
 * its block call and a call per page of events, and an etchings window from ord the pages that
 * cover it. A request that would need more is cut at the budget with TOO_MANY_UPSTREAM_CALLS, and
 * the sample's log shows that the page past it was never asked. The block hashes of an ord page and
 * its index height stay within MAX_CONCURRENT_UPSTREAM_CALLS_PER_REQUEST, for GraphQL and REST
 * alike, as the sample's arrival times show.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { BIG_TRANSFER_BLOCK } from '../../src/sample/data.js';
import { startStack, type Stack } from '../harness.js';
import { callsOf, fieldError } from '../support.js';
import { blockHash, UNISAT_TIP } from '../../src/sample/sources-data.js';
import { sampleData } from '../../src/sample/data.js';

const BUDGET = 3;
const tooMany = (path: string[]) => fieldError(path, { code: 'TOO_MANY_UPSTREAM_CALLS', limit: BUDGET });
const paths = (stack: Stack) => callsOf(stack.sample).map((c) => `${c.path}${c.query.cursor === undefined ? '' : `@${c.query.cursor}`}`);

describe('UniSat transfers', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(
      (sample) => ({
        TRANSFERS_SOURCE: 'unisat',
        UNISAT_API_URL: sample.baseUrl,
        UNISAT_RATE_LIMIT_PER_SECOND: '1000',
        MAX_UPSTREAM_CALLS_PER_REQUEST: String(BUDGET),
      }),
      { sources: { unisat: { eventsPageSize: 48 } } },
    );
  });
  afterAll(() => stack.close());
  afterEach(() => stack.sample.reset());

  test(`a block of ${BUDGET - 1} events pages fits: its block call and each page`, async () => {
    const { body } = await stack.graphql('{ transfers(block: 775700) { total } }');
    expect(body).toEqual({
      data: { transfers: { total: 2 } },
      extensions: { sources: [{ source: 'unisat', height: UNISAT_TIP, unavailable: [] }] },
    });
    expect(paths(stack)).toEqual(['/v1/indexer/height/775700/block', '/v1/indexer/inscription/events@0']);
  });

  test('a block of three pages is cut at the budget: the third page is never asked', async () => {
    const { body } = await stack.graphql(`{ transfers(block: ${BIG_TRANSFER_BLOCK}) { total } }`);
    expect(body.errors).toEqual([tooMany(['transfers'])]);
    expect(body.data).toEqual({ transfers: null });
    expect(paths(stack)).toEqual([
      `/v1/indexer/height/${BIG_TRANSFER_BLOCK}/block`,
      '/v1/indexer/inscription/events@0',
      '/v1/indexer/inscription/events@48',
    ]);
  });
});

describe('ord etchings', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(
      (sample) => ({ ETCHINGS_SOURCE: 'ord', ORD_API_URL: sample.baseUrl, MAX_UPSTREAM_CALLS_PER_REQUEST: String(BUDGET) }),
      { sources: { ord: {} } },
    );
  });
  afterAll(() => stack.close());
  afterEach(() => stack.sample.reset());

  test('a window over two pages past the first fits', async () => {
    // 50 runes a page: offsets 140..159 lie on pages 2 and 3; page 0 tells the size and the newest.
    const { body } = await stack.graphql('{ etchings(offset: 140, limit: 20) { offset } }');
    expect(body.data).toEqual({ etchings: { offset: 140 } });
    expect(paths(stack).filter((path) => path.startsWith('/runes/'))).toEqual(['/runes/0', '/runes/2', '/runes/3']);
  });

  test('a window over three pages past the first is cut at the budget: the third is never asked', async () => {
    // Offsets 95..154 lie on pages 1, 2 and 3.
    const { body } = await stack.graphql('{ etchings(offset: 95, limit: 60) { offset } }');
    expect(body.errors).toEqual([tooMany(['etchings'])]);
    expect(paths(stack).filter((path) => path.startsWith('/runes/'))).toEqual(['/runes/0', '/runes/1', '/runes/2']);
  });
});

describe.each([1, 2])('ord block hashes, MAX_CONCURRENT_UPSTREAM_CALLS_PER_REQUEST=%i', (concurrency) => {
  /** Each block hash answered this late: calls in flight together arrive within it. */
  const DELAY_MS = 100;
  let stack: Stack;
  // A gateway each: the block hashes one test asked are kept (they are final), and would not be asked again.
  beforeEach(async () => {
    stack = await startStack(
      (sample) => ({
        ETCHINGS_SOURCE: 'ord',
        ORD_API_URL: sample.baseUrl,
        MAX_CONCURRENT_UPSTREAM_CALLS_PER_REQUEST: String(concurrency),
        // Every test asks the block hashes again, however soon after the last.
        CACHE_TTL_MS: '0',
      }),
      { sources: { ord: {} } },
    );
  });
  afterEach(() => stack.close());

  const window = sampleData.etchings.slice(0, 20);
  const blocks = [...new Set(window.map((e) => e.location.block_height))];

  /** Each block asked once; `concurrency` at once, and a call started only when one before it was answered. */
  const expectBoundedHashCalls = () => {
    const asked = stack.sample.requests.filter((r) => r.path.startsWith('/r/blockhash/'));
    expect(asked.map((r) => r.path).sort()).toEqual(blocks.map((b) => `/r/blockhash/${b}`).sort());
    // DELAY_MS after the call before it arrived (less a little: a timer may fire a millisecond early).
    const arrivals = asked.map((r) => r.at).sort((a, b) => a - b);
    for (let i = concurrency; i < arrivals.length; i++)
      expect(arrivals[i]! - arrivals[i - concurrency]!).toBeGreaterThanOrEqual(DELAY_MS - 5);
    // The bound is used, not only kept: the first `concurrency` calls were in flight together.
    expect(arrivals[concurrency - 1]! - arrivals[0]!).toBeLessThan(DELAY_MS / 2);
  };

  test(`GraphQL: a page over several blocks asks each hash once, at most ${concurrency} in flight`, async () => {
    stack.sample.inject({ path: '/r/blockhash/*', delayMs: DELAY_MS });
    expect(blocks.length).toBeGreaterThan(2 * concurrency);
    const { body } = await stack.graphql('{ etchings(limit: 20) { results { location { blockHeight blockHash } } } }');
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      etchings: {
        results: window.map((e) => ({ location: { blockHeight: e.location.block_height, blockHash: blockHash(e.location.block_height) } })),
      },
    });
    expectBoundedHashCalls();
  });

  test(`the index height beside the first page: ${concurrency === 1 ? 'after it' : 'in flight with it'}`, async () => {
    stack.sample.inject({ path: '/runes/0', delayMs: DELAY_MS });
    stack.sample.inject({ path: '/blockheight', delayMs: DELAY_MS });
    const { body } = await stack.graphql('{ etchings(limit: 1) { total } }');
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ etchings: { total: sampleData.etchings.length } });
    const asked = stack.sample.requests.filter((r) => r.path === '/runes/0' || r.path === '/blockheight');
    expect(asked.map((r) => r.path).sort()).toEqual(['/blockheight', '/runes/0']);
    // One slot: the height waits for the page's answer (DELAY_MS); two: both asked at once.
    expect(asked[1]!.at - asked[0]!.at >= DELAY_MS - 5).toBe(concurrency === 1);
  });

  test(`REST: the same page asks each hash once, at most ${concurrency} in flight`, async () => {
    stack.sample.inject({ path: '/r/blockhash/*', delayMs: DELAY_MS });
    const response = await fetch(`${stack.gatewayUrl}/runes/v1/etchings?limit=20`);
    expect(response.status).toBe(200);
    const page = (await response.json()) as { results: Array<{ location: { block_height: number; block_hash: string } }> };
    expect(page.results.map((e) => e.location)).toEqual(
      window.map((e) => expect.objectContaining({ block_height: e.location.block_height, block_hash: blockHash(e.location.block_height) })),
    );
    expectBoundedHashCalls();
  });
});
