/**
 * ETCHINGS_SOURCE=ord: answers of an `ord server` that no ord can give are unreadable
 * (UPSTREAM_ERROR, REST 502), never served, rounded or cut short, and never cost the process more
 * than reading them.
 */
import { stringify } from 'lossless-json';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { sampleData } from '../../src/sample/data.js';
import { ordRune } from '../../src/sample/sources-data.js';
import { startStack, type Stack } from '../harness.js';
import { STACK_FRAME, callsOf, fieldError, globalId } from '../support.js';

const all = sampleData.etchings;
const U128_MAX = 2n ** 128n - 1n;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack((sample) => ({ ETCHINGS_SOURCE: 'ord', ORD_API_URL: sample.baseUrl }), { sources: { ord: {} } });
});
afterAll(() => stack.close());
afterEach(() => stack.sample.reset());

type Pair = ReturnType<typeof ordRune>;
/** ord's `/runes/0` as the sample serves it (50 a page and the look-ahead), after `edit`: JSON text. */
function firstPage(edit: (entries: Pair[]) => void = () => {}): string {
  const entries = all.slice(0, 51).map(ordRune);
  edit(entries);
  return stringify({ entries, more: true, prev: null, next: 1 })!;
}
/** `/runes/0` with the newest entry's `field` written as `digits`, a bare JSON number of any length. */
const withNumber = (field: string, digits: string) => firstPage().replace(new RegExp(`"${field}":\\d+`), `"${field}":${digits}`);

const UNREADABLE = {
  data: { etchings: null },
  errors: [fieldError(['etchings'], { code: 'UPSTREAM_ERROR', service: 'runes', source: 'ord', httpStatus: 200 })],
  // The source is named though it gave nothing; no height from an answer it could not read.
  extensions: { sources: [{ source: 'ord', height: null, unavailable: [] }] },
};
/** Read, but a value that the schema's type cannot hold: the mapping's refusal (no HTTP status to name). */
const UNFIT = {
  data: { etchings: null },
  errors: [fieldError(['etchings'], { code: 'UPSTREAM_ERROR', service: 'runes', source: 'ord' })],
  extensions: { sources: [{ source: 'ord', height: null, unavailable: [] }] },
};
const BAD_GATEWAY = {
  statusCode: 502,
  error: 'Bad Gateway',
  message: 'The ord service sent an answer that is not the JSON the gateway expects',
};
const PAGE_QUERY = '{ etchings(limit: 5) { total results { number supply { premine mintable } } } }';
/** What page 0 costs: the page and the index height beside it. */
const firstCalls = () => ['/blockheight', '/runes/0'];
const paths = () =>
  callsOf(stack.sample)
    .map((c) => c.path)
    .sort();

test.each([
  ['a premine of 40 digits (u128::MAX has 39)', withNumber('premine', '1'.repeat(40))],
  ['a premine of u128::MAX + 1 (39 digits)', withNumber('premine', String(U128_MAX + 1n))],
  ['mints of 40 digits', withNumber('mints', '9'.repeat(40))],
])('%s is no value of ord’s: UPSTREAM_ERROR, REST 502', async (_name, body) => {
  stack.sample.inject({ path: '/runes/0', status: 200, body });
  expect((await stack.graphql(PAGE_QUERY)).body).toEqual(UNREADABLE);
  const rest = await fetch(`${stack.gatewayUrl}/runes/v1/etchings?limit=1`);
  expect([rest.status, await rest.json()]).toEqual([502, BAD_GATEWAY]);
  expect(paths()).toEqual([...firstCalls(), ...firstCalls()].sort());
});

test('u128::MAX itself is read exactly', async () => {
  stack.sample.inject({ path: '/runes/0', status: 200, body: withNumber('premine', String(U128_MAX)) });
  const { body } = await stack.graphql('{ etchings(limit: 1) { total results { divisibility supply { premine } } } }');
  const divisibility = all[0]!.divisibility;
  const digits = String(U128_MAX).padStart(divisibility + 1, '0');
  const premine = divisibility === 0 ? digits : `${digits.slice(0, -divisibility)}.${digits.slice(-divisibility)}`;
  expect(body.data).toEqual({ etchings: { total: all.length, results: [{ divisibility, supply: { premine } }] } });
});

test('4.5 million digits are refused before they are parsed: the process keeps serving', async () => {
  // Before: BigInt took 9.6 s of CPU over them, and /healthz waited as long.
  stack.sample.inject({ path: '/runes/0', status: 200, body: withNumber('premine', '7'.repeat(4_500_000)) });
  const started = performance.now();
  const answer = stack.graphql(PAGE_QUERY);
  // Once the gateway has the answer, /healthz is served at once.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const health = await fetch(`${stack.gatewayUrl}/healthz`);
  expect([health.status, (await answer).body]).toEqual([200, UNREADABLE]);
  expect(performance.now() - started).toBeLessThan(2_000);
});

const INT_MAX = 2 ** 31 - 1;
const ETCHING_QUERY = `{ etchings(limit: 1) { total results { number divisibility
  mintTerms { heightStart heightEnd offsetStart offsetEnd } location { blockHeight txIndex timestamp } } } }`;

test.each([
  // Before: INTERNAL_SERVER_ERROR in GraphQL, and REST wrote "total" and "number" rounded.
  ['a rune number of u64::MAX', (e: Pair[]) => void (e[0]![1].number = 2n ** 64n - 1n)],
  ['a rune number whose total is past an Int', (e: Pair[]) => void (e[0]![1].number = BigInt(INT_MAX))],
  ['a terms height past an Int', (e: Pair[]) => void (e[0]![1].terms!.height[1] = BigInt(INT_MAX) + 1n)],
  ['a terms offset past an Int', (e: Pair[]) => void (e[0]![1].terms!.offset[1] = BigInt(INT_MAX) + 1n)],
  ['a tx index past an Int', (e: Pair[]) => void (e[0]![0] = `${e[0]![1].block}:${INT_MAX + 1}`)],
  ['seconds whose milliseconds are past 2^53', (e: Pair[]) => void (e[0]![1].timestamp = BigInt(Math.ceil(2 ** 53 / 1000)))],
])('%s does not fit the schema’s type: UPSTREAM_ERROR, REST 502, nothing rounded', async (_name, edit) => {
  stack.sample.inject({ path: '/runes/0', status: 200, body: firstPage(edit) });
  const logged = stack.logs.length;
  expect((await stack.graphql(ETCHING_QUERY)).body).toEqual(UNFIT);
  const rest = await fetch(`${stack.gatewayUrl}/runes/v1/etchings?limit=1`);
  expect([rest.status, await rest.json()]).toEqual([502, BAD_GATEWAY]);
  // An upstream's fault, not the gateway's: no stack in the logs.
  expect(stack.logs.slice(logged).filter((line) => STACK_FRAME.test(line))).toEqual([]);
});

test('a block height past an Int, for the etching or the index, is unreadable too', async () => {
  const block = BigInt(INT_MAX) + 1n;
  stack.sample.inject({ path: '/runes/0', status: 200, body: firstPage((e) => void (e[0]![1].block = block)) });
  stack.sample.inject({ path: `/r/blockhash/${block}`, status: 200, body: JSON.stringify('0'.repeat(64)) });
  expect((await stack.graphql(ETCHING_QUERY)).body).toEqual(UNFIT);
  stack.sample.clearFaults();
  stack.sample.inject({ path: '/blockheight', status: 200, body: String(block) });
  expect((await stack.graphql(ETCHING_QUERY)).body).toEqual(UNFIT);
  const rest = await fetch(`${stack.gatewayUrl}/runes/v1/etchings?limit=1`);
  expect([rest.status, await rest.json()]).toEqual([502, BAD_GATEWAY]);
});

test('the largest values that fit are served exactly', async () => {
  const edit = (e: Pair[]) => {
    const [pair] = e;
    pair![0] = `${pair![1].block}:${INT_MAX}`;
    pair![1].terms!.height = [1n, BigInt(INT_MAX)];
    pair![1].timestamp = BigInt(Math.floor(Number.MAX_SAFE_INTEGER / 1000));
  };
  stack.sample.inject({ path: '/runes/0', status: 200, body: firstPage(edit) });
  const { body } = await stack.graphql(ETCHING_QUERY);
  const e = all[0]!;
  expect(body.data).toEqual({
    etchings: {
      total: all.length,
      results: [
        {
          number: e.number,
          divisibility: e.divisibility,
          mintTerms: { heightStart: 1, heightEnd: INT_MAX, offsetStart: e.mint_terms.offset_start, offsetEnd: e.mint_terms.offset_end },
          location: {
            blockHeight: e.location.block_height,
            txIndex: INT_MAX,
            timestamp: Math.floor(Number.MAX_SAFE_INTEGER / 1000) * 1000,
          },
        },
      ],
    },
  });
});

/** ord's `/runes/1` as the sample serves it, after `edit`: JSON text. */
function secondPage(edit: (entries: Pair[]) => void): string {
  const entries = all.slice(50, 101).map(ordRune);
  edit(entries);
  return stringify({ entries, more: true, prev: 0, next: 2 })!;
}
const NUMBERS = (offset: number, limit: number) => `{ etchings(offset: ${offset}, limit: ${limit}) { total results { number } } }`;

test.each([
  // Before: one etching and total 302, no error.
  ['two entries with one number', (e: Pair[]) => void (e[1]![1].number = e[0]![1].number)],
  ['numbers going up', (e: Pair[]) => void ([e[1], e[2]] = [e[2]!, e[1]!])],
  // Before: the two etchings above the hole, no error.
  ['a number skipped', (e: Pair[]) => void e.splice(2, 1)],
])('a page 0 with %s lies: UPSTREAM_ERROR, REST 502, never a short page', async (_name, edit) => {
  stack.sample.inject({ path: '/runes/0', status: 200, body: firstPage(edit) });
  expect((await stack.graphql(NUMBERS(0, 5))).body).toEqual(UNFIT);
  const rest = await fetch(`${stack.gatewayUrl}/runes/v1/etchings?limit=5`);
  expect([rest.status, await rest.json()]).toEqual([502, BAD_GATEWAY]);
  // Each read once more past the cache, as pages read at different times are, then refused; the
  // GraphQL request reuses its index height, the REST one (CACHE_TTL_MS=0 here) asks it again.
  expect(paths()).toEqual([...firstCalls(), '/runes/0', ...firstCalls(), ...firstCalls()].sort());
});

test.each([
  // Before: read as a page size of -1, and /runes/-50 asked.
  [
    'an entry numbered above the newest',
    (e: Pair[]) => void e.splice(0, e.length, [e[0]![0], { ...e[0]![1], number: BigInt(all.length) }]),
  ],
  // Before: the other rune served where page 0's look-ahead had placed its own.
  ['another rune where page 0’s look-ahead is', (e: Pair[]) => void (e[0]![0] = '840000:999')],
])('a later page with %s lies: UPSTREAM_ERROR, nothing more asked', async (_name, edit) => {
  stack.sample.inject({ path: '/runes/1', status: 200, body: secondPage(edit) });
  expect((await stack.graphql(NUMBERS(48, 5))).body).toEqual(UNFIT);
  // Both pages read once more past the cache, then refused; nothing beyond them.
  expect(paths()).toEqual([...firstCalls(), '/runes/1', '/runes/0', '/runes/1'].sort());
});

test('a page cached before a new etching, beside page 0 read after it, is read again: the window as it is now', async () => {
  const cached = await startStack((sample) => ({ ETCHINGS_SOURCE: 'ord', ORD_API_URL: sample.baseUrl, CACHE_TTL_MS: '2000' }), {
    sources: { ord: {} },
  });
  try {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Page 0 cached now; page 1 a second later; then three runes are etched, which moves every rune down
    // three places (one would only move page 1's first entry to where page 0's look-ahead was).
    await cached.graphql(NUMBERS(0, 5));
    // Page 0 was stored before its answer came back: its 2 s are over by cachedAt + 2 s.
    const cachedAt = Date.now();
    await sleep(1000);
    await cached.graphql(NUMBERS(45, 10));
    cached.sample.activity.etch(3);
    // Page 0 is asked again (its 2 s are over), page 1 still answered from the cache: they disagree.
    await sleep(cachedAt + 2100 - Date.now());
    cached.sample.clearLog();
    const now = cached.sample.activity.etchings();
    expect((await cached.graphql(NUMBERS(45, 10))).body).toEqual({
      data: { etchings: { total: now.length, results: now.slice(45, 55).map((e) => ({ number: e.number })) } },
      extensions: { sources: [{ source: 'ord', height: expect.any(Number), unavailable: [] }] },
    });
    // Page 0 and the index height asked (their time was over), page 1 from the cache; then both pages
    // past it. (Block hashes are asked per block, for the blocks the window newly holds.)
    const pages = callsOf(cached.sample)
      .map((c) => c.path)
      .filter((path) => !path.startsWith('/r/blockhash/'))
      .sort();
    expect(pages).toEqual(['/blockheight', '/runes/0', '/runes/0', '/runes/1']);
  } finally {
    await cached.close();
  }
});

test('a last page shorter than the others is no lie: the window ends with the list', async () => {
  const { body } = await stack.graphql(NUMBERS(all.length - 3, 10));
  expect(body.data).toEqual({ etchings: { total: all.length, results: all.slice(-3).map((e) => ({ number: e.number })) } });
});

test('a 404 on a runes page is no empty list (ord answers every page): UPSTREAM_ERROR, REST 502', async () => {
  // What a wrong ORD_API_URL, or a proxy in front of ord, answers: not ord's runes route.
  stack.sample.inject({ path: '/runes/0', status: 404, body: 'Not Found' });
  expect((await stack.graphql(PAGE_QUERY)).body).toEqual({
    data: { etchings: null },
    errors: [fieldError(['etchings'], { code: 'UPSTREAM_ERROR', service: 'runes', source: 'ord', httpStatus: 404 })],
    extensions: { sources: [{ source: 'ord', height: null, unavailable: [] }] },
  });
  const rest = await fetch(`${stack.gatewayUrl}/runes/v1/etchings?limit=1`);
  expect([rest.status, await rest.json()]).toEqual([
    502,
    { statusCode: 502, error: 'Bad Gateway', message: 'The ord service answered with HTTP 404' },
  ]);
});

test('an ord without a rune index (its default) is an error saying so, never an empty list of runes', async () => {
  const unindexed = await startStack((sample) => ({ ETCHINGS_SOURCE: 'ord', ORD_API_URL: sample.baseUrl }), {
    sources: { ord: { runeIndex: false } },
  });
  try {
    const message = 'The ord server has no rune index: start it with --index-runes';
    const { body } = await unindexed.graphql(PAGE_QUERY);
    expect(body).toEqual({
      data: { etchings: null },
      errors: [{ ...fieldError(['etchings'], { code: 'UPSTREAM_ERROR', service: 'runes', source: 'ord', httpStatus: 200 }), message }],
      extensions: { sources: [{ source: 'ord', height: null, unavailable: [] }] },
    });
    const rest = await fetch(`${unindexed.gatewayUrl}/runes/v1/etchings?limit=1`);
    expect([rest.status, await rest.json()]).toEqual([502, { statusCode: 502, error: 'Bad Gateway', message }]);
  } finally {
    await unindexed.close();
  }
});

test('UPSTREAM_TIMEOUT_MS bounds the whole list: a page and then its block hashes, each within it alone, fail together past it', async () => {
  // A stack of its own: deep block hashes are kept for good, and earlier tests read these.
  const fresh = await startStack((sample) => ({ ETCHINGS_SOURCE: 'ord', ORD_API_URL: sample.baseUrl }), { sources: { ord: {} } });
  try {
    // Page 0 and the height side by side, then the blocks' hashes: two rounds of 1.2 s under 2 s.
    fresh.sample.inject({ path: /^\/(runes\/0|blockheight|r\/blockhash\/\d+)$/, delayMs: 1200 });
    const { body } = await fresh.graphql('{ etchings(limit: 3) { results { location { blockHash } } } }');
    expect(body).toEqual({
      data: { etchings: null },
      errors: [fieldError(['etchings'], { code: 'UPSTREAM_TIMEOUT', service: 'runes', source: 'ord' })],
      extensions: { sources: [{ source: 'ord', height: null, unavailable: [] }] },
    });
  } finally {
    await fresh.close();
  }
});

test.each([
  ['a route 404 (an empty body)', ''],
  ["a proxy's page", '<html><body>404 Not Found</body></html>'],
  ["a Go server's 404", '404 page not found\n'],
])('%s for a rune is UPSTREAM_ERROR, not "no such rune"; ord’s own not-found is null', async (_name, body) => {
  const id = all[0]!.id;
  const query = `{ node(id: "${globalId('RuneEtching', id)}") { ... on RuneEtching { runeId spacedName } } }`;
  stack.sample.inject({ path: /^\/rune\//, times: 1, status: 404, body });
  expect((await stack.graphql(query)).body).toEqual({
    data: { node: null },
    errors: [fieldError(['node'], { code: 'UPSTREAM_ERROR', service: 'runes', source: 'ord', httpStatus: 404 })],
    extensions: { sources: [{ source: 'ord', height: null, unavailable: [] }] },
  });
  stack.sample.inject({ path: /^\/rune\//, times: 1, status: 404, body: `rune ${id} not found` });
  expect((await stack.graphql(query)).body.data).toEqual({ node: null });
});
