/** GraphQL GET requests of public fields carry an ETag and answer 304, like the REST paths. */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startStack, type Stack } from '../harness.js';
import { SAMPLE_PLATFORM_KEY } from '../../src/sample/server.js';
import { isCacheableOperation } from '../../src/graphql/plugins/http-caching.js';
import { parse } from 'graphql';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const get = (query: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.gatewayUrl}/graphql?query=${encodeURIComponent(query)}`, {
    // No CSRF-prevention header: a GET can only read, so it needs none (docs/security.md).
    headers: { accept: 'application/graphql-response+json', ...headers },
  });

test('a cacheable GET answers an ETag, then 304 for a matching If-None-Match', async () => {
  const query = '{ status { status } etchings(limit: 1) { total } }';
  const first = await get(query);
  const body = await first.json();
  const etag = first.headers.get('etag');
  expect({ status: first.status, cacheControl: first.headers.get('cache-control'), etag: /^"[\w-]+"$/.test(etag ?? '') }).toEqual({
    status: 200,
    cacheControl: 'public, no-cache, must-revalidate',
    etag: true,
  });
  expect(body).toEqual({ data: { status: { status: 'ready' }, etchings: { total: expect.any(Number) } } });
  const second = await get(query, { 'if-none-match': etag! });
  expect({ status: second.status, body: await second.text(), etag: second.headers.get('etag') }).toEqual({
    status: 304,
    body: '',
    etag,
  });
});

test('If-None-Match: * answers 304 for any answer with an ETag, executed or stored, and 200 for one without', async () => {
  const query = '{ etchings(limit: 2) { total } }';
  const answer = async (headers: Record<string, string>) => {
    const res = await get(query, headers);
    return { status: res.status, body: await res.text(), etag: res.headers.get('etag') };
  };
  const executed = await answer({ 'if-none-match': '*' });
  const plain = await answer({});
  const stored = await answer({ 'if-none-match': ' * ' });
  expect([executed, stored]).toEqual([
    { status: 304, body: '', etag: plain.etag },
    { status: 304, body: '', etag: plain.etag },
  ]);
  expect(plain.status).toBe(200);
  // A platform field's answer is no shared representation: no ETag, so `*` matches nothing.
  const unauthenticated = await get('{ bitcoinNode(path: "/") }', { 'if-none-match': '*' });
  expect([unauthenticated.status, unauthenticated.headers.get('etag')]).toEqual([200, null]);
});

test('each JSON type of one URL has its own ETag and says it varies by Accept, executed or stored, 200 or 304', async () => {
  const query = '{ status { status } }';
  const types = ['application/json', 'application/graphql-response+json'];
  const answers = [];
  // The first of each type executes, the second is the stored result (response-cache.ts), the third a 304.
  for (const accept of types) {
    const executed = await get(query, { accept });
    const stored = await get(query, { accept });
    const revalidated = await get(query, { accept, 'if-none-match': stored.headers.get('etag')! });
    await Promise.all([executed.text(), stored.text()]);
    answers.push(
      [executed, stored, revalidated].map((answer) => ({
        status: answer.status,
        type: answer.headers.get('content-type'),
        vary: answer.headers.get('vary'),
        etag: answer.headers.get('etag'),
      })),
    );
  }
  const [json, graphqlJson] = answers.map((answer) => answer[0]!.etag);
  expect([json !== graphqlJson, /^"[\w-]+"$/.test(json ?? ''), /^"[\w-]+"$/.test(graphqlJson ?? '')]).toEqual([true, true, true]);
  expect(answers).toEqual(
    types.map((type, i) => [
      { status: 200, type: `${type}; charset=utf-8`, vary: 'Accept', etag: [json, graphqlJson][i] },
      { status: 200, type: `${type}; charset=utf-8`, vary: 'Accept', etag: [json, graphqlJson][i] },
      { status: 304, type: null, vary: 'Accept', etag: [json, graphqlJson][i] },
    ]),
  );
  // One type's ETag does not confirm the other's answer.
  const crossed = await get(query, { accept: 'application/json', 'if-none-match': graphqlJson! });
  expect([crossed.status, (await crossed.json()) as unknown]).toEqual([200, { data: { status: { status: 'ready' } } }]);
});

test('a cacheable GET answers in the media type yoga gives a POST of the same Accept (JSON of either kind, SSE, or 406)', async () => {
  const query = '{ status { status } }';
  const answers: Array<[string, number, string | null, number, string | null]> = [];
  for (const accept of [
    'application/json',
    'application/graphql-response+json',
    'application/graphql-response+json, application/json',
    '*/*',
    'text/event-stream',
    'multipart/mixed',
    'application/xml',
  ]) {
    const viaGet = await get(query, { accept });
    await viaGet.text();
    const viaPost = await fetch(`${stack.gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept },
      body: JSON.stringify({ query }),
    });
    await viaPost.text();
    answers.push([accept, viaGet.status, viaGet.headers.get('content-type'), viaPost.status, viaPost.headers.get('content-type')]);
  }
  const json = 'application/json; charset=utf-8';
  const graphqlJson = 'application/graphql-response+json; charset=utf-8';
  expect(answers).toEqual([
    ['application/json', 200, json, 200, json],
    ['application/graphql-response+json', 200, graphqlJson, 200, graphqlJson],
    ['application/graphql-response+json, application/json', 200, graphqlJson, 200, graphqlJson],
    ['*/*', 200, json, 200, json],
    ['text/event-stream', 200, 'text/event-stream', 200, 'text/event-stream'],
    ['multipart/mixed', 200, 'multipart/mixed; boundary="-"', 200, 'multipart/mixed; boundary="-"'],
    ['application/xml', 406, json, 406, json],
  ]);
});

test.each([
  [
    'a POST',
    () =>
      fetch(`${stack.gatewayUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ status { status } }' }),
      }),
    null,
  ],
  // A GET's answer for no shared cache says so: a cache could otherwise keep it by its own heuristics.
  ['a query with errors', () => get('{ etchings(limit: 0) { total } }'), 'no-store'],
  ['a platform field', () => get('{ bitcoinNode(path: "rest/chaininfo.json", apiKey: "k") }'), 'no-store'],
  [
    'a platform field answered',
    () => get('{ bitcoinNode(path: "rest/chaininfo.json") }', { 'x-api-key': SAMPLE_PLATFORM_KEY }),
    'no-store',
  ],
])('%s carries no ETag and no public Cache-Control', async (_name, send, cacheControl) => {
  const answer = await send();
  const body = (await answer.json()) as { data?: unknown };
  expect([answer.status, answer.headers.get('etag'), answer.headers.get('cache-control'), body.data !== undefined]).toEqual([
    200,
    null,
    cacheControl,
    true,
  ]);
});

test('only queries whose root fields are all public are cacheable, through fragments too', () => {
  const cases = [
    '{ status { status } }',
    'query Q { ...F } fragment F on Query { brc20Token(ticker: "x") { token { id } } }',
    '{ ... on Query { etchings { total } } }',
    '{ etchingsConnection(first: 500) { totalCount } }',
    '{ transfersConnection(block: "1") { totalCount } brc20Tokens(tickers: ["x"]) { token { id } } }',
    '{ status { status } bitcoinNode(path: "x") }',
    'query Q { ...F } fragment F on Query { bitcoinNode(path: "x") }',
    'mutation { deleteChainhook(uuid: "x") { status } }',
    '{ etchingsConnection { totalCount } bitcoinNode(path: "x") }',
  ];
  expect(cases.map((query) => isCacheableOperation(parse(query)))).toEqual([true, true, true, true, true, false, false, false, false]);
});

test('response keys follow the query, cold or warm, so equal data gives an equal ETag', async () => {
  const warm = await startStack({ CACHE_TTL_MS: '60000' });
  try {
    const query =
      '{ status { status } brc20Token(ticker: "ordi") { token { ticker } } transfers(block: 775700, limit: 1) { total } etchings(limit: 1) { total } }';
    const answers: Array<[string, string | null]> = [];
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${warm.gatewayUrl}/graphql?query=${encodeURIComponent(query)}`, {
        headers: { 'x-graphql-yoga-csrf': '1' },
      });
      answers.push([Object.keys((await response.json()).data).join(','), response.headers.get('etag')]);
    }
    expect(new Set(answers.map(([keys]) => keys))).toEqual(new Set(['status,brc20Token,transfers,etchings']));
    expect(new Set(answers.map(([, etag]) => etag)).size).toBe(1);
  } finally {
    await warm.close();
  }
});
