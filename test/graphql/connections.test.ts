// Relay connections over the 60-item upstream pages: exact windows, upstream calls from the request
// log, cursors that survive prepended etchings, backward paging, expired and malformed cursors.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectionCost, encodeCursor } from '../../src/graphql/schema/cursor-paging.js';
import { BIG_TRANSFER_BLOCK, sampleData, type Etching } from '../../src/sample/data.js';
import { startStack, type Stack } from '../harness.js';
import { callsOf, fieldError, toEtching, toTransfer } from '../support.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());
beforeEach(() => stack.sample.reset());

const ETCHING_FIELDS = `id runeId name spacedName number divisibility symbol turbo
  mintTerms { amount cap heightStart heightEnd offsetStart offsetEnd }
  supply { current minted totalMints mintPercentage mintable burned totalBurns premine }
  location { blockHash blockHeight txId txIndex vout output timestamp }`;
const CONNECTION = (fields: string) =>
  `totalCount edges { cursor node { ${fields} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }`;
const ETCHINGS = `query($first: Int, $after: String, $last: Int, $before: String) {
  etchingsConnection(first: $first, after: $after, last: $last, before: $before) { ${CONNECTION(ETCHING_FIELDS)} } }`;
const ETCHING_IDS = `query($first: Int, $after: String, $last: Int, $before: String) {
  etchingsConnection(first: $first, after: $after, last: $last, before: $before) { ${CONNECTION('id: runeId')} } }`;

interface Edge {
  cursor: string;
  node: { id: string };
}
interface Conn {
  totalCount: number;
  edges: Edge[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

async function etchings(variables: Record<string, unknown>, query = ETCHING_IDS): Promise<Conn> {
  const { body } = await stack.graphql(query, variables);
  expect(body.errors).toBeUndefined();
  return body.data!.etchingsConnection as Conn;
}

const list = () => stack.sample.activity.etchings();
const total = () => stack.sample.activity.etchingsTotal();
const cursorAt = (pos: number, etching: Etching, seenTotal = total()) =>
  encodeCursor('etchings', { pos, total: seenTotal, id: etching.id });
const pagesAsked = () =>
  callsOf(stack.sample)
    .map((c) => `${c.path}?offset=${c.query.offset}&limit=${c.query.limit}`)
    .sort();
const etchingPages = (...offsets: number[]) => offsets.map((o) => `/runes/v1/etchings?offset=${o}&limit=60`).sort();
/** A connection's answer to a cursor it refuses: the field null, one error naming the argument and why. */
const cursorRefused = (field: string, argument: string, reason: 'CURSOR_INVALID' | 'CURSOR_EXPIRED') => ({
  data: { [field]: null },
  errors: [
    {
      message:
        reason === 'CURSOR_INVALID'
          ? `${argument} is not a cursor of this connection`
          : `${argument} points at an item that is no longer in the list`,
      locations: expect.any(Array),
      path: [field],
      extensions: { code: 'BAD_USER_INPUT', argument, reason },
    },
  ],
});

describe('windows are exact against the upstream data', () => {
  it.each([
    [1, [0]],
    [60, [0, 60]],
    [61, [0, 60]],
    [500, [0, 60, 120, 180, 240, 300, 360, 420, 480]],
  ])('first: %i', async (first, pages) => {
    stack.sample.activity.etch(250); // 552 etchings, so that 500 is a window inside the list
    stack.sample.clearLog();
    const expected = list().slice(0, first);
    const { body } = await stack.graphql(ETCHINGS, { first });
    expect(body).toEqual({
      data: {
        etchingsConnection: {
          totalCount: total(),
          edges: expected.map((e, pos) => ({ cursor: cursorAt(pos, e), node: toEtching(e) })),
          pageInfo: {
            hasNextPage: true,
            hasPreviousPage: false,
            startCursor: cursorAt(0, expected[0]!),
            endCursor: cursorAt(first - 1, expected.at(-1)!),
          },
        },
      },
    });
    expect(pagesAsked()).toEqual(etchingPages(...pages));
  });

  it('defaults to 20; the last page says there is no next one', async () => {
    const first = await etchings({});
    expect(first.edges.map((e) => e.node.id)).toEqual(
      list()
        .slice(0, 20)
        .map((e) => e.id),
    );
    const n = list().length;
    const tail = await etchings({ first: 500, after: cursorAt(n - 3, list()[n - 3]!) });
    expect(tail).toEqual({
      totalCount: total(),
      edges: list()
        .slice(n - 2)
        .map((e, i) => ({ cursor: cursorAt(n - 2 + i, e), node: { id: e.id } })),
      pageInfo: {
        hasNextPage: false,
        hasPreviousPage: true,
        startCursor: cursorAt(n - 2, list()[n - 2]!),
        endCursor: cursorAt(n - 1, list()[n - 1]!),
      },
    });
  });

  it('aliases of overlapping windows share their upstream pages', async () => {
    const { body } = await stack.graphql(
      `{ a: etchingsConnection(first: 60) { totalCount } b: etchingsConnection(first: 100) { totalCount } }`,
    );
    expect(body).toEqual({ data: { a: { totalCount: total() }, b: { totalCount: total() } } });
    expect(pagesAsked()).toEqual(etchingPages(0, 60));
  });

  it('transfersConnection spans the 60-item limit of a block of 77', async () => {
    const transfers = [...sampleData.transferBlocks.find((b) => b.height === BIG_TRANSFER_BLOCK)!.transfers].reverse();
    const query = `query($after: String) { transfersConnection(block: ${BIG_TRANSFER_BLOCK}, first: 70, after: $after) {
      totalCount edges { node { id inscriptionId number from { address } to { value } } } pageInfo { hasNextPage hasPreviousPage } } }`;
    const cursor = (pos: number) => encodeCursor('transfers', { pos, total: 77, id: transfers[pos]!.id }, String(BIG_TRANSFER_BLOCK));
    const pick = (t: (typeof transfers)[number]) => {
      const full = toTransfer(t);
      return {
        node: {
          id: full.id,
          inscriptionId: full.inscriptionId,
          number: full.number,
          from: { address: full.from.address },
          to: { value: full.to.value },
        },
      };
    };
    expect((await stack.graphql(query)).body).toEqual({
      data: {
        transfersConnection: {
          totalCount: 77,
          edges: transfers.slice(0, 70).map(pick),
          pageInfo: { hasNextPage: true, hasPreviousPage: false },
        },
      },
    });
    expect((await stack.graphql(query, { after: cursor(69) })).body).toEqual({
      data: {
        transfersConnection: {
          totalCount: 77,
          edges: transfers.slice(70).map(pick),
          pageInfo: { hasNextPage: false, hasPreviousPage: true },
        },
      },
    });
  });

  it('a block without transfers is an empty connection (the upstream answers an empty 200)', async () => {
    const { body } = await stack.graphql(
      '{ transfersConnection(block: 12) { totalCount edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }',
    );
    expect(body).toEqual({
      data: {
        transfersConnection: {
          totalCount: 0,
          edges: [],
          pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
        },
      },
    });
    expect(callsOf(stack.sample)).toEqual([
      { method: 'GET', path: '/ordinals/v1/inscriptions/transfers', query: { block: '12', offset: '0', limit: '60' } },
    ]);
  });
});

describe('cursors survive new etchings', () => {
  it('paging forward while etchings are prepended returns every item exactly once', async () => {
    const snapshot = list().map((e) => e.id);
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; ; page++) {
      const conn: Conn = await etchings({ first: 37, after });
      seen.push(...conn.edges.map((e) => e.node.id));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
      // Between pages: one, several, then more than an upstream page of new etchings.
      stack.sample.activity.etch([1, 3, 0, 61, 2, 7, 1, 0, 5][page % 9]!);
    }
    expect(seen).toEqual(snapshot);
  });

  it('paging backward from the end reaches the newest, every item once, new ones included', async () => {
    const seen: string[] = [];
    let before: string | null = null;
    for (let page = 0; ; page++) {
      const conn: Conn = await etchings({ last: 45, before });
      seen.unshift(...conn.edges.map((e) => e.node.id));
      if (!conn.pageInfo.hasPreviousPage) break;
      before = conn.pageInfo.startCursor;
      if (page === 2) stack.sample.activity.etch(4);
    }
    expect(seen).toEqual(list().map((e) => e.id));
  });

  it('last without before is the oldest items, in list order', async () => {
    const n = list().length;
    const conn = await etchings({ last: 3 });
    expect(conn).toEqual({
      totalCount: total(),
      edges: list()
        .slice(n - 3)
        .map((e, i) => ({ cursor: cursorAt(n - 3 + i, e), node: { id: e.id } })),
      pageInfo: {
        hasNextPage: false,
        hasPreviousPage: true,
        startCursor: cursorAt(n - 3, list()[n - 3]!),
        endCursor: cursorAt(n - 1, list()[n - 1]!),
      },
    });
  });

  it('a cursor whose item is gone is CURSOR_EXPIRED, never a shifted page', async () => {
    const [added] = stack.sample.activity.etch(1);
    const cursor = cursorAt(0, added!);
    stack.sample.activity.reset(); // the etching vanishes (a reorg)
    const { body } = await stack.graphql(ETCHING_IDS, { first: 5, after: cursor });
    expect(body).toEqual(cursorRefused('etchingsConnection', 'after', 'CURSOR_EXPIRED'));
  });
});

describe('a cursor at or past the end is CURSOR_EXPIRED, after the one call that learns the total', () => {
  it.each([
    // Forged: its position never becomes an upstream offset (9,999,999,960 was asked for, and its
    // answer blamed on the upstream).
    ['after', { first: 5 }, () => ({ pos: 9_999_999_998, total: 9_999_999_999 })],
    ['before', { last: 5 }, () => ({ pos: 9_999_999_998, total: 9_999_999_999 })],
    // Exactly at the end: the list's total is one past its last position.
    ['after', { first: 5 }, () => ({ pos: total(), total: total() + 1 })],
    ['before', {}, () => ({ pos: total(), total: total() + 1 })],
  ] as const)('%s, with %j', async (argument, window, anchor) => {
    const cursor = encodeCursor('etchings', { ...anchor(), id: list()[0]!.id });
    const { body } = await stack.graphql(ETCHING_IDS, { ...window, [argument]: cursor });
    expect(body).toEqual(cursorRefused('etchingsConnection', argument, 'CURSOR_EXPIRED'));
    expect(pagesAsked()).toEqual(etchingPages(0));
  });

  it('a list whose first page is empty: a cursor is expired (an empty page is no bad upstream answer)', async () => {
    const cursor = encodeCursor('transfers', { pos: 9_999_999_998, total: 9_999_999_999, id: `${'b'.repeat(64)}i0` }, '12');
    const { body } = await stack.graphql(
      'query($after: String) { transfersConnection(block: 12, first: 3, after: $after) { totalCount } }',
      { after: cursor },
    );
    expect(body).toEqual(cursorRefused('transfersConnection', 'after', 'CURSOR_EXPIRED'));
    expect(callsOf(stack.sample)).toEqual([
      { method: 'GET', path: '/ordinals/v1/inscriptions/transfers', query: { block: '12', offset: '0', limit: '60' } },
    ]);
  });

  it('a cursor inside the list still pages from its item: the first page, then its own', async () => {
    stack.sample.activity.etch(100);
    stack.sample.clearLog();
    const n = list().length;
    const conn = await etchings({ first: 2, after: cursorAt(n - 3, list()[n - 3]!) });
    expect(conn.edges.map((e) => e.node.id)).toEqual(
      list()
        .slice(n - 2)
        .map((e) => e.id),
    );
    const last = n - 3 - ((n - 3) % 60);
    expect(pagesAsked()).toEqual(etchingPages(0, last));
  });
});

describe('bad arguments never reach the upstream', () => {
  const transfersCursor = encodeCursor('transfers', { pos: 0, total: 77, id: `${'a'.repeat(64)}i0` }, '12');
  it.each([
    ['not base64url', { after: 'abc!' }, 'after'],
    ['not ours', { after: Buffer.from('hello').toString('base64url') }, 'after'],
    ['a transfers cursor', { before: transfersCursor }, 'before'],
    ['too long', { after: 'A'.repeat(257) }, 'after'],
    ['a position past its total', { after: Buffer.from('e:5:5:840000:1').toString('base64url') }, 'after'],
  ])('%s is CURSOR_INVALID', async (_name, variables, argument) => {
    const { body } = await stack.graphql(ETCHING_IDS, variables);
    expect(body).toEqual(cursorRefused('etchingsConnection', argument, 'CURSOR_INVALID'));
    expect(stack.sample.requests).toEqual([]);
  });

  it("a block's cursor is CURSOR_INVALID on another block holding its item; the same block named otherwise takes it", async () => {
    const page = `query($block: BlockId!, $after: String) {
      transfersConnection(block: $block, first: 1, after: $after) { edges { node { inscriptionId } } pageInfo { endCursor } } }`;
    const first = await stack.graphql(page, { block: 775700 });
    const cursor = (first.body.data!.transfersConnection as Conn).pageInfo.endCursor;
    const [, second] = [...sampleData.transferBlocks.find((b) => b.height === 775700)!.transfers].reverse();
    // Block 775701 holds the same two inscriptions, in the same order: the cursor's item is there too.
    expect(
      sampleData.transferBlocks
        .find((b) => b.height === 775701)!
        .transfers.map((t) => t.id)
        .sort(),
    ).toEqual(
      sampleData.transferBlocks
        .find((b) => b.height === 775700)!
        .transfers.map((t) => t.id)
        .sort(),
    );
    stack.sample.clearLog();
    expect((await stack.graphql(page, { block: 775701, after: cursor })).body).toEqual(
      cursorRefused('transfersConnection', 'after', 'CURSOR_INVALID'),
    );
    expect(stack.sample.requests).toEqual([]);
    expect((await stack.graphql(page, { block: '0775700', after: cursor })).body).toEqual({
      data: { transfersConnection: { edges: [{ node: { inscriptionId: second!.id } }], pageInfo: { endCursor: expect.any(String) } } },
    });
  });

  it.each([
    [{ first: 1, last: 1 }, 'last', 'first and last cannot be used together'],
    [{ first: 0 }, 'first', 'first must be from 1 to 500, got 0'],
    [{ last: 501 }, 'last', 'last must be from 1 to 500, got 501'],
  ])('%j is BAD_USER_INPUT', async (variables, argument, message) => {
    const { body } = await stack.graphql(ETCHING_IDS, variables);
    expect(body).toEqual({
      data: { etchingsConnection: null },
      errors: [{ message, locations: expect.any(Array), path: ['etchingsConnection'], extensions: { code: 'BAD_USER_INPUT', argument } }],
    });
    expect(stack.sample.requests).toEqual([]);
  });
});

it('connectionCost prices the upstream pages a window may need and its items', () => {
  expect([
    connectionCost({}),
    connectionCost({ first: 1 }),
    connectionCost({ last: 60 }),
    connectionCost({ first: 500 }),
    connectionCost({ fromVariables: true }),
  ]).toEqual([20 + 2 * 10, 1 + 2 * 10, 60 + 3 * 10, 500 + 10 * 10, 500 + 10 * 10]);
});

describe('UPSTREAM_TIMEOUT_MS bounds the whole field, not each of its calls', () => {
  it('a window whose two rounds each take most of the deadline fails UPSTREAM_TIMEOUT at the deadline', async () => {
    stack.sample.reset();
    // `last` learns the total from page 0, then reads the list's end: two rounds of 1.2 s under
    // the harness's 2 s deadline, each within it alone.
    stack.sample.inject({ path: '/runes/v1/etchings', delayMs: 1200 });
    stack.sample.clearLog();
    const { body } = await stack.graphql('{ etchingsConnection(last: 30) { edges { cursor } } }');
    expect(body).toEqual({
      data: { etchingsConnection: null },
      errors: [fieldError(['etchingsConnection'], { code: 'UPSTREAM_TIMEOUT', service: 'runes' })],
    });
    // Round 2 lands 0.4 s after the answer: no round 3 follows it for nobody.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(stack.upstreamCalls()).toEqual(['GET /runes/v1/etchings?offset=0&limit=60', 'GET /runes/v1/etchings?offset=180&limit=60']);
    stack.sample.reset();
  });

  it("a token's list call that fails late, then its own lookup, share one deadline", async () => {
    stack.sample.reset();
    stack.sample.clearLog();
    // 1.2 s each under the harness's 2 s: the list's failure, then the token's route it falls back on.
    stack.sample.inject({ path: '/ordinals/v1/brc-20/tokens', times: 1, delayMs: 1200, status: 500, body: { error: 'x' } });
    stack.sample.inject({ path: '/ordinals/v1/brc-20/tokens/ordi', times: 1, delayMs: 1200 });
    const { body } = await stack.graphql('{ brc20Token(ticker: "ordi") { token { ticker } } }');
    expect(body).toEqual({
      data: { brc20Token: null },
      errors: [fieldError(['brc20Token'], { code: 'UPSTREAM_TIMEOUT', service: 'ordinals' })],
    });
    expect(stack.upstreamCalls()).toEqual([
      'GET /ordinals/v1/brc-20/tokens?ticker=ordi&offset=0&limit=60',
      'GET /ordinals/v1/brc-20/tokens/ordi',
    ]);
    stack.sample.reset();
  });
});
