// @defer and @stream over HTTP against the sample upstream: answers read as multipart/mixed, whole
// payloads asserted; a 500-edge connection streamed as its pages land; a JSON-only client gets the whole answer at
// once; errors of deferred fields keep the contract (over graphql-ws too); query limits refuse the same documents with the
// directives as without; the response fast path never stores an incremental answer; the three
// engines (graphql-js, graphql-jit, graphql-tools) give one answer for one document.
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { Defer20220824Handler } from '@apollo/client/incremental';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { encodeCursor } from '../../src/graphql/schema/cursor-paging.js';
import { RESPONSE_CACHE_OFF, startStack, type Stack } from '../harness.js';
import { callsOf } from '../support.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());
beforeEach(() => stack.sample.reset());

type Payload = Record<string, unknown>;

/** POSTs a document accepting multipart/mixed; answers the status, content type and each part's JSON. */
async function multipart(query: string, variables?: Record<string, unknown>, on = stack, headers: Record<string, string> = {}) {
  const response = await fetch(`${on.gatewayUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'multipart/mixed', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  return { status: response.status, type, payloads: partsOf(type, text) };
}

/** The JSON bodies of a multipart/mixed message (RFC 2046: `--boundary` lines, the last one `--boundary--`). */
function partsOf(type: string, text: string): Payload[] {
  const boundary = /boundary="?([^";]+)"?/.exec(type)?.[1];
  if (!boundary) throw new Error(`no boundary in ${type}`);
  const [, ...parts] = text.split(`\r\n--${boundary}`);
  expect(parts.pop()).toBe('--\r\n');
  return parts.map((part) => {
    const [headers, body] = [part.slice(0, part.indexOf('\r\n\r\n')), part.slice(part.indexOf('\r\n\r\n') + 4)];
    expect(headers.toLowerCase()).toContain('content-type: application/json; charset=utf-8');
    return JSON.parse(body) as Payload;
  });
}

async function metric(pattern: RegExp): Promise<number> {
  const text = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
  return Number(pattern.exec(text)?.[1] ?? 0);
}
const executions = (engine: string) => metric(new RegExp(`^satgate_graphql_executions_total\\{engine="${engine}"\\} (\\d+)$`, 'm'));
const stored = () => metric(/^satgate_response_cache_events_total\{event="stored"\} (\d+)$/m);

test('@defer: the fields outside first, the deferred fragment after, as multipart/mixed', async () => {
  const query = '{ status { status } ... @defer(label: "later") { etchings(limit: 1) { limit offset } } }';
  expect(await multipart(query)).toEqual({
    status: 200,
    type: 'multipart/mixed; boundary="-"',
    payloads: [
      { data: { status: { status: 'ready' } }, hasNext: true },
      { incremental: [{ data: { etchings: { limit: 1, offset: 0 } }, path: [], label: 'later' }], hasNext: false },
    ],
  });
  expect(stack.upstreamCalls()).toEqual(['GET /metadata/v1', 'GET /runes/v1/etchings?offset=0&limit=1']);
});

test('an answer in parts keeps the fields in the order of the query, whichever upstream answers last', async () => {
  // The first field's upstream answers after the others': its key still comes first (spec 7.2.2).
  stack.sample.inject({ path: '/runes/v1/etchings', delayMs: 100 });
  const query = '{ etchings(limit: 1) { limit } status { status } brc20Token(ticker: "ordi") { token { ticker ... @defer { number } } } }';
  const { payloads } = await multipart(query);
  expect(payloads).toEqual([
    { data: { etchings: { limit: 1 }, status: { status: 'ready' }, brc20Token: { token: { ticker: 'ordi' } } }, hasNext: true },
    { incremental: [{ data: { number: expect.any(Number) as number }, path: ['brc20Token', 'token'] }], hasNext: false },
  ]);
  expect(Object.keys(payloads[0]!.data as Payload)).toEqual(['etchings', 'status', 'brc20Token']);
});

test('@stream on a first: 500 connection: its edges follow the first payload, in order, each at its index', async () => {
  stack.sample.activity.etch(250); // 552 etchings: 500 is a window inside the list
  stack.sample.clearLog();
  const etchings = stack.sample.activity.etchings().slice(0, 500);
  const total = stack.sample.activity.etchingsTotal();
  const cursor = (pos: number) => encodeCursor('etchings', { pos, total, id: etchings[pos]!.id });
  const query = `{ etchingsConnection(first: 500) {
    totalCount edges @stream(initialCount: 2) { cursor node { runeId } } pageInfo { hasNextPage endCursor } } }`;
  const { status, type, payloads } = await multipart(query);
  expect({ status, type }).toEqual({ status: 200, type: 'multipart/mixed; boundary="-"' });
  const [first, ...rest] = payloads;
  const edge = (pos: number) => ({ cursor: cursor(pos), node: { runeId: etchings[pos]!.id } });
  expect(first).toEqual({
    data: { etchingsConnection: { totalCount: total, edges: [edge(0), edge(1)], pageInfo: { hasNextPage: true, endCursor: cursor(499) } } },
    hasNext: true,
  });
  // Every later payload: `incremental` items, then `hasNext`, false only on the last.
  expect(rest.map((payload) => Object.keys(payload))).toEqual(rest.map(() => ['incremental', 'hasNext']));
  expect(rest.map((payload) => payload.hasNext)).toEqual(rest.map((_, i) => i < rest.length - 1));
  expect(rest.flatMap((payload) => payload.incremental as unknown[])).toEqual(
    Array.from({ length: 498 }, (_, i) => ({ items: [edge(i + 2)], path: ['etchingsConnection', 'edges', i + 2] })),
  );
  // The window's nine 60-item pages, each asked once.
  const pages = callsOf(stack.sample).map((call) => `${call.path}?offset=${call.query.offset}`);
  expect(pages.sort()).toEqual([0, 60, 120, 180, 240, 300, 360, 420, 480].map((offset) => `/runes/v1/etchings?offset=${offset}`).sort());
});

test('@stream hands out the edges of the pages that landed while a later page never answers', async () => {
  stack.sample.activity.etch(250);
  stack.sample.clearLog();
  // The window's last page (offset 480) hangs until UPSTREAM_TIMEOUT_MS (2 s); the others answer at once.
  stack.sample.inject({ path: '/runes/v1/etchings', query: /(^|&)offset=480(&|$)/, hang: true });
  const etchings = stack.sample.activity.etchings();
  const total = stack.sample.activity.etchingsTotal();
  const edge = (pos: number) => ({
    cursor: encodeCursor('etchings', { pos, total, id: etchings[pos]!.id }),
    node: { runeId: etchings[pos]!.id },
  });
  const query = `{ etchingsConnection(first: 500) {
    totalCount edges @stream(initialCount: 2) { cursor node { runeId } } ... @defer { pageInfo { endCursor } } } }`;
  const timeouts = () => metric(/^satgate_graphql_errors_total\{code="UPSTREAM_TIMEOUT"\} (\d+)$/m);
  const timeoutsBefore = await timeouts();
  const { payloads } = await multipart(query);
  const [first, ...rest] = payloads;
  expect(first).toEqual({ data: { etchingsConnection: { totalCount: total, edges: [edge(0), edge(1)] } }, hasNext: true });
  const parts = rest.flatMap((payload) => payload.incremental as Array<{ items?: unknown[] | null; path: unknown[] }>);
  // The edges of the eight pages that answered, each in its own part, before the hung page failed.
  const streamed = parts.filter((part) => part.items);
  expect(streamed).toEqual(Array.from({ length: 478 }, (_, i) => ({ items: [edge(i + 2)], path: ['etchingsConnection', 'edges', i + 2] })));
  expect(parts.indexOf(streamed.at(-1)!)).toBeLessThan(parts.length - 2);
  // Then the stream's end and the deferred pageInfo, each the contract's error.
  const timeout = (path: unknown[], column: number) => ({
    message: 'The runes service did not answer in time',
    locations: [{ line: 2, column }],
    path,
    extensions: { code: 'UPSTREAM_TIMEOUT', service: 'runes' },
  });
  expect(parts.filter((part) => !part.items)).toEqual(
    expect.arrayContaining([
      { items: null, path: ['etchingsConnection', 'edges', 480], errors: [timeout(['etchingsConnection', 'edges', 480], 16)] },
      { data: null, path: ['etchingsConnection'], errors: [timeout(['etchingsConnection', 'pageInfo'], 87)] },
    ]),
  );
  expect(parts.length).toBe(480);
  // Errors inside parts are counted by code as any answer's.
  expect((await timeouts()) - timeoutsBefore).toBe(2);
  expect(rest.at(-1)!.hasNext).toBe(false);
});

test('@stream after a cursor: the streamed edges are the edges the whole answer has', async () => {
  stack.sample.activity.etch(100);
  const etchings = stack.sample.activity.etchings();
  const after = encodeCursor('etchings', { pos: 50, total: stack.sample.activity.etchingsTotal(), id: etchings[50]!.id });
  const connection = (edges: string) =>
    `{ etchingsConnection(first: 120, after: "${after}") { totalCount ${edges} { cursor node { runeId } } pageInfo { hasNextPage endCursor } } }`;
  const whole = (await stack.graphql(connection('edges'))).body.data!.etchingsConnection as { edges: unknown[] };
  expect(whole.edges).toHaveLength(120);
  const { payloads } = await multipart(connection('edges @stream(initialCount: 1)'));
  const [first, ...rest] = payloads;
  const streamed = (first!.data as { etchingsConnection: { edges: unknown[] } }).etchingsConnection;
  const items = rest.flatMap((payload) => (payload.incremental as Array<{ items: unknown[] }>).flatMap((part) => part.items));
  expect(streamed.edges).toHaveLength(1);
  expect({ ...streamed, edges: [...streamed.edges, ...items] }).toEqual(whole);
});

test('Apollo Client 4 with its @defer handler reads the parts: the first, then the merged answer', async () => {
  const client = new ApolloClient({
    link: new HttpLink({ uri: `${stack.gatewayUrl}/graphql` }),
    cache: new InMemoryCache(),
    incrementalHandler: new Defer20220824Handler(),
  });
  const query = gql`
    query Deferred {
      status {
        status
      }
      ... @defer {
        etchings(limit: 1) {
          limit
        }
      }
    }
  `;
  const seen: unknown[] = [];
  await new Promise<void>((resolve, reject) => {
    client.watchQuery({ query }).subscribe({
      next: (result) => {
        seen.push({ data: result.data, dataState: result.dataState, loading: result.loading });
        if (result.dataState === 'complete') resolve();
      },
      error: reject,
    });
  });
  // Apollo adds __typename to every selection set, the deferred fragment's too.
  const status = { __typename: 'Status', status: 'ready' };
  const streaming = { data: { __typename: 'Query', status }, dataState: 'streaming', loading: true };
  // The first part shows as `streaming` unless both parts reach Apollo in one read.
  expect([seen[0], ...seen.slice(1, -1).map(() => streaming), seen.at(-1)]).toEqual([
    { data: undefined, dataState: 'empty', loading: true },
    ...seen.slice(1, -1),
    { data: { __typename: 'Query', status, etchings: { __typename: 'RuneEtchingPage', limit: 1 } }, dataState: 'complete', loading: false },
  ]);
  expect(seen.length).toBeLessThanOrEqual(3);
});

test('a client that accepts only JSON gets the whole answer at once, as without the directives', async () => {
  const query = '{ status { status } ... @defer { etchings(limit: 2) { limit results { id } } } }';
  const plain = '{ status { status } ... { etchings(limit: 2) { limit results { id } } } }';
  const expected = (await stack.graphql(plain)).body;
  expect(expected.errors).toBeUndefined();
  stack.sample.clearLog();
  const response = await stack.graphql(query);
  expect(response).toEqual({ status: 200, body: expected });
  expect(stack.upstreamCalls()).toEqual(['GET /metadata/v1', 'GET /runes/v1/etchings?offset=0&limit=2']);
});

test("a deferred field's upstream failure is the contract's error, as it is outside @defer", async () => {
  const fault = { path: '/runes/v1/etchings', status: 500, body: { error: 'boom' } };
  stack.sample.inject(fault);
  // The same columns as below, so that the errors' locations compare.
  const outside = (await stack.graphql('{ status { status } ...        { etchings(limit: 1) { limit } } }')).body;
  expect(outside.errors?.[0]?.extensions?.code).toBe('UPSTREAM_ERROR');
  const { payloads } = await multipart('{ status { status } ... @defer { etchings(limit: 1) { limit } } }');
  expect(payloads).toEqual([
    { data: { status: { status: 'ready' } }, hasNext: true },
    { incremental: [{ data: { etchings: null }, path: [], errors: outside.errors }], hasNext: false },
  ]);
});

test('an unexpected error in a deferred field names its request id, over HTTP and over graphql-ws', async () => {
  const { metadata } = stack.gateway.upstreams;
  const status = metadata.status;
  metadata.status = () => Promise.reject(new Error('a bug'));
  const query = '{ etchings(limit: 1) { limit } ... @defer { status { status } } }';
  const payloads = (requestId: string) => [
    { data: { etchings: { limit: 1 } }, hasNext: true },
    {
      incremental: [
        {
          data: { status: null },
          path: [],
          errors: [
            {
              message: `Unexpected error (request ${requestId})`,
              locations: [{ line: 1, column: 45 }],
              path: ['status'],
              extensions: { code: 'INTERNAL_SERVER_ERROR', requestId },
            },
          ],
        },
      ],
      hasNext: false,
    },
  ];
  const headers = (requestId: string) => ({ 'x-request-id': requestId });
  class WithRequestId extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: headers('deferred-ws') });
    }
  }
  const client = createClient({ url: `${stack.gatewayUrl.replace('http', 'ws')}/graphql`, webSocketImpl: WithRequestId, retryAttempts: 0 });
  const internal = () => metric(/^satgate_graphql_errors_total\{code="INTERNAL_SERVER_ERROR"\} (\d+)$/m);
  const internalBefore = await internal();
  try {
    expect((await multipart(query, undefined, stack, headers('deferred-http'))).payloads).toEqual(payloads('deferred-http'));
    // Counted under the code the client saw, once.
    expect((await internal()) - internalBefore).toBe(1);
    const received: unknown[] = [];
    for await (const payload of client.iterate({ query })) received.push(payload);
    expect(received).toEqual(payloads('deferred-ws'));
  } finally {
    metadata.status = status;
    await client.dispose();
  }
});

test('query limits refuse a document with @defer or @stream as they refuse it without, before any upstream call', async () => {
  // Two 500-item connections: 2 × (10 pages × 10 + 500) = 1200 > MAX_QUERY_COST 1000.
  const documents = [
    '{ a: etchingsConnection(first: 500) { totalCount } b: etchingsConnection(first: 500) { totalCount } }',
    '{ a: etchingsConnection(first: 500) { totalCount } ... @defer { b: etchingsConnection(first: 500) { totalCount } } }',
    '{ a: etchingsConnection(first: 500) { totalCount } b: etchingsConnection(first: 500) { edges @stream { cursor } } }',
  ];
  const refused = {
    errors: [
      {
        message: 'Query cost 1200 exceeds the limit of 1000 (10 per upstream call, 1 per page item)',
        extensions: { code: 'QUERY_TOO_COMPLEX', limit: 1000, actual: 1200 },
      },
    ],
  };
  for (const query of documents) {
    expect(await stack.graphql(query)).toEqual({ status: 200, body: refused });
    // One part: 400, as for application/graphql-response+json (yoga keeps 200 for application/json only).
    expect(await multipart(query)).toEqual({ status: 400, type: 'multipart/mixed; boundary="-"', payloads: [refused] });
  }
  expect(stack.upstreamCalls()).toEqual([]);
});

test("@stream's negative initialCount, literal or variable, is the client's error, before any upstream call", async () => {
  const refused = (count: number, column: number) => ({
    errors: [
      {
        message: `@stream's initialCount must be 0 or more, got ${count}`,
        locations: [{ line: 1, column }],
        extensions: { code: 'BAD_USER_INPUT', argument: 'initialCount' },
      },
    ],
  });
  expect(await multipart('{ etchings(limit: 3) { results @stream(initialCount: -1) { runeId: id } } }')).toEqual({
    status: 200,
    type: 'multipart/mixed; boundary="-"',
    payloads: [refused(-1, 24)],
  });
  const withVariable = 'query ($n: Int!) { etchings(limit: 3) { results @stream(initialCount: $n) { id } } }';
  expect(await multipart(withVariable, { n: -2 })).toEqual({
    status: 200,
    type: 'multipart/mixed; boundary="-"',
    payloads: [refused(-2, 41)],
  });
  expect(stack.upstreamCalls()).toEqual([]);
});

test.skipIf(RESPONSE_CACHE_OFF)('the response fast path never stores an incremental answer: each repeat executes', async () => {
  const query = '{ status { status } ... @defer { etchings(limit: 1) { limit } } }';
  const [storedBefore, incrementalBefore] = [await stored(), await executions('incremental')];
  const first = await multipart(query);
  const second = await multipart(query);
  expect(second).toEqual(first);
  expect(first.payloads).toHaveLength(2);
  expect([await stored(), await executions('incremental')]).toEqual([storedBefore, incrementalBefore + 2]);
  // Each repeat executed, its fields asking the upstream (through its cache) again.
  const calls = ['GET /metadata/v1', 'GET /runes/v1/etchings?offset=0&limit=1'];
  expect(stack.upstreamCalls()).toEqual([...calls, ...calls]);
  // The same document without @defer is stored (this test can fail).
  await multipart('{ status { status } ... { etchings(limit: 1) { limit } } }');
  expect(await stored()).toBe(storedBefore + 1);
});

test('one document, one answer on every engine: graphql-js, graphql-jit, and graphql-tools for @defer', async () => {
  const plain = '{ status { status } etchingsConnection(first: 3) { totalCount edges { cursor node { id name } } } }';
  const deferred = '{ status { status } ... @defer { etchingsConnection(first: 3) { totalCount edges { cursor node { id name } } } } }';
  const engines = async () => ({
    fallback: await executions('fallback'),
    compiled: await executions('compiled'),
    incremental: await executions('incremental'),
  });
  const before = await engines();
  // A different Accept each time: the fast path keys each anew, so each executes.
  const interpreted = await stack.graphql(plain, undefined, { accept: 'application/json, text/plain' });
  const compiled = await stack.graphql(plain, undefined, { accept: 'application/json, text/html' });
  expect(compiled).toEqual(interpreted);
  const { payloads } = await multipart(deferred);
  expect(await engines()).toEqual({ fallback: before.fallback + 1, compiled: before.compiled + 1, incremental: before.incremental + 1 });
  const [first, second] = payloads as [{ data: Record<string, unknown> }, { incremental: Array<{ data: Record<string, unknown> }> }];
  expect({ data: { ...first.data, ...second.incremental[0]!.data } }).toEqual(interpreted.body);
});

describe('REQUEST_TIMEOUT_MS', () => {
  let slow: Stack;
  beforeAll(async () => {
    // An upstream call would wait a minute: only the request's deadline ends the deferred field.
    slow = await startStack({ REQUEST_TIMEOUT_MS: '1000', UPSTREAM_TIMEOUT_MS: '60000' });
  });
  afterAll(() => slow.close());

  const deferred = '{ status { status } ... @defer { etchings(limit: 1) { limit } } }';
  const timedOut = [
    { data: { status: { status: 'ready' } }, hasNext: true },
    {
      incremental: [
        {
          data: { etchings: null },
          path: [],
          errors: [
            {
              message: 'The request took longer than 1000 ms',
              locations: [{ line: 1, column: 34 }],
              path: ['etchings'],
              extensions: { code: 'REQUEST_TIMEOUT', limit: 1000 },
            },
          ],
        },
      ],
      hasNext: false,
    },
  ];

  test('bounds the later parts too: a deferred field still waiting at the deadline is REQUEST_TIMEOUT', async () => {
    slow.sample.inject({ path: '/runes/v1/etchings', hang: true });
    const { status, payloads } = await multipart(deferred, undefined, slow);
    expect(status).toBe(200);
    expect(payloads).toEqual(timedOut);
  });

  test('bounds a query over graphql-ws alike, later parts included; a subscription is not bounded', async () => {
    slow.sample.inject({ path: '/runes/v1/etchings', hang: true });
    const client = createClient({ url: `${slow.gatewayUrl.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
    try {
      const received: unknown[] = [];
      for await (const payload of client.iterate({ query: deferred })) received.push(payload);
      expect(received).toEqual(timedOut);
      // A subscription outlives REQUEST_TIMEOUT_MS: its first value, then still open past the deadline.
      const updates = client.iterate({ query: 'subscription { status { status } }' });
      expect(await updates.next()).toEqual({ done: false, value: { data: { status: { status: 'ready' } } } });
      await new Promise((resolve) => setTimeout(resolve, 1200));
      const next = updates.next();
      const still = await Promise.race([next.then(() => 'ended'), new Promise((resolve) => setTimeout(resolve, 100, 'open'))]);
      expect(still).toBe('open');
      await updates.return?.();
    } finally {
      await client.dispose();
    }
  });
});

test('@stream holds every transfer of an inscription moved twice in one block, as the answer without it does (UniSat block 812345)', async () => {
  const unisat = await startStack((sample) => ({ TRANSFERS_SOURCE: 'unisat', UNISAT_API_URL: sample.baseUrl }), {
    sources: { unisat: {} },
  });
  try {
    const connection = (edges: string) =>
      `{ transfersConnection(block: 812345, first: 100) { totalCount ${edges} { cursor node { id inscriptionId } } } }`;
    const whole = (await unisat.graphql(connection('edges'))).body.data!.transfersConnection as {
      edges: Array<{ node: { inscriptionId: string } }>;
    };
    // The block holds an inscription twice: two transfers, two edges.
    expect(new Set(whole.edges.map((edge) => edge.node.inscriptionId)).size).toBe(whole.edges.length - 1);
    const { payloads } = await multipart(connection('edges @stream(initialCount: 5)'), undefined, unisat);
    const [first, ...rest] = payloads;
    const streamed = (first!.data as { transfersConnection: { edges: unknown[] } }).transfersConnection;
    const items = rest.flatMap((payload) => (payload.incremental as Array<{ items: unknown[] }>).flatMap((part) => part.items));
    expect({ ...streamed, edges: [...streamed.edges, ...items] }).toEqual(whole);
  } finally {
    await unisat.close();
  }
});
