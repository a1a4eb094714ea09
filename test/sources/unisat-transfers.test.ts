/**
 * TRANSFERS_SOURCE=unisat: transfers per block from UniSat's inscription events, against the
 * sample's UniSat profile (pages of at most 48 events, mints among the transfers, the next block's
 * events in the same answers, one inscription moved twice in a block of more than 60 transfers).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { BIG_TRANSFER_BLOCK, blockHash, sampleData } from '../../src/sample/data.js';
import { MOVED_TWICE_INDEX, NEXT_TO_BIG_BLOCK, UNISAT_TIP, unisatEvents } from '../../src/sample/sources-data.js';
import { startStack, type Stack } from '../harness.js';
import { UNAVAILABLE, hiroNewestFirst, transferFromUnisat } from '../sources-expected.js';
import { BYTES_ETAG, TRANSFER_PAGE_FIELDS, callsOf, fieldError, globalId } from '../support.js';

const UNISAT_KEY = 'unisat-secret-key-9b20c4';
const SOURCES = [{ source: 'unisat', height: UNISAT_TIP, unavailable: [...UNAVAILABLE.unisat.transfers] }];

const fromUnisat = transferFromUnisat;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack(
    (sample) => ({
      TRANSFERS_SOURCE: 'unisat',
      UNISAT_API_URL: sample.baseUrl,
      UNISAT_API_KEY: UNISAT_KEY,
      UNISAT_RATE_LIMIT_PER_SECOND: '1000',
    }),
    { sources: { unisat: { apiKey: UNISAT_KEY, eventsPageSize: 48 } } },
  );
});
afterAll(() => stack.close());
afterEach(() => stack.sample.reset());

const eventsCall = (height: number, cursor: number) => ({
  method: 'GET',
  path: '/v1/indexer/inscription/events',
  query: { start: String(height), end: String(height + 1), cursor: String(cursor), size: '100' },
});
const blockCall = (height: number) => ({ method: 'GET', path: `/v1/indexer/height/${height}/block`, query: {} });

describe('transfers per block from UniSat', () => {
  test('a block of more than 60 transfers: hiro’s pages, mints and the next block left out, one moved twice', async () => {
    // UniSat has one transfer more than hiro's sample there: the second move of one inscription, the block's last.
    const hiro = hiroNewestFirst(BIG_TRANSFER_BLOCK);
    const moved = hiro[hiro.length - 1 - MOVED_TWICE_INDEX]!;
    // Every one a place further down the list than on hiro: global ids name their own offsets.
    const all = [fromUnisat({ ...moved, to: { ...moved.to, value: '330' } }), ...hiro.map(fromUnisat)].map((t, offset) => ({
      ...t,
      id: globalId('InscriptionTransfer', `${BIG_TRANSFER_BLOCK}:${offset}:${t.inscriptionId}`),
    }));
    expect(all).toHaveLength(78);
    const query = `query ($o: Int!) { transfers(block: ${BIG_TRANSFER_BLOCK}, offset: $o, limit: 60) { ${TRANSFER_PAGE_FIELDS} } }`;
    const first = await stack.graphql(query, { o: 0 });
    expect(first.body).toEqual({
      data: { transfers: { limit: 60, offset: 0, total: 78, results: all.slice(0, 60) } },
      extensions: { sources: SOURCES },
    });
    const second = await stack.graphql(query, { o: 60 });
    expect(second.body.data).toEqual({ transfers: { limit: 60, offset: 60, total: 78, results: all.slice(60) } });
    // The inscription moved twice is two transfers.
    expect(all.filter((t) => t.inscriptionId === moved.inscriptionId)).toHaveLength(2);
    expect(new Set(all.map((t) => t.id)).size).toBe(78);
    // Each answer read the whole block: its hash, then every page of events, the next block's rows included.
    const inRange = unisatEvents.filter((e) => e.height === BIG_TRANSFER_BLOCK || e.height === NEXT_TO_BIG_BLOCK).length;
    const cursors = Array.from({ length: Math.ceil(inRange / 48) }, (_, k) => k * 48);
    expect(cursors).toEqual([0, 48, 96]);
    const oneAnswer = [blockCall(BIG_TRANSFER_BLOCK), ...cursors.map((c) => eventsCall(BIG_TRANSFER_BLOCK, c))];
    expect(callsOf(stack.sample)).toEqual([...oneAnswer, ...oneAnswer]);
    expect(
      stack.sample.requests.every((r) => r.headers.authorization === `Bearer ${UNISAT_KEY}` && r.headers['x-api-key'] === undefined),
    ).toBe(true);
  });

  test('node: a transfer past the first 60 of its block, through the page that holds it; the same object', async () => {
    const query = `{ transfers(block: ${BIG_TRANSFER_BLOCK}, offset: 60, limit: 60) { results { id inscriptionId number to { blockHeight value } } } }`;
    const listed = (await stack.graphql(query)).body.data!.transfers as { results: Array<{ id: string }> };
    const pageCalls = callsOf(stack.sample);
    stack.sample.clearLog();
    const ids = [listed.results[5]!.id, listed.results[17]!.id];
    const { body } = await stack.graphql(
      `query ($ids: [ID!]!) { nodes(ids: $ids) { ... on InscriptionTransfer { id inscriptionId number to { blockHeight value } } } }`,
      { ids },
    );
    expect(body).toEqual({
      data: { nodes: [listed.results[5], listed.results[17]] },
      extensions: { sources: [{ source: 'unisat', height: UNISAT_TIP, unavailable: [] }] },
    });
    // One page read, as the list's own: the ids share it.
    expect(callsOf(stack.sample)).toEqual(pageCalls);
  });

  test('an ordinary block agrees with hiro on every field UniSat gives; by hash as by height', async () => {
    const expected = hiroNewestFirst(800000).map(fromUnisat);
    const byHeight = await stack.graphql(`{ transfers(block: 800000, offset: 2, limit: 5) { ${TRANSFER_PAGE_FIELDS} } }`);
    expect(byHeight.body.data).toEqual({ transfers: { limit: 5, offset: 2, total: expected.length, results: expected.slice(2, 7) } });
    stack.sample.clearLog();
    const byHash = await stack.graphql(`{ transfers(block: "${blockHash(800000)}", offset: 2, limit: 5) { ${TRANSFER_PAGE_FIELDS} } }`);
    expect(byHash.body.data).toEqual(byHeight.body.data);
    expect(callsOf(stack.sample)).toEqual([
      { method: 'GET', path: `/v1/indexer/block/id/${blockHash(800000)}`, query: {} },
      eventsCall(800000, 0),
    ]);
  });

  test('a hash in capitals is not the block on hiro (exact compare): an empty page, whatever UniSat finds for it', async () => {
    const upper = blockHash(800000).toUpperCase();
    // As if UniSat matched hashes in either case: the block, under its own (lowercase) id.
    const info = { height: 800000, id: blockHash(800000) };
    stack.sample.inject({ path: `/v1/indexer/block/id/${upper}`, status: 200, body: { code: 0, msg: 'OK', data: info }, times: 1 });
    const { body } = await stack.graphql(`{ transfers(block: "${upper}") { limit offset total results { id } } }`);
    expect(body.data).toEqual({ transfers: { limit: 20, offset: 0, total: 0, results: [] } });
    expect(callsOf(stack.sample)).toEqual([{ method: 'GET', path: `/v1/indexer/block/id/${upper}`, query: {} }]);
  });

  test('a block without transfers, past the end, or unknown to UniSat is an empty page, as on hiro', async () => {
    const page = (block: number | string, offset = 0) =>
      stack.graphql(`{ transfers(block: ${JSON.stringify(block)}, offset: ${offset}) { limit offset total results { id } } }`);
    const empty = (offset = 0) => ({ transfers: { limit: 20, offset, total: 0, results: [] } });
    // Block 775617 holds only genesis reveals: UniSat lists no transfer there.
    expect((await page(775617)).body.data).toEqual(empty());
    expect((await page(800000, 500)).body.data).toEqual(empty(500));
    stack.sample.clearLog();
    expect((await page(950000)).body.data).toEqual(empty());
    expect(callsOf(stack.sample)).toEqual([blockCall(950000)]);
  });

  test('a page of the block’s events failing mid-walk is an error, never a list cut short', async () => {
    const query = `{ transfers(block: ${BIG_TRANSFER_BLOCK}, limit: 60) { total results { id } } }`;
    const failed = { code: 'UPSTREAM_ERROR', service: 'ordinals', source: 'unisat', httpStatus: 200 };
    for (const envelope of [
      { code: -1, msg: 'Unknown error, please try again later', data: null },
      { code: -1, msg: 'block not found', data: null },
      { code: 0, msg: 'OK', data: null },
    ]) {
      // Twice: pages that disagree are read once more past the cache (the next test) before failing.
      stack.sample.inject({ path: '/v1/indexer/inscription/events', query: /cursor=48&/, status: 200, body: envelope, times: 2 });
      const { body } = await stack.graphql(query);
      expect([body.data, body.errors]).toEqual([{ transfers: null }, [fieldError(['transfers'], failed)]]);
      // An error envelope fails the walk at once, leaving its second answer unspent.
      stack.sample.clearFaults();
    }
    // Asked again with nothing failing, the whole block: nothing short was kept.
    const { body } = await stack.graphql(query);
    expect((body.data!.transfers as { total: number }).total).toBe(78);
  });

  test('a number past GraphQL Int or a Timestamp is UniSat’s unreadable answer, never an internal error', async () => {
    const [row] = unisatEvents.filter((e) => e.height === 800000 && e.isTransfer);
    const bad = [{ timestamp: 2 ** 50 }, { inscriptionNumber: 2 ** 31 }, { txidx: 4294967296000 }];
    const answers = [];
    for (const fields of bad) {
      const body = { code: 0, msg: 'OK', data: { cursor: 0, total: 1, detail: [{ ...row, ...fields }] } };
      stack.sample.inject({ path: '/v1/indexer/inscription/events', status: 200, body, times: 1 });
      const { body: answer } = await stack.graphql(`{ transfers(block: 800000) { ${TRANSFER_PAGE_FIELDS} } }`);
      answers.push({ data: answer.data, errors: answer.errors });
    }
    const failed = { code: 'UPSTREAM_ERROR', service: 'ordinals', source: 'unisat', httpStatus: 200 };
    expect(answers).toEqual(bad.map(() => ({ data: { transfers: null }, errors: [fieldError(['transfers'], failed)] })));
    expect(stack.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50)).toEqual([]);
  });

  test('pages that do not add up are an error, never transfers served twice or cut short', async () => {
    const range = unisatEvents.filter((e) => e.height === BIG_TRANSFER_BLOCK || e.height === NEXT_TO_BIG_BLOCK);
    const total = range.length;
    const page = (cursor: number, rows: unknown[], claimed = total) => ({
      code: 0,
      msg: 'OK',
      data: { cursor, total: claimed, detail: rows },
    });
    // A query of its own: a result stored by another test would be confirmed page by page first.
    const query = `{ transfers(block: ${BIG_TRANSFER_BLOCK}, limit: 60) { results { id } } }`;
    const failed = { code: 'UPSTREAM_ERROR', service: 'ordinals', source: 'unisat', httpStatus: 200 };
    const cases: Array<[string, number, unknown]> = [
      // The cursor does not move: the first page's rows again.
      ['repeats rows', 48, page(48, range.slice(0, 48))],
      // One row of the first page among new ones.
      ['repeats one row', 48, page(48, [range[47], ...range.slice(49, 96)])],
      ['total grows', 48, page(48, range.slice(48, 96), total + 1)],
      ['nothing while more is claimed', 48, page(48, [])],
      // The first page claims 50 rows; the second brings 48 more, past that.
      ['more rows than the total', 0, page(0, range.slice(0, 48), 50)],
    ];
    const answers = [];
    for (const [name, cursor, body] of cases) {
      stack.sample.inject({ path: '/v1/indexer/inscription/events', query: new RegExp(`cursor=${cursor}&`), status: 200, body, times: 2 });
      const { body: answer } = await stack.graphql(query);
      answers.push([name, answer.data, answer.errors, callsOf(stack.sample)]);
      stack.sample.clearLog();
    }
    const pages = [eventsCall(BIG_TRANSFER_BLOCK, 0), eventsCall(BIG_TRANSFER_BLOCK, 48)];
    // The block located once; its two pages read, then read again together, then refused.
    const calls = [blockCall(BIG_TRANSFER_BLOCK), ...pages, ...pages];
    expect(answers).toEqual(cases.map(([name]) => [name, { transfers: null }, [fieldError(['transfers'], failed)], calls]));
    // REST says the same: 502 in hiro's error format.
    stack.sample.inject({ path: '/v1/indexer/inscription/events', query: /cursor=48&/, status: 200, body: cases[0]![2], times: 2 });
    const response = await fetch(`${stack.gatewayUrl}/ordinals/v1/inscriptions/transfers?block=${BIG_TRANSFER_BLOCK}`);
    expect([response.status, await response.json()]).toEqual([
      502,
      {
        statusCode: 502,
        error: 'Bad Gateway',
        message: "The unisat service's pages of the block's inscription events do not agree with each other",
      },
    ]);
  });

  test('pages that disagree once (read at different times) are read again together: the whole block, once', async () => {
    const range = unisatEvents.filter((e) => e.height === BIG_TRANSFER_BLOCK || e.height === NEXT_TO_BIG_BLOCK);
    // The second page as a cached one from before the next block was indexed could say: another total.
    const stale = { code: 0, msg: 'OK', data: { cursor: 48, total: range.length + 1, detail: range.slice(48, 96) } };
    stack.sample.inject({ path: '/v1/indexer/inscription/events', query: /cursor=48&/, status: 200, body: stale, times: 1 });
    const query = `{ transfers(block: ${BIG_TRANSFER_BLOCK}, limit: 60) { total } }`;
    const { body } = await stack.graphql(query);
    expect(body).toEqual({ data: { transfers: { total: 78 } }, extensions: expect.anything() });
    const pages = [eventsCall(BIG_TRANSFER_BLOCK, 0), eventsCall(BIG_TRANSFER_BLOCK, 48)];
    // Refused at the second page; read again, the block's three pages agree.
    expect(callsOf(stack.sample)).toEqual([blockCall(BIG_TRANSFER_BLOCK), ...pages, ...pages, eventsCall(BIG_TRANSFER_BLOCK, 96)]);
  });

  test('the whole walk of a block’s pages waits UPSTREAM_TIMEOUT_MS at most, not that much per page', async () => {
    // Each page answers well within the deadline (2000 ms in the harness); the three of the block do not.
    stack.sample.inject({ path: '/v1/indexer/inscription/events', delayMs: 800 });
    const started = Date.now();
    const response = await fetch(`${stack.gatewayUrl}/ordinals/v1/inscriptions/transfers?block=${BIG_TRANSFER_BLOCK}`);
    const waited = Date.now() - started;
    expect([response.status, await response.json()]).toEqual([
      504,
      { statusCode: 504, error: 'Gateway Timeout', message: 'The unisat service did not answer in time' },
    ]);
    expect(waited).toBeGreaterThanOrEqual(2000);
    expect(waited).toBeLessThan(2700);
    // The third page was asked at 1600 ms and cut at the deadline.
    expect(callsOf(stack.sample)).toEqual([
      blockCall(BIG_TRANSFER_BLOCK),
      eventsCall(BIG_TRANSFER_BLOCK, 0),
      eventsCall(BIG_TRANSFER_BLOCK, 48),
      eventsCall(BIG_TRANSFER_BLOCK, 96),
    ]);
  });

  test('a block of more events than the gateway reads is refused saying so', async () => {
    const events = (cursor: number) => ({
      code: 0,
      msg: 'OK',
      data: {
        total: 1_000_000,
        detail: [
          {
            isTransfer: true,
            inscriptionId: `${'ab'.repeat(32)}i${cursor}`,
            inscriptionNumber: cursor,
            timestamp: 1,
            height: 800000,
            txidx: 0,
          },
        ],
      },
    });
    for (let cursor = 0; cursor < 60; cursor++) {
      stack.sample.inject({
        path: '/v1/indexer/inscription/events',
        query: new RegExp(`cursor=${cursor}&`),
        status: 200,
        body: events(cursor),
        times: 1,
      });
    }
    const response = await fetch(`${stack.gatewayUrl}/ordinals/v1/inscriptions/transfers?block=800000`);
    expect([response.status, await response.json()]).toEqual([
      502,
      {
        statusCode: 502,
        error: 'Bad Gateway',
        message: 'The block has more inscription events than the gateway reads from the unisat service (60 pages)',
      },
    ]);
  });

  test('REST: hiro’s body with null where UniSat has nothing, named by x-data-source', async () => {
    const response = await fetch(`${stack.gatewayUrl}/ordinals/v1/inscriptions/transfers?block=840000&limit=2&offset=1`);
    expect([response.status, response.headers.get('x-data-source'), BYTES_ETAG.test(response.headers.get('etag') ?? '')]).toEqual([
      200,
      'unisat',
      true,
    ]);
    const hiro = [...sampleData.transferBlocks.find((b) => b.height === 840000)!.transfers].reverse();
    const results = hiro.slice(1, 3).map((t) => ({
      id: t.id,
      number: t.number,
      from: null,
      to: { ...t.to, address: null, tx_id: null, location: null, output: null, offset: null },
    }));
    expect(await response.json()).toEqual({ limit: 2, offset: 1, total: hiro.length, results });
  });
});
