/**
 * The response fast path (src/server/response-cache.ts), over real HTTP against the sample upstream: a
 * repeated document is answered from the stored result (no upstream call, no execution), with the
 * headers yoga gave; it is kept while the upstream answers behind it are current (a 304 keeps it)
 * and executed again when one changed; errors, stale data and platform fields are never stored.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SAMPLE_PLATFORM_KEY } from '../../src/sample/server.js';
import { sampleData } from '../../src/sample/data.js';
import { ORD_HEIGHT } from '../../src/sample/sources-data.js';
import { startStack, type Stack } from '../harness.js';

const TOKEN = 'query Token($ticker: String!) { brc20Token(ticker: $ticker) { token { ticker mintedSupply } supply { holders } } }';
const TWO_OPS = `query A { a: brc20Token(ticker: "ordi") { token { ticker } supply { holders } } }
query B { b: brc20Token(ticker: "ordi") { token { ticker } supply { holders } } }`;
const TWO_TOKENS =
  '{ a: brc20Token(ticker: "ordi") { token { ticker mintedSupply } supply { holders } } b: brc20Token(ticker: "bitai") { token { ticker mintedSupply } supply { holders } } }';

/** The response cache's event counters and bytes, from /metrics. */
async function responseCache(stack: Stack): Promise<{ hit: number; miss: number; stored: number; refused: number; bytes: number }> {
  const text = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
  const read = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  return {
    hit: read(/^satgate_response_cache_events_total\{event="hit"\} (\d+)/m),
    miss: read(/^satgate_response_cache_events_total\{event="miss"\} (\d+)/m),
    stored: read(/^satgate_response_cache_events_total\{event="stored"\} (\d+)/m),
    refused: read(/^satgate_response_cache_events_total\{event="refused"\} (\d+)/m),
    bytes: read(/^satgate_document_cache_bytes\{cache="responses"\} (\d+)/m),
  };
}

/** The answer's headers, without the ones that differ per request (date, request id). */
function headersOf(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'date' && name !== 'x-request-id' && name !== 'keep-alive' && name !== 'connection') headers[name] = value;
  });
  return headers;
}

function post(stack: Stack, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) {
  return fetch(`${stack.gatewayUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
    signal,
  });
}

/** The access-log line of the request with this id. */
function logLine(stack: Stack, requestId: string): Record<string, unknown> | undefined {
  return stack.logs
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((l) => l.msg === 'request' && l.requestId === requestId);
}

async function settle(): Promise<void> {
  // The access log is written when the response closes.
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('warm (upstream answers fresh for a minute)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ CACHE_TTL_MS: '60000', CORS_ORIGINS: 'https://app.example' });
  });
  afterAll(() => stack.close());

  test('a repeated POST is answered from the stored result: same bytes, same headers, no upstream call, no execution', async () => {
    const before = await responseCache(stack);
    const body = { query: TOKEN, variables: { ticker: 'ordi' }, operationName: 'Token' };
    const origin = { origin: 'https://app.example' };
    const first = await post(stack, body, { ...origin, 'x-request-id': 'first-1' });
    const firstText = await first.text();
    expect(stack.upstreamCalls()).toEqual(['GET /ordinals/v1/brc-20/tokens/ordi']);
    stack.sample.clearLog();
    const second = await post(stack, body, { ...origin, 'x-request-id': 'second-1' });
    expect(await second.text()).toBe(firstText);
    expect(stack.upstreamCalls()).toEqual([]);
    expect(second.status).toBe(200);
    expect(second.headers.get('x-request-id')).toBe('second-1');
    expect(headersOf(second)).toEqual(headersOf(first));
    expect(headersOf(second)).toEqual({
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(firstText)),
      'access-control-allow-origin': 'https://app.example',
      'access-control-expose-headers': expect.stringContaining('etag') as string,
      vary: 'Origin',
    });
    expect(await responseCache(stack)).toEqual({
      ...before,
      hit: before.hit + 1,
      miss: before.miss + 1,
      stored: before.stored + 1,
      bytes: expect.any(Number) as number,
    });
    await settle();
    expect(logLine(stack, 'second-1')).toMatchObject({ operationName: 'Token', upstreamCalls: 0, cache: 'hit', status: 200 });
    // An origin not listed: no CORS header on the stored answer either, as yoga would answer.
    const other = await post(stack, body, { origin: 'https://evil.example' });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('vary')).toBe('Origin');
  });

  test('connections and batch lookups are public: a repeated 500-item etchingsConnection is answered stored, with no upstream call', async () => {
    const query = `{ etchingsConnection(first: 500) { totalCount edges { cursor node { id name } } pageInfo { hasNextPage endCursor } }
      brc20Tokens(tickers: ["ordi", "pepe"]) { token { ticker } } }`;
    const before = await responseCache(stack);
    const first = await post(stack, { query });
    const firstText = await first.text();
    expect(first.status).toBe(200);
    expect((JSON.parse(firstText) as { errors?: unknown }).errors).toBeUndefined();
    expect(stack.upstreamCalls().length).toBeGreaterThan(1);
    stack.sample.clearLog();
    const second = await post(stack, { query });
    expect({ status: second.status, text: await second.text(), upstream: stack.upstreamCalls() }).toEqual({
      status: 200,
      text: firstText,
      upstream: [],
    });
    expect(await responseCache(stack)).toEqual({
      ...before,
      hit: before.hit + 1,
      miss: before.miss + 1,
      stored: before.stored + 1,
      bytes: expect.any(Number) as number,
    });
  });

  test('a GET (no CSRF-prevention header needed) gets the ETag and Cache-Control yoga gives, and 304 on If-None-Match; a CSRF header changes nothing', async () => {
    const url = `${stack.gatewayUrl}/graphql?query=${encodeURIComponent('{ brc20Token(ticker: "pepe") { token { ticker } supply { holders } } }')}`;
    const csrf = { accept: 'application/json' };
    const first = await fetch(url, { headers: csrf });
    const firstText = await first.text();
    stack.sample.clearLog();
    const before = await responseCache(stack);
    const second = await fetch(url, { headers: csrf });
    expect(await second.text()).toBe(firstText);
    expect(headersOf(second)).toEqual(headersOf(first));
    const etag = second.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(second.headers.get('cache-control')).toBe('public, no-cache, must-revalidate');
    const notModified = await fetch(url, { headers: { ...csrf, 'if-none-match': etag! } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe('');
    expect([notModified.headers.get('etag'), notModified.headers.get('cache-control')]).toEqual([
      etag,
      'public, no-cache, must-revalidate',
    ]);
    expect(stack.upstreamCalls()).toEqual([]);
    // Executed, stored or 304, each answer names its own request.
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const ids = [first, second, notModified].map((response) => response.headers.get('x-request-id'));
    expect(ids).toEqual([expect.stringMatching(uuid), expect.stringMatching(uuid), expect.stringMatching(uuid)]);
    expect(new Set(ids).size).toBe(3);
    // The same URL with a CSRF-prevention header (as Apollo Client sends): the same stored answer.
    const withHeader = await fetch(url, { headers: { ...csrf, 'apollo-require-preflight': 'true' } });
    expect(await withHeader.text()).toBe(firstText);
    expect(stack.upstreamCalls()).toEqual([]);
    expect((await responseCache(stack)).hit).toBe(before.hit + 3);
  });

  // Padded past 1,024 bytes, a request is keyed by its digest: the Accept header is part of that too.
  test.each([0, 2_000])(
    'every media type yoga answers is stored apart and answered as a valid HTTP/1.1 message (fetch refuses Content-Length beside Transfer-Encoding), padded %i',
    async (pad) => {
      const body = { query: pad ? `${TOKEN} # ${'x'.repeat(pad)}` : TOKEN, variables: { ticker: 'ordi' } };
      const json = JSON.stringify((await (await post(stack, body)).json()) as unknown);
      const length = (text: string) => String(Buffer.byteLength(text));
      const multipart = `\r\n---\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${length(json)}\r\n\r\n${json}\r\n-----\r\n`;
      const events = `:\n\nevent: next\ndata: ${json}\n\nevent: complete\ndata:\n\n`;
      const cases: Array<[string, string, Record<string, string>]> = [
        ['application/graphql-response+json', json, { 'content-type': 'application/graphql-response+json; charset=utf-8' }],
        ['multipart/mixed', multipart, { 'content-type': 'multipart/mixed; boundary="-"' }],
        ['text/event-stream', events, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'content-encoding': 'none' }],
      ];
      for (const [accept, text, headers] of cases) {
        const before = await responseCache(stack);
        const answers = [];
        for (let i = 0; i < 2; i++) {
          const response = await post(stack, body, { accept });
          answers.push({ status: response.status, headers: headersOf(response), text: await response.text() });
        }
        const expected = { status: 200, headers: { ...headers, 'content-length': length(text), vary: 'Origin' }, text };
        expect(answers).toEqual([expected, expected]);
        const after = await responseCache(stack);
        expect([after.miss - before.miss, after.hit - before.hit, after.stored - before.stored]).toEqual([1, 1, 1]);
      }
    },
  );

  test('a request yoga refuses is refused the same once the document is stored (never answered from the store)', async () => {
    const json = { 'content-type': 'application/json', accept: 'application/json' };
    const variants: Array<[string, (query: string) => RequestInit & { search?: string }]> = [
      ['operationName 123', (query) => ({ headers: json, body: JSON.stringify({ query, operationName: 123 }) })],
      ['operationName ""', (query) => ({ headers: json, body: JSON.stringify({ query, operationName: '' }) })],
      ['an unknown parameter', (query) => ({ headers: json, body: JSON.stringify({ query, foo: 1 }) })],
      ['a __proto__ parameter', (query) => ({ headers: json, body: `{"query":${JSON.stringify(query)},"__proto__":{}}` })],
      ['variables a list', (query) => ({ headers: json, body: JSON.stringify({ query, variables: [] }) })],
      [
        'content-type application/json; charset=utf-16',
        (query) => ({ headers: { ...json, 'content-type': 'application/json; charset=utf-16' }, body: JSON.stringify({ query }) }),
      ],
      [
        'content-type application/jsonp',
        (query) => ({ headers: { ...json, 'content-type': 'application/jsonp' }, body: JSON.stringify({ query }) }),
      ],
      [
        'a form POST without a CSRF header',
        (query) => ({
          headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ query }).toString(),
        }),
      ],
    ];
    const seen: Array<[string, number, number]> = [];
    for (const [index, [name, variant]] of variants.entries()) {
      const query = `{ refused${index}: status { status } }`;
      const send = async (init: RequestInit & { search?: string }) => {
        const response = await fetch(`${stack.gatewayUrl}/graphql${init.search ?? ''}`, { method: 'POST', ...init });
        return { status: response.status, body: (await response.text()).replace(/request [\w-]+/g, 'request <id>') };
      };
      const before = await send(variant(query));
      const stored = await send({ headers: json, body: JSON.stringify({ query }) });
      await send({ headers: json, body: JSON.stringify({ query }) });
      const after = await send(variant(query));
      expect.soft(after, name).toEqual(before);
      seen.push([name, before.status, stored.status]);
    }
    expect(seen).toEqual([
      ['operationName 123', 400, 200],
      // OPERATION_RESOLUTION_FAILURE: 200 under application/json, as the GraphQL over HTTP spec says.
      ['operationName ""', 200, 200],
      ['an unknown parameter', 400, 200],
      ['a __proto__ parameter', 400, 200],
      ['variables a list', 400, 200],
      ['content-type application/json; charset=utf-16', 415, 200],
      ['content-type application/jsonp', 415, 200],
      ['a form POST without a CSRF header', 403, 200],
    ]);
  });

  test('variables and operation names are keyed apart', async () => {
    const before = await responseCache(stack);
    const answers = [];
    for (const body of [
      { query: TOKEN, variables: { ticker: 'sats' } },
      { query: TOKEN, variables: { ticker: 'rats' } },
      { query: TWO_OPS, operationName: 'A' },
      { query: TWO_OPS, operationName: 'B' },
    ]) {
      answers.push(await (await post(stack, body)).json());
      answers.push(await (await post(stack, body)).json());
    }
    const data = answers.map((a) => Object.keys((a as { data: Record<string, unknown> }).data)[0]);
    expect(data).toEqual(['brc20Token', 'brc20Token', 'brc20Token', 'brc20Token', 'a', 'a', 'b', 'b']);
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).not.toEqual(answers[2]);
    const after = await responseCache(stack);
    expect([after.miss - before.miss, after.hit - before.hit, after.stored - before.stored]).toEqual([4, 4, 4]);
  });

  test('a request is keyed by its bytes (a long one by their digest): other spacing is another key', async () => {
    const before = await responseCache(stack);
    const short = JSON.stringify({ query: TOKEN, variables: { ticker: 'pepe' } });
    // The same parameters written otherwise: other bytes, so another stored result.
    const spaced = JSON.stringify({ variables: { ticker: 'pepe' }, query: TOKEN }, null, 2);
    // Past the 1,024 bytes from which a key is kept as its SHA-256 (and V8's 16,383 characters).
    const padded = `${TOKEN} # ${'x'.repeat(20_000)}`;
    const long = JSON.stringify({ query: padded, variables: { ticker: 'pepe' } });
    const longSpaced = JSON.stringify({ query: padded, variables: { ticker: 'pepe' } }, null, 1);
    const send = async (body: string, path = '/graphql') => {
      const response = await fetch(`${stack.gatewayUrl}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-graphql-yoga-csrf': '1' },
        body: body || undefined,
      });
      return [response.status, await response.json()] as const;
    };
    // A GET's target (within node's 16 KB of head) past 1,024 bytes: keyed by its digest too.
    const get = `/graphql?query=${encodeURIComponent(`${TOKEN} # ${'x'.repeat(5000)}`)}&variables=${encodeURIComponent('{"ticker":"pepe"}')}`;
    const answers = [await send(short), await send(short), await send(spaced), await send(long), await send(long), await send(longSpaced)];
    answers.push(await send('', get), await send('', get));
    const pepe = {
      data: {
        brc20Token: {
          token: { ticker: 'pepe', mintedSupply: expect.any(String) as string },
          supply: { holders: expect.any(Number) as number },
        },
      },
    };
    expect(answers).toEqual(Array.from({ length: 8 }, () => [200, pepe]));
    const after = await responseCache(stack);
    // Executed: short, spaced, long, longSpaced, the GET. Answered stored: short, long and the GET again.
    expect([after.miss - before.miss, after.hit - before.hit, after.stored - before.stored]).toEqual([5, 3, 5]);
  });

  test.each([100, 5000])('a variable nested %i deep is executed, refused and never stored', async (depth) => {
    const before = await responseCache(stack);
    const body = `{"query":${JSON.stringify(TOKEN)},"variables":{"ticker":${'['.repeat(depth)}"ordi"${']'.repeat(depth)}}}`;
    const send = async () => {
      const response = await fetch(`${stack.gatewayUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body,
      });
      return { status: response.status, body: await response.json() };
    };
    const expected = {
      status: 200,
      body: {
        errors: [
          {
            message: 'Variable "$ticker" got invalid value [[[Array]]]; String cannot represent a non string value: [[[Array]]]',
            locations: [{ line: 1, column: 13 }],
            extensions: { code: 'BAD_USER_INPUT' },
          },
        ],
      },
    };
    expect([await send(), await send()]).toEqual([expected, expected]);
    const after = await responseCache(stack);
    expect([after.miss - before.miss, after.hit - before.hit, after.stored - before.stored]).toEqual([2, 0, 0]);
  });

  test('a result built from an upstream answer marked no-store is never stored', async () => {
    const details = sampleData.brc20Tokens[30]!;
    const ticker = details.token.ticker;
    const path = `/ordinals/v1/brc-20/tokens/${ticker}`;
    stack.sample.inject({ path, status: 200, body: details, headers: { 'cache-control': 'no-store', etag: '"kept-nowhere"' }, times: 2 });
    stack.sample.clearLog();
    const before = await responseCache(stack);
    const body = { query: TOKEN, variables: { ticker } };
    const answers = [await (await post(stack, body)).json(), await (await post(stack, body)).json()];
    const expected = {
      data: { brc20Token: { token: { ticker, mintedSupply: details.token.minted_supply }, supply: { holders: details.supply.holders } } },
    };
    expect(answers).toEqual([expected, expected]);
    // Each request asked afresh: nothing held the answer, so nothing could be revalidated.
    expect(stack.sample.requests.map((r) => [r.url, r.headers['if-none-match']])).toEqual([
      [path, undefined],
      [path, undefined],
    ]);
    const after = await responseCache(stack);
    expect([after.miss - before.miss, after.hit - before.hit, after.stored - before.stored]).toEqual([2, 0, 0]);
  });

  test('results with an error, and platform fields, are never stored', async () => {
    const before = await responseCache(stack);
    stack.sample.inject({ path: '/ordinals/v1/brc-20/tokens/turt', status: 500, body: { error: 'boom' }, times: 2 });
    const failing = { query: TOKEN, variables: { ticker: 'turt' } };
    const first = (await (await post(stack, failing)).json()) as { errors: unknown[] };
    const second = (await (await post(stack, failing)).json()) as { errors: unknown[] };
    expect([first.errors.length, second.errors.length]).toEqual([1, 1]);
    const platform = { query: `{ bitcoinNode(path: "rest/chaininfo.json", apiKey: "${SAMPLE_PLATFORM_KEY}") }` };
    stack.sample.clearLog();
    const a = await (await post(stack, platform)).json();
    const b = await (await post(stack, platform)).json();
    expect(a).toEqual(b);
    expect(stack.upstreamCalls().filter((call) => call.includes('chaininfo'))).toHaveLength(2);
    const after = await responseCache(stack);
    expect([after.miss - before.miss, after.hit - before.hit, after.stored - before.stored]).toEqual([4, 0, 0]);
  });
});

describe('revalidating (upstream answers never fresh: every request asks with If-None-Match)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ STALE_IF_ERROR_MS: '600000' });
  });
  afterAll(() => stack.close());

  test('a 304 keeps the stored result; a change upstream makes the next request execute with the new data; stale answers are never stored', async () => {
    const body = { query: TOKEN, variables: { ticker: 'bitai' } };
    const first = (await (await post(stack, body)).json()) as { data: { brc20Token: { token: { mintedSupply: string } } } };
    stack.sample.clearLog();
    let counts = await responseCache(stack);
    const again = await (await post(stack, body)).json();
    expect(again).toEqual(first);
    expect(stack.sample.requests.map((r) => [r.url, r.headers['if-none-match'] !== undefined])).toEqual([
      ['/ordinals/v1/brc-20/tokens/bitai', true],
    ]);
    expect((await responseCache(stack)).hit).toBe(counts.hit + 1);

    // A mint changes the token (and the ordinals ETag): the next request executes again.
    stack.sample.activity.mint('bitai');
    stack.sample.clearLog();
    counts = await responseCache(stack);
    const changed = (await (await post(stack, body)).json()) as typeof first;
    expect(changed.data.brc20Token.token.mintedSupply).not.toBe(first.data.brc20Token.token.mintedSupply);
    // The changed answer is asked for once: execution uses what the revalidation brought.
    expect(stack.upstreamCalls()).toEqual(['GET /ordinals/v1/brc-20/tokens/bitai']);
    const afterChange = await responseCache(stack);
    expect([afterChange.miss - counts.miss, afterChange.stored - counts.stored]).toEqual([1, 1]);

    // The upstream fails: the stored answer is served stale, marked, and that result is not stored.
    stack.sample.inject({ path: '/ordinals/v1/brc-20/tokens/bitai', status: 503, body: {}, times: 2 });
    const stale = (await (await post(stack, body)).json()) as { data: unknown; extensions?: { stale?: unknown } };
    expect(stale.data).toEqual(changed.data);
    expect(stale.extensions?.stale).toEqual({ ageSeconds: expect.any(Number) as number });
    const staleAgain = (await (await post(stack, body)).json()) as typeof stale;
    expect(staleAgain.extensions?.stale).toBeDefined();
    const afterStale = await responseCache(stack);
    expect([afterStale.stored - afterChange.stored, afterStale.hit - afterChange.hit]).toEqual([0, 0]);
  });

  test('one global-ETag 304 confirms every answer behind the stored result: one upstream call, not one per answer', async () => {
    const body = { query: TWO_TOKENS };
    type Token = { token: { ticker: string; mintedSupply: string }; supply: { holders: number } };
    const first = (await (await post(stack, body)).json()) as { data: { a: Token; b: Token } };
    const counts = await responseCache(stack);
    stack.sample.clearLog();
    expect(await (await post(stack, body)).json()).toEqual(first);
    expect(stack.sample.requests.map((r) => [r.url, r.headers['if-none-match'] !== undefined])).toEqual([
      ['/ordinals/v1/brc-20/tokens/ordi', true],
    ]);
    const after = await responseCache(stack);
    expect({ hit: after.hit - counts.hit, miss: after.miss - counts.miss }).toEqual({ hit: 1, miss: 0 });

    // A change to the other token changes the global ETag: the one call says so, and the document executes again.
    const minted = stack.sample.activity.mint('bitai');
    stack.sample.clearLog();
    const { a, b } = first.data;
    expect(await (await post(stack, body)).json()).toEqual({
      data: { a, b: { ...b, token: { ...b.token, mintedSupply: minted.token.minted_supply } } },
    });
    expect(stack.upstreamCalls().sort()).toEqual(['GET /ordinals/v1/brc-20/tokens/bitai', 'GET /ordinals/v1/brc-20/tokens/ordi']);
  });

  test('a client that leaves while the stored result is revalidated leaves it stored: the next request is answered from it', async () => {
    const body = { query: TOKEN, variables: { ticker: 'ordi' } };
    const first = await (await post(stack, body)).json();
    const counts = await responseCache(stack);
    stack.sample.clearLog();
    stack.sample.inject({ path: '/ordinals/v1/brc-20/tokens/ordi', delayMs: 300, times: 1 });
    const client = new AbortController();
    const leaving = post(stack, body, {}, client.signal).catch(() => 'left');
    while (stack.upstreamCalls().length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    client.abort();
    expect(await leaving).toBe('left');
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await (await post(stack, body)).json()).toEqual(first);
    const after = await responseCache(stack);
    expect({ hit: after.hit - counts.hit, miss: after.miss - counts.miss, stored: after.stored - counts.stored }).toEqual({
      hit: 1,
      miss: 0,
      stored: 0,
    });
  });
});

describe('bounds and the switch', () => {
  let bounded: Stack;
  let off: Stack;
  beforeAll(async () => {
    [bounded, off] = await Promise.all([
      startStack({ CACHE_TTL_MS: '60000', RESPONSE_CACHE_MAX_BYTES: '8000' }),
      startStack({ CACHE_TTL_MS: '60000', RESPONSE_CACHE: 'off' }),
    ]);
  });
  afterAll(() => Promise.all([bounded.close(), off.close()]));

  test('RESPONSE_CACHE_MAX_BYTES bounds what is kept: a result that does not fit is executed every time', async () => {
    const small = { query: TOKEN, variables: { ticker: 'ordi' } };
    const large = { query: '{ etchings(limit: 20) { total results { id name spacedName number symbol } } }' };
    const before = await responseCache(bounded);
    for (const body of [small, small, large, large]) expect((await post(bounded, body)).status).toBe(200);
    const after = await responseCache(bounded);
    expect([after.hit - before.hit, after.miss - before.miss]).toEqual([1, 3]);
    expect(after.bytes).toBeGreaterThan(0);
    expect(after.bytes).toBeLessThanOrEqual(8000);
  });

  test('RESPONSE_CACHE=off: every request executes (upstream answers still cached)', async () => {
    const body = { query: TOKEN, variables: { ticker: 'ordi' } };
    const a = await (await post(off, body)).json();
    const b = await (await post(off, body)).json();
    expect(a).toEqual(b);
    expect(await responseCache(off)).toEqual({ hit: 0, miss: 0, stored: 0, refused: 0, bytes: 0 });
  });
});

describe('admission: what is kept when the bound is reached', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ CACHE_TTL_MS: '60000', RESPONSE_CACHE_MAX_BYTES: '8000' });
  });
  afterAll(() => stack.close());

  /** The counters' change over `run`, bytes aside. */
  async function counted(run: () => Promise<void>) {
    const before = await responseCache(stack);
    await run();
    const after = await responseCache(stack);
    return {
      hit: after.hit - before.hit,
      miss: after.miss - before.miss,
      stored: after.stored - before.stored,
      refused: after.refused - before.refused,
    };
  }
  async function ask(body: unknown, times = 1) {
    for (let i = 0; i < times; i++) expect((await post(stack, body)).status).toBe(200);
  }

  test('a new document every time (a nonce) never pushes out a result asked again; a document asked more often than the oldest gets in', async () => {
    const popular = { query: TOKEN, variables: { ticker: 'bitai' } };
    // Asked three times: executed once, then answered stored twice.
    expect(await counted(() => ask(popular, 3))).toEqual({
      hit: 2,
      miss: 1,
      stored: 1,
      refused: 0,
    });
    // Twelve documents asked once each: kept while there is room, then refused, since the result
    // they would evict (the popular one, least recently used) was asked more often lately.
    const flood = await counted(async () => {
      for (let nonce = 0; nonce < 12; nonce++) await ask({ query: TOKEN, variables: { ticker: 'bitai', nonce } });
    });
    expect(flood.miss).toBe(12);
    expect(flood.refused).toBeGreaterThan(0);
    expect(flood.stored + flood.refused).toBe(12);
    expect(await counted(() => ask(popular))).toEqual({ hit: 1, miss: 0, stored: 0, refused: 0 });
    // The oldest now is a nonce document asked once: a document asked twice beats it.
    const often = { query: TOKEN, variables: { ticker: 'ordi' } };
    expect(await counted(() => ask(often, 3))).toEqual({
      hit: 1,
      miss: 2,
      stored: 1,
      refused: 1,
    });
    expect(await counted(() => ask(popular))).toEqual({ hit: 1, miss: 0, stored: 0, refused: 0 });
  });
});

describe('revalidating a stored result is held to the request bounds', () => {
  test('the answers behind it are confirmed at most MAX_CONCURRENT_UPSTREAM_CALLS_PER_REQUEST at a time', async () => {
    // ord's answers have no ETag: each one behind a stored result is asked again to confirm it.
    const stack = await startStack(
      (sample) => ({ ETCHINGS_SOURCE: 'ord', ORD_API_URL: sample.baseUrl, MAX_CONCURRENT_UPSTREAM_CALLS_PER_REQUEST: '2' }),
      { sources: { ord: {} } },
    );
    try {
      const pages = [0, 60, 120, 180, 240].map((offset) => `p${offset}: etchings(offset: ${offset}, limit: 60) { results { runeId } }`);
      const body = { query: `{ ${pages.join(' ')} }` };
      const first = await post(stack, body);
      expect(first.status).toBe(200);
      // What it rests on: ord's pages, index height and the newest block's hash (those 20 blocks deeper are final).
      const restsOn = [
        ...new Set(
          stack.sample.requests
            .map(({ path }) => path)
            .filter((path) => !path.startsWith('/r/blockhash/') || path === `/r/blockhash/${ORD_HEIGHT}`),
        ),
      ];
      expect(restsOn.length).toBeGreaterThan(4);
      stack.sample.clearLog();
      // Long enough that calls overlapping in time were in flight together.
      stack.sample.inject({ path: '/*', delayMs: 60 });
      const again = await post(stack, body);
      expect([again.status, await again.json()]).toEqual([200, await first.json()]);
      const arrivals = stack.sample.requests.map(({ at }) => at);
      const mostWithin50ms = Math.max(...arrivals.map((at) => arrivals.filter((other) => other >= at && other < at + 50).length));
      expect({ asked: stack.sample.requests.map(({ path }) => path).sort(), mostWithin50ms }).toEqual({
        asked: restsOn.sort(),
        mostWithin50ms: 2,
      });
    } finally {
      await stack.close();
    }
  });
});
