/**
 * ETCHINGS_SOURCE=unisat and ETCHINGS_SOURCE=ord: the etchings list from UniSat's runes list and
 * from an `ord server`'s `/runes` pages (u128 amounts as bare JSON numbers; 50 a page with the
 * code's look-ahead entry, or 100 as the docs say), against the sample's profiles.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { sampleData, type Etching } from '../../src/sample/data.js';
import { ORD_HEIGHT, unisatRune, unisatRunes } from '../../src/sample/sources-data.js';
import { startStack, type Stack } from '../harness.js';
import { etchingFromOrd, etchingFromOrdAt, etchingFromUnisat, restatedEtching } from '../sources-expected.js';
import {
  BYTES_ETAG,
  ETCHING_FIELDS,
  ETCHING_PAGE_FIELDS,
  callsOf,
  expectNoSecrets,
  fieldError,
  globalId,
  toEtching as toHiroEtching,
} from '../support.js';
import { RUNES_HEIGHT } from '../../src/sample/unisat.js';

const UNISAT_KEY = 'unisat-secret-key-0c55e1';
const ORD_AUTH = 'satgate:ord-password-81f2';
const U128_MAX = 2n ** 128n - 1n;
const all = sampleData.etchings;

const toEtching = restatedEtching;

test('hiro’s rules restate the sample’s etchings but the one constructed fixture', () => {
  expect(all.filter((e) => JSON.stringify(toEtching(e)) !== JSON.stringify(toHiroEtching(e))).map((e) => e.id)).toEqual([
    expect.any(String),
  ]);
});

const NODES = `query ($ids: [ID!]!) { nodes(ids: $ids) { ... on RuneEtching { ${ETCHING_FIELDS} } } }`;
/** An etching the sample has, one it has not: `nodes` answers the first and null. */
const refetched = (e: Etching) => [globalId('RuneEtching', e.id), globalId('RuneEtching', '1:999999')];

/** Every page of 60 the list has, as `etchings(offset, limit: 60)` answers them. */
async function everyPage(stack: Stack) {
  const pages = [];
  for (let offset = 0; offset < all.length; offset += 60) {
    const { body } = await stack.graphql(`{ etchings(offset: ${offset}, limit: 60) { ${ETCHING_PAGE_FIELDS} } }`);
    pages.push(body);
  }
  return pages;
}

/** The pages an expected list makes, with the answer's extensions. */
function pagesOf(expected: unknown[], sources: unknown) {
  const pages = [];
  for (let offset = 0; offset < all.length; offset += 60) {
    pages.push({
      data: { etchings: { limit: 60, offset, total: all.length, results: expected.slice(offset, offset + 60) } },
      extensions: { sources },
    });
  }
  return pages;
}

describe('UniSat', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(
      (sample) => ({
        ETCHINGS_SOURCE: 'unisat',
        UNISAT_API_URL: sample.baseUrl,
        UNISAT_API_KEY: UNISAT_KEY,
        UNISAT_RATE_LIMIT_PER_SECOND: '1000',
      }),
      { sources: { unisat: { apiKey: UNISAT_KEY } } },
    );
  });
  afterAll(() => stack.close());
  afterEach(() => stack.sample.reset());

  const fromUnisat = etchingFromUnisat;

  test('every etching, page by page: hiro’s answers but what UniSat lacks, one list call a page', async () => {
    const unavailable = ['RuneEtching.turbo', 'RuneLocation.blockHash', 'RuneSupply.totalBurns'];
    expect(await everyPage(stack)).toEqual(pagesOf(all.map(fromUnisat), [{ source: 'unisat', height: RUNES_HEIGHT, unavailable }]));
    expect(callsOf(stack.sample)).toEqual(
      [0, 60, 120, 180, 240, 300].map((start) => ({
        method: 'GET',
        path: '/v1/indexer/runes/info-list',
        query: { sort: 'timestamp', start: String(start), limit: '60' },
      })),
    );
  });

  test('a new etching of the sample (the demo etches one every 4 s) is the list’s newest, as on hiro', async () => {
    const [added] = stack.sample.activity.etch(1);
    const { body } = await stack.graphql(`{ etchings(limit: 2) { ${ETCHING_PAGE_FIELDS} } }`);
    expect(body.data).toEqual({ etchings: { limit: 2, offset: 0, total: all.length + 1, results: [added!, all[0]!].map(fromUnisat) } });
  });

  test('node: an etching by its rune id from UniSat’s rune info, as the list shows it; null for none', async () => {
    const e = all[7]!;
    const { body } = await stack.graphql(NODES, { ids: refetched(e) });
    expect(body).toEqual({
      data: { nodes: [fromUnisat(e), null] },
      extensions: {
        sources: [
          { source: 'unisat', height: RUNES_HEIGHT, unavailable: ['RuneEtching.turbo', 'RuneLocation.blockHash', 'RuneSupply.totalBurns'] },
        ],
      },
    });
    expect(callsOf(stack.sample).map((c) => `${c.method} ${c.path}`)).toEqual(
      [e.id, '1:999999'].map((id) => `GET /v1/indexer/runes/${encodeURIComponent(id)}/info`),
    );
  });

  test('REST: hiro’s body with null for what UniSat lacks; past the end, hiro’s empty page', async () => {
    const response = await fetch(`${stack.gatewayUrl}/runes/v1/etchings?offset=3&limit=2`);
    expect(response.headers.get('x-data-source')).toBe('unisat');
    // (Neither is the constructed fixture: hiro's body is restated as it is.)
    const expected = all
      .slice(3, 5)
      .map((e) => ({ ...e, turbo: null, supply: { ...e.supply, total_burns: null }, location: { ...e.location, block_hash: null } }));
    expect(await response.json()).toEqual({ limit: 2, offset: 3, total: all.length, results: expected });
    const past = await fetch(`${stack.gatewayUrl}/runes/etchings?offset=5000`);
    expect(await past.json()).toEqual({ limit: 20, offset: 5000, total: 0, results: [] });
  });

  test('a list page that UniSat fails with a "not found" message is an error, never an empty list', async () => {
    stack.sample.inject({
      path: '/v1/indexer/runes/info-list',
      status: 200,
      body: { code: -1, msg: 'Rune not found in cache', data: null },
    });
    const { body } = await stack.graphql('{ etchings(limit: 2) { total results { id } } }');
    expect(body.data).toEqual({ etchings: null });
    expect(body.errors).toEqual([
      fieldError(['etchings'], { code: 'UPSTREAM_ERROR', service: 'runes', source: 'unisat', httpStatus: 200 }),
    ]);
  });

  test('an amount longer than 100 digits is no amount: UPSTREAM_ERROR, REST 502, before BigInt reads it', async () => {
    // Before: BigInt read them (its parse is quadratic in the digits), and they were served.
    const detail = unisatRunes.slice(0, 2).map((e, i) => (i === 1 ? { ...e, burned: '9'.repeat(1_000_000) } : e));
    stack.sample.inject({
      path: '/v1/indexer/runes/info-list',
      status: 200,
      body: { code: 0, msg: 'OK', data: { total: all.length, detail } },
    });
    const { body } = await stack.graphql('{ etchings(limit: 2) { total results { supply { burned } } } }');
    expect(body).toEqual({
      data: { etchings: null },
      errors: [fieldError(['etchings'], { code: 'UPSTREAM_ERROR', service: 'runes', source: 'unisat', httpStatus: 200 })],
      extensions: { sources: [{ source: 'unisat', height: null, unavailable: [] }] },
    });
    const response = await fetch(`${stack.gatewayUrl}/runes/v1/etchings?limit=2`);
    expect([response.status, await response.json()]).toEqual([
      502,
      { statusCode: 502, error: 'Bad Gateway', message: 'The unisat service sent an answer that is not the JSON the gateway expects' },
    ]);
  });

  test('a number past GraphQL Int (or a Timestamp) is UniSat’s unreadable answer, never an internal error', async () => {
    const e = all.find((x) => x.mint_terms.height_end !== null)!;
    const entry = unisatRune(e);
    const entries = [
      // u64 terms UniSat may send: RuneMintTerms' fields are Ints.
      { ...entry, terms: { ...entry.terms, heightEnd: 4294967296000 } },
      { ...entry, terms: { ...entry.terms, offsetStart: 2 ** 31 } },
      // Seconds whose milliseconds are no safe integer.
      { ...entry, timestamp: 2 ** 50 },
    ];
    const answers = [];
    for (const bad of entries) {
      stack.sample.inject({
        path: `/v1/indexer/runes/${encodeURIComponent(e.id)}/info`,
        status: 200,
        body: { code: 0, msg: 'OK', data: bad },
        times: 1,
      });
      stack.sample.inject({
        path: '/v1/indexer/runes/info-list',
        status: 200,
        body: { code: 0, msg: 'OK', data: { total: all.length, start: 0, detail: [bad] } },
        times: 1,
      });
      const { body } = await stack.graphql(
        `query ($ids: [ID!]!) { nodes(ids: $ids) { ... on RuneEtching { ${ETCHING_FIELDS} } } etchings(limit: 1) { results { id } } }`,
        { ids: [globalId('RuneEtching', e.id)] },
      );
      answers.push({ data: body.data, errors: body.errors });
    }
    const failed = { code: 'UPSTREAM_ERROR', service: 'runes', source: 'unisat', httpStatus: 200 };
    expect(answers).toEqual(
      entries.map(() => ({
        data: { nodes: [null], etchings: null },
        errors: [fieldError(['nodes', 0], failed), fieldError(['etchings'], failed)],
      })),
    );
    // An upstream's answer, not the gateway's fault: nothing logged at error level.
    expect(stack.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50)).toEqual([]);
  });

  test('amounts longer than any real one (100 characters; a u128 has 39 digits) are refused', async () => {
    const e = all.find((x) => x.mint_terms.amount !== null && x.mint_terms.cap !== null)!;
    const entry = unisatRune(e);
    const long = '1'.repeat(101);
    const entries = [
      { ...entry, premine: long },
      { ...entry, supply: long },
      { ...entry, mints: long },
      { ...entry, burned: long },
      { ...entry, terms: { ...entry.terms, amount: long } },
      { ...entry, terms: { ...entry.terms, cap: long } },
    ];
    const answers = [];
    for (const bad of entries) {
      const path = `/v1/indexer/runes/${encodeURIComponent(e.id)}/info`;
      stack.sample.inject({ path, status: 200, body: { code: 0, msg: 'OK', data: bad }, times: 1 });
      const { body } = await stack.graphql(`query ($ids: [ID!]!) { nodes(ids: $ids) { ... on RuneEtching { ${ETCHING_FIELDS} } } }`, {
        ids: [globalId('RuneEtching', e.id)],
      });
      answers.push({ data: body.data, errors: body.errors });
    }
    const failed = { code: 'UPSTREAM_ERROR', service: 'runes', source: 'unisat', httpStatus: 200 };
    expect(answers).toEqual(entries.map(() => ({ data: { nodes: [null] }, errors: [fieldError(['nodes', 0], failed)] })));
  });

  test('REST: an ETag made from the answer; If-None-Match with it is 304 naming it, another page has its own', async () => {
    const url = `${stack.gatewayUrl}/runes/v1/etchings?offset=3&limit=2`;
    const first = await fetch(url);
    const etag = first.headers.get('etag') ?? '';
    expect([first.status, BYTES_ETAG.test(etag)]).toEqual([200, true]);
    // Before: no ETag, and If-None-Match was ignored (200 with the whole body every time).
    const again = await fetch(url, { headers: { 'if-none-match': etag } });
    expect([again.status, again.headers.get('etag'), again.headers.get('x-data-source'), await again.text()]).toEqual([
      304,
      etag,
      'unisat',
      '',
    ]);
    expect((await fetch(url, { headers: { 'if-none-match': `W/${etag}` } })).status).toBe(304);
    const other = await fetch(`${stack.gatewayUrl}/runes/v1/etchings?offset=5&limit=2`, { headers: { 'if-none-match': etag } });
    const otherBody = await other.json();
    expect([other.status, other.headers.get('etag') === etag, otherBody.offset]).toEqual([200, false, 5]);
    expect((await fetch(url)).headers.get('etag')).toBe(etag);
  });
});

const fromOrd = etchingFromOrd;
const ORD_SOURCES = [{ source: 'ord', height: ORD_HEIGHT, unavailable: ['RuneSupply.totalBurns'] }];

describe.each([
  { name: 'as the code serves them: 50 a page and a look-ahead entry', pageSize: 50, lookAhead: true },
  { name: 'as the docs say: 100 a page', pageSize: 100, lookAhead: false },
])('ord, pages $name', ({ pageSize, lookAhead }) => {
  // A gateway each: the block hashes one test asked are kept (they are final), and would not be asked again.
  let stack: Stack;
  beforeEach(async () => {
    stack = await startStack((sample) => ({ ETCHINGS_SOURCE: 'ord', ORD_API_URL: sample.baseUrl, ORD_API_AUTH: ORD_AUTH }), {
      sources: { ord: { auth: ORD_AUTH, pageSize, lookAhead } },
    });
  });
  afterEach(() => stack.close());

  test('every etching, page by page, exact: u128 amounts past 2^53 intact', async () => {
    const expected = all.map(fromOrd);
    // The sample's list holds amounts JSON.parse would round: a u128::MAX cap, 38-decimal amounts.
    expect(expected.some((e) => e.divisibility === 0 && e.mintTerms.cap === U128_MAX.toString())).toBe(true);
    expect(expected.some((e) => e.mintTerms.amount !== null && BigInt(e.mintTerms.amount.replace('.', '')) > 2n ** 53n)).toBe(true);
    expect(await everyPage(stack)).toEqual(pagesOf(expected, ORD_SOURCES));
  });

  test('a window across ord’s pages asks the pages that cover it, with basic auth and JSON', async () => {
    const { body } = await stack.graphql(`{ etchings(offset: 95, limit: 10) { ${ETCHING_PAGE_FIELDS} } }`);
    expect(body.data).toEqual({ etchings: { limit: 10, offset: 95, total: all.length, results: all.slice(95, 105).map(fromOrd) } });
    const runesPages = callsOf(stack.sample)
      .filter((c) => c.path.startsWith('/runes/'))
      .map((c) => c.path);
    // Page 0 tells the size and the newest rune; then the pages over 95..104.
    expect(runesPages).toEqual(pageSize === 50 ? ['/runes/0', '/runes/1', '/runes/2'] : ['/runes/0', '/runes/1']);
    const blocks = [...new Set(all.slice(95, 105).map((e) => e.location.block_height))];
    expect(
      callsOf(stack.sample)
        .filter((c) => !c.path.startsWith('/runes/'))
        .map((c) => c.path)
        .sort(),
    ).toEqual(['/blockheight', ...blocks.map((b) => `/r/blockhash/${b}`)].sort());
    for (const request of stack.sample.requests) {
      expect(request.headers).toMatchObject({
        authorization: `Basic ${Buffer.from(ORD_AUTH).toString('base64')}`,
        accept: 'application/json',
      });
      expect(request.headers['x-api-key']).toBeUndefined();
    }
  });

  test('a window past the last rune is an empty page after page 0: no page is asked for it', async () => {
    const { body } = await stack.graphql(`{ etchings(offset: 100000, limit: 60) { ${ETCHING_PAGE_FIELDS} } }`);
    expect(body).toEqual({
      data: { etchings: { limit: 60, offset: 100000, total: 0, results: [] } },
      extensions: { sources: [{ ...ORD_SOURCES[0], unavailable: [] }] },
    });
    expect(
      callsOf(stack.sample)
        .map((c) => c.path)
        .sort(),
    ).toEqual(['/blockheight', '/runes/0']);
  });

  test('UNCOMMON•GOODS, reserved by ord with its id’s block 1 and no transaction, is located as hiro has it, ord not asked', async () => {
    const last = all.length - 1;
    const reserved = {
      runeId: '1:0',
      turbo: true,
      location: {
        blockHeight: 840000,
        blockHash: '0000000000000000000320283a032748cef8227873ff4872689bf23f1cda83a5',
        txId: '',
        txIndex: 0,
        timestamp: 0,
      },
    };
    // ord lists the rune from its index's first block on: one still below 840000 has no hash for it.
    stack.sample.inject({ path: '/r/blockhash/840000', status: 404, body: 'blockhash not found' });
    const { body } = await stack.graphql(
      `{ etchings(offset: ${last}, limit: 1) { results { runeId turbo location { blockHeight blockHash txId txIndex timestamp } } } }`,
    );
    expect(body.data).toEqual({ etchings: { results: [reserved] } });
    const node = await stack.graphql(
      `{ node(id: "${globalId('RuneEtching', '1:0')}") { ... on RuneEtching { runeId location { blockHeight blockHash } } } }`,
    );
    expect(node.body.data).toEqual({ node: { runeId: '1:0', location: { blockHeight: 840000, blockHash: reserved.location.blockHash } } });
    expect(callsOf(stack.sample).filter((c) => c.path.startsWith('/r/blockhash/'))).toEqual([]);
  });

  test('a block hash 20 blocks under the index height is asked once; a newer one again each time', async () => {
    const query = '{ etchings(limit: 6) { results { location { blockHeight blockHash } } } }';
    const hashCalls = () => callsOf(stack.sample).flatMap((c) => (c.path.startsWith('/r/blockhash/') ? [c.path] : []));
    const first = await stack.graphql(query);
    const blocks = [...new Set(all.slice(0, 6).map((e) => e.location.block_height))];
    expect([blocks.length, blocks[0]! + 20 > ORD_HEIGHT, blocks[1]! + 20 <= ORD_HEIGHT]).toEqual([2, true, true]);
    expect(hashCalls().sort()).toEqual(blocks.map((b) => `/r/blockhash/${b}`).sort());
    stack.sample.clearLog();
    const again = await stack.graphql(query);
    expect(again.body).toEqual(first.body);
    expect(hashCalls()).toEqual([`/r/blockhash/${blocks[0]}`]);
  });

  test('a new etching of the sample is the list’s newest, at the index height it brings', async () => {
    const [added] = stack.sample.activity.etch(1);
    const height = added!.location.block_height;
    const { body } = await stack.graphql(`{ etchings(limit: 2) { ${ETCHING_PAGE_FIELDS} } }`);
    expect(body).toEqual({
      data: { etchings: { limit: 2, offset: 0, total: all.length + 1, results: [added!, all[0]!].map(etchingFromOrdAt(height)) } },
      extensions: { sources: [{ ...ORD_SOURCES[0], height }] },
    });
  });

  test('node: an etching by its rune id from ord’s /rune/{id}, as the list shows it; null for none', async () => {
    const e = all[7]!;
    // A tx past u32 is no rune id of ord's (its 400): null, as on hiro, and ord is not asked.
    const { body } = await stack.graphql(NODES, { ids: [...refetched(e), globalId('RuneEtching', '1:4294967296')] });
    expect(body).toEqual({ data: { nodes: [fromOrd(e), null, null] }, extensions: { sources: ORD_SOURCES } });
    expect(
      callsOf(stack.sample)
        .map((c) => c.path)
        .sort(),
    ).toEqual(
      [
        `/rune/${encodeURIComponent(e.id)}`,
        `/rune/${encodeURIComponent('1:999999')}`,
        '/blockheight',
        `/r/blockhash/${e.location.block_height}`,
      ].sort(),
    );
  });

  test('a failing page and a failing height at once fail the field alone, and nothing else', async () => {
    stack.sample.inject({ path: '/runes/0', status: 401, body: '', times: 1 });
    stack.sample.inject({ path: '/blockheight', status: 500, body: 'index error', times: 1 });
    const failed = await stack.graphql(`{ etchings { total } }`);
    expect(failed.body.errors).toEqual([
      fieldError(['etchings'], { code: 'UNAUTHENTICATED', service: 'runes', source: 'ord', httpStatus: 401 }),
    ]);
    // The height's failure, asked beside the page, was no unhandled rejection: the gateway goes on.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { body } = await stack.graphql(`{ etchings(limit: 1) { total } }`);
    expect(body).toEqual({
      data: { etchings: { total: all.length } },
      extensions: { sources: [{ source: 'ord', height: ORD_HEIGHT, unavailable: [] }] },
    });
  });

  test('ord refusing the credentials is UNAUTHENTICATED naming runes and ord; the password is nowhere', async () => {
    stack.sample.inject({ path: '/runes/0', status: 401, body: '' });
    const { body } = await stack.graphql(`{ etchings { total } }`);
    expect(body.errors).toEqual([fieldError(['etchings'], { code: 'UNAUTHENTICATED', service: 'runes', source: 'ord', httpStatus: 401 })]);
    expectNoSecrets(JSON.stringify(body) + stack.logs.join('\n'), ['ord-password-81f2', Buffer.from(ORD_AUTH).toString('base64')]);
  });
});
