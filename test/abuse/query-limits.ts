/**
 * Abuse: hostile GraphQL documents and bodies (issue 8, classes 1, 5, 6 and 9 on the GraphQL side).
 * Each document is refused with the limit it breaks (code, limit, actual) before any upstream call,
 * and while it is processed the event loop keeps serving /healthz. Deeply nested variables answer a
 * well-formed error, never a 500 or a stack trace; malformed bodies never echo a key; the
 * parsed-document cache and the persisted-query store stay within their bytes.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startStack, type GraphQLBody, type Stack } from '../harness.js';
import { STACK_FRAME, expectNoSecrets } from '../support.js';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** What a stalled event loop would show: the hostile request and every /healthz beside it answer within this. */
const STALL_BOUND_MS = 1000;

async function post(stack: Stack, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${stack.gatewayUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body,
  });
  return { status: response.status, text: await response.text() };
}

/**
 * Sends a body while asking /healthz over and over; answers the response and how long the request
 * and the slowest /healthz took. A synchronous stall shows in both.
 */
async function beside(stack: Stack, body: string) {
  const started = performance.now();
  let done = false;
  const request = post(stack, body).then((answer) => {
    done = true;
    return { ...answer, ms: performance.now() - started };
  });
  const health: Array<{ status: number; ms: number }> = [];
  while (!done) {
    const asked = performance.now();
    const status = (await fetch(`${stack.gatewayUrl}/healthz`)).status;
    health.push({ status, ms: performance.now() - asked });
  }
  return { answer: await request, health };
}

function tooComplex(message: string, limit: number, actual: number) {
  return { message, extensions: { code: 'QUERY_TOO_COMPLEX', limit, actual } };
}
const cost = (actual: number) =>
  tooComplex(`Query cost ${actual} exceeds the limit of 1000 (10 per upstream call, 1 per page item)`, 1000, actual);
const resultFields = (actual: number) =>
  tooComplex(
    `The result may hold ${actual} fields, over the limit of 50000 (each list's items times the fields written below it, aliases and every spread of a fragment counted)`,
    50000,
    actual,
  );
const comparisons = (actual: number) =>
  tooComplex(
    `${actual} field comparisons exceed the limit of 10000 (fields repeated under one name, fragments spread side by side)`,
    10000,
    actual,
  );

/** `text` once, then `copies - 1` more times under aliases (`c1: text`, …). */
const copies = (text: string, count: number) => [text, ...Array.from({ length: count - 1 }, (_, i) => `c${i + 1}: ${text}`)].join(' ');

/** `fragment T<i> on __Type { ofType { ...T<i+1> } a: ofType { ...T<i+1> } }`, `levels` deep: 2^levels copies of the last. */
function ofTypeFan(levels: number): string {
  const fragments = Array.from({ length: levels }, (_, i) => `fragment T${i} on __Type { ${copies(`ofType { ...T${i + 1} }`, 2)} }`);
  return `query { __type(name: "Query") { ...T0 } }\n${fragments.join('\n')}\nfragment T${levels} on __Type { name kind }`;
}

/** `fragment F<i> on Query { ...F<i+1> × fanOut }` for i < length, then F<length> = `leaf`. */
function fanChain(length: number, fanOut: number, leaf: string): string {
  const fragments = Array.from({ length }, (_, i) => `fragment F${i} on Query { ${`...F${i + 1} `.repeat(fanOut)}}`);
  return `query { ...F0 }\n${fragments.join('\n')}\nfragment F${length} on Query { ${leaf} }`;
}

describe('abuse: query limits', () => {
  let stack: Stack;
  beforeAll(async () => {
    // The default limits: tokens 2000, depth 8, aliases 30, directives 10, cost 1000, comparisons 10000, body 100 KiB.
    stack = await startStack({ GRAPHQL_BATCH_LIMIT: '5' });
  });
  afterAll(() => stack.close());

  describe('class 1: documents that cost far more than their size', () => {
    test.each<[string, string, unknown[]]>([
      [
        // cost(F<i>) = 10 × cost(F<i+1>), cost(F16) = 10: 10^17, past 2^53 - 1. The old rule expanded 10^16 spreads.
        'a 1.5 KB document whose 16 fragments each spread the next ten times',
        fanChain(16, 10, 'status { status }'),
        [resultFields(MAX_SAFE), cost(MAX_SAFE)],
      ],
      // The result: 2^20 copies of `status { status }`, 2 fields each.
      [
        'fragments that spread the next one twice, 20 deep',
        fanChain(20, 2, 'status { status }'),
        [resultFields(2 ** 21), cost(2 ** 20 * 10)],
      ],
      [
        // depth(D<i>) = 1 + depth(D<i+1>), depth(D30) = 1 (unknown fields still count: the limits come before graphql-js's rules)
        'fragments nesting each other twice inside a field, 30 deep',
        `query { ...D0 }\n${Array.from({ length: 30 }, (_, i) => `fragment D${i} on Query { f${i} { ...D${i + 1} ...D${i + 1} } }`).join('\n')}\nfragment D30 on Query { leaf }`,
        // The result: f0 and 2^31 - 2 fields below it (2^i copies of f<i>, 2^30 of leaf), past 50000 too.
        [tooComplex('Query depth 31 exceeds the limit of 8', 8, 31), resultFields(2 ** 31 - 1)],
      ],
      [
        // A fragment's aliases count at every spread: each spread's copies answer apart in the result.
        'a fragment of 31 aliases spread 500 times',
        `query { ${'...A '.repeat(500)}}\nfragment A on Query { ${Array.from({ length: 31 }, (_, i) => `t${i}: __typename`).join(' ')} }`,
        [tooComplex('15500 aliases exceed the limit of 30', 30, 15500)],
      ],
      [
        // 1 KB: a 500-item connection, its edges, their nodes and the nodes' locations each four
        // times under aliases (an outside review's document answered 90 MB from a 1 KB body).
        'aliases at three levels through fragments, under a 500-item connection',
        `{ etchingsConnection(first: 500) { ${copies('edges { ...E }', 4)} } }
fragment E on RuneEtchingEdge { ${copies('node { ...N }', 4)} }
fragment N on RuneEtching { id runeId ${copies('location { ...L }', 4)} }
fragment L on RuneLocation { txId blockHeight }`,
        // Per item: 4 edges × (1 + 4 nodes × (1 + 2 + 4 locations × (1 + 2))) = 244; aliases 3 + 4 × (3 + 4 × 3).
        [resultFields(1 + 500 * 244), tooComplex('63 aliases exceed the limit of 30', 30, 63)],
      ],
      [
        // Within every other limit: 29 aliases, cost 600.
        'edges written 30 times under a 500-item connection',
        `{ etchingsConnection(first: 500) { ${copies('edges { node { id runeId name } }', 30)} } }`,
        [resultFields(1 + 500 * 30 * 5)],
      ],
      [
        // Introspection has no depth and no cost; compiled, this document held the loop for seconds.
        'introspection fragments that each alias the next one twice, 12 deep',
        ofTypeFan(12),
        [tooComplex('4095 aliases exceed the limit of 30', 30, 4095)],
      ],
      [
        // graphql-js's introspection rule does not count `ofType`: compiled, 660 deep took 0.6 s.
        'an ofType chain 20 deep under __type',
        `{ __type(name: "Query") { ${'ofType { '.repeat(20)}name${' }'.repeat(20)} } }`,
        [tooComplex('Query depth 22, introspection included, exceeds the limit of 20', 20, 22)],
      ],
      [
        // The schema's lists are not counted in the result's fields: 30 such answered 2 MB.
        'four aliases of __schema',
        `{ ${copies('__schema { types { name fields { name args { name } } } }', 4)} }`,
        [tooComplex('4 introspection fields (__schema, __type) exceed the limit of 3', 3, 4)],
      ],
      [
        'a fragment of 11 directives spread three times from inside inline fragments',
        `query { ... on Query { ... on Query { ...X ...X } ...X } }\nfragment X on Query { ${'__typename @skip(if: false) '.repeat(11)}}`,
        [tooComplex('11 directives exceed the limit of 10', 10, 11)],
      ],
      [
        'one fragment spread 900 times (wide fan-out)',
        `{ ${'...W '.repeat(900)}}\nfragment W on Query { status { status } }`,
        [cost(9000)],
      ],
      [
        // graphql-js compares every two fields of one name: 400² in the status set, plus 1 per chainTip set and 1 at the root.
        'one field repeated 400 times (quadratic validation)',
        `{ status { ${'chainTip { blockHeight } '.repeat(400)}} }`,
        [comparisons(400 * 400 + 400 + 1)],
      ],
      [
        // 150 fragments side by side: 150² fragment pairs, plus 2 selection sets per fragment and the root.
        '150 fragments spread side by side (quadratic validation)',
        `{ status { ${Array.from({ length: 150 }, (_, i) => `...S${i}`).join(' ')} } }\n${Array.from({ length: 150 }, (_, i) => `fragment S${i} on Status { chainTip { blockHeight } }`).join('\n')}`,
        [comparisons(150 * 150 + 300 + 1)],
      ],
    ])('%s: QUERY_TOO_COMPLEX, no upstream call, /healthz keeps answering', async (_name, query, errors) => {
      stack.sample.clearLog();
      const { answer, health } = await beside(stack, JSON.stringify({ query }));
      expect([answer.status, JSON.parse(answer.text)]).toEqual([200, { errors }]);
      expect(stack.upstreamCalls()).toEqual([]);
      expect(answer.ms).toBeLessThan(STALL_BOUND_MS);
      expect(health.length).toBeGreaterThan(0);
      for (const { status, ms } of health) expect([status, ms < STALL_BOUND_MS]).toEqual([200, true]);
    });

    test("a small fragment cycle gets graphql-js's cycle error; a long one (which overflowed graphql-js's stack) is refused first", async () => {
      stack.sample.clearLog();
      const small = await post(
        stack,
        JSON.stringify({ query: '{ ...A } fragment A on Query { ...B status { status } } fragment B on Query { ...A }' }),
      );
      expect([small.status, JSON.parse(small.text)]).toEqual([
        200,
        {
          errors: [
            {
              message: 'Cannot spread fragment "A" within itself via "B".',
              locations: [
                { line: 1, column: 32 },
                { line: 1, column: 79 },
              ],
              extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
            },
          ],
        },
      ]);
      // 140 fragments, each spreading the next two: a cycle through all of them.
      const long = Array.from(
        { length: 140 },
        (_, i) => `fragment C${i} on Query { ...C${(i + 1) % 140} ...C${(i + 2) % 140} __typename }`,
      );
      const { answer, health } = await beside(stack, JSON.stringify({ query: `query { ...C0 }\n${long.join('\n')}` }));
      // How many comparisons a cycle counts depends on where the walk breaks it: only its size is asserted.
      const body = JSON.parse(answer.text) as GraphQLBody;
      const actual = body.errors?.[0]?.extensions?.actual as number;
      expect(actual).toBeGreaterThan(10_000);
      expect(body).toEqual({ errors: [comparisons(actual)] });
      expect(stack.upstreamCalls()).toEqual([]);
      for (const { status, ms } of [...health, { status: 200, ms: answer.ms }]) expect([status, ms < STALL_BOUND_MS]).toEqual([200, true]);
    });

    test('inline fragments nested 390 deep are no hazard: the document runs', async () => {
      stack.sample.clearLog();
      const query = `{ ${'... on Query { '.repeat(390)}status { status } ${'} '.repeat(390)}}`;
      const answer = await post(stack, JSON.stringify({ query }));
      expect([answer.status, JSON.parse(answer.text)]).toEqual([200, { data: { status: { status: 'ready' } } }]);
      expect(stack.upstreamCalls()).toEqual(['GET /metadata/v1']);
    });

    test.each<[string, string, number]>([
      // `{"query":"` + `{ ` + 51192 × `a ` + `}` + `"}`: 102399 bytes, just under MAX_BODY_BYTES; 51194 tokens.
      ['a body of 100 KiB of field names', `{ ${'a '.repeat(51_192)}}`, 51_194],
      // 34129 × `{a` then 34129 × `}`: 102399 bytes, 3 × 34129 tokens; the lexer counts what the parser refused to read.
      ['a body of 100 KiB of nested selections', `${'{a'.repeat(34_129)}${'}'.repeat(34_129)}`, 102_387],
    ])('%s: tokens over MAX_QUERY_TOKENS are QUERY_TOO_COMPLEX with their count', async (_name, query, tokens) => {
      stack.sample.clearLog();
      const body = JSON.stringify({ query });
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(102_400);
      const { answer, health } = await beside(stack, body);
      expect([answer.status, JSON.parse(answer.text)]).toEqual([
        200,
        { errors: [tooComplex(`${tokens} tokens exceed the limit of 2000`, 2000, tokens)] },
      ]);
      expect(stack.upstreamCalls()).toEqual([]);
      for (const { status, ms } of [...health, { status: 200, ms: answer.ms }]) expect([status, ms < STALL_BOUND_MS]).toEqual([200, true]);
    });

    test('a 100 KiB comment is not a token: the document runs', async () => {
      stack.sample.clearLog();
      const answer = await post(stack, JSON.stringify({ query: `{ status { status } } # ${'x'.repeat(100_000)}` }));
      expect([answer.status, JSON.parse(answer.text)]).toEqual([200, { data: { status: { status: 'ready' } } }]);
      expect(stack.upstreamCalls()).toEqual(['GET /metadata/v1']);
    });
  });

  describe('class 5: deeply nested variables get a well-formed error, never a 500 or a stack trace', () => {
    const KEY_QUERY = 'query($k: String) { bitcoinNode(path: \\"rest/chaininfo.json\\", apiKey: $k) }';
    const deepObject = (depth: number, leaf: string) => `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;
    const deepList = (depth: number, leaf: string) => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;
    const invalid = (variable: string, shown: string) => ({
      errors: [
        {
          message: `Variable "$${variable}" got invalid value ${shown}; String cannot represent a non string value: ${shown}`,
          locations: [{ line: 1, column: 7 }],
          extensions: { code: 'BAD_USER_INPUT' },
        },
      ],
    });

    test.each<[string, string, unknown]>([
      // The key scrubber walked these recursively: 500 with "RangeError: Maximum call stack size exceeded" and its frames.
      [
        'an apiKey variable: an object 15,000 deep',
        `{"query":"${KEY_QUERY}","variables":{"k":${deepObject(15_000, '"deep-key-1234"')}}}`,
        invalid('k', '{ a: { a: [Object] } }'),
      ],
      [
        'an apiKey variable: a list 45,000 deep',
        `{"query":"${KEY_QUERY}","variables":{"k":${deepList(45_000, '"deep-key-1234"')}}}`,
        invalid('k', '[[[Array]]]'),
      ],
      [
        'a ticker variable: an object 15,000 deep',
        `{"query":"query($t: String!) { brc20Token(ticker: $t) { token { id } } }","variables":{"t":${deepObject(15_000, '1')}}}`,
        invalid('t', '{ a: { a: [Object] } }'),
      ],
      [
        'a variable the document does not declare, 15,000 deep',
        `{"query":"{ status { status } }","variables":{"x":${deepObject(15_000, '1')}}}`,
        { data: { status: { status: 'ready' } } },
      ],
      [
        'extensions 15,000 deep',
        `{"query":"{ status { status } }","extensions":{"x":${deepObject(15_000, '1')}}}`,
        { data: { status: { status: 'ready' } } },
      ],
    ])('%s', async (_name, body, expected) => {
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(102_400);
      stack.sample.clearLog();
      const answer = await post(stack, body);
      expect([answer.status, JSON.parse(answer.text)]).toEqual([200, expected]);
      expect(STACK_FRAME.test(answer.text)).toBe(false);
      expect(stack.upstreamCalls()).toEqual('data' in (expected as object) ? ['GET /metadata/v1'] : []);
    });

    test('a literal list 600 deep as the apiKey argument is a validation error', async () => {
      stack.sample.clearLog();
      const literal = deepList(600, '"x"');
      const answer = await post(stack, JSON.stringify({ query: `{ bitcoinNode(path: "x", apiKey: ${literal}) }` }));
      expect([answer.status, JSON.parse(answer.text)]).toEqual([
        200,
        {
          errors: [
            {
              message: `String cannot represent a non string value: ${literal}`,
              locations: [{ line: 1, column: 34 }],
              extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
            },
          ],
        },
      ]);
      expect(stack.upstreamCalls()).toEqual([]);
    });

    const headers = { accept: 'application/json', 'x-graphql-yoga-csrf': '1' };
    test.each<[string, string, RequestInit]>([
      ['variables in a GET query string', `?query=%7B__typename%7D&variables=${encodeURIComponent('{"k":')}`, { headers }],
      ['extensions in a GET query string', `?query=%7B__typename%7D&extensions=${encodeURIComponent('{"persistedQuery":')}`, { headers }],
      [
        'variables in a form body',
        '',
        {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'query=%7B__typename%7D&variables=%7Bbad',
        },
      ],
    ])('malformed JSON as %s is 400 BAD_REQUEST, not an unexpected error', async (_name, search, init) => {
      stack.sample.clearLog();
      const response = await fetch(`${stack.gatewayUrl}/graphql${search}`, init);
      expect(stack.upstreamCalls()).toEqual([]);
      expect([response.status, await response.json()]).toEqual([
        400,
        {
          errors: [
            { message: 'The request parameters `variables` or `extensions` are not valid JSON', extensions: { code: 'BAD_REQUEST' } },
          ],
        },
      ]);
    });
  });

  describe('class 6: errors never echo a key, in their message or any extension', () => {
    const KEY = 'abuse-secret-key-5e1f0c';
    const HEADER_KEY = 'abuse-header-key-77a0b3';
    const invalidJson = {
      message: 'POST body sent invalid JSON.',
      // The parse error's own wording is V8's; what matters is that it no longer holds the key.
      extensions: { code: 'BAD_REQUEST', originalError: { name: 'SyntaxError', message: expect.stringContaining('<redacted>') } },
    };

    test.each<[string, string, Record<string, string>]>([
      ['the key as an apiKey literal', `{"query": "{ bitcoinNode(path: \\"x\\", apiKey: \\"${KEY}\\") }", }`, {}],
      [
        'the key in a variable passed as apiKey',
        `{"query": "query($k: String) { bitcoinNode(path: \\"x\\", apiKey: $k) }", "variables": {"k": "${KEY}"`,
        {},
      ],
      [
        'the key as an apiKey variable',
        `{"query": "query($apiKey: String) { bitcoinNode(path: \\"x\\", apiKey: $apiKey) }", "variables": {"apiKey": "${KEY}"},,}`,
        {},
      ],
      ['the key as an Int apiKey literal', `{"query": "{ bitcoinNode(path: \\"x\\", apiKey: 98765432109876) }"`, {}],
      [
        'the x-api-key header pasted into the body',
        `{"query": "{ status { status } }", "note": "${HEADER_KEY}"`,
        { 'x-api-key': HEADER_KEY },
      ],
    ])('a malformed JSON body with %s', async (_name, body, headers) => {
      stack.sample.clearLog();
      const before = stack.logs.length;
      const answer = await post(stack, body, headers);
      expect([answer.status, JSON.parse(answer.text)]).toEqual([400, { errors: [invalidJson] }]);
      expectNoSecrets(answer.text, [KEY, HEADER_KEY, '98765432109876']);
      expectNoSecrets(stack.logs.slice(before).join('\n'), [KEY, HEADER_KEY, '98765432109876']);
      expect(stack.upstreamCalls()).toEqual([]);
    });

    test('a batch: every answer of it is scrubbed', async () => {
      const answer = await post(
        stack,
        JSON.stringify([
          { query: 'query($k: String) { bitcoinNode(path: "x", apiKey: $k) }', variables: { k: [KEY] } },
          { query: 'query($k: String) { bitcoinNode(path: "x", apiKey: $k) }', variables: { k: { key: KEY } } },
        ]),
      );
      expect([answer.status, JSON.parse(answer.text)]).toEqual([
        200,
        [
          {
            errors: [
              {
                message: 'Variable "$k" got invalid value ["<redacted>"]; String cannot represent a non string value: ["<redacted>"]',
                locations: [{ line: 1, column: 7 }],
                extensions: { code: 'BAD_USER_INPUT' },
              },
            ],
          },
          {
            errors: [
              {
                message:
                  'Variable "$k" got invalid value { key: "<redacted>" }; String cannot represent a non string value: { key: "<redacted>" }',
                locations: [{ line: 1, column: 7 }],
                extensions: { code: 'BAD_USER_INPUT' },
              },
            ],
          },
        ],
      ]);
      expectNoSecrets(answer.text, [KEY]);
    });

    test('past 32 distinct keys in one request, error details are withheld', async () => {
      const keys = Array.from({ length: 40 }, (_, i) => `many-keys-${i}-abcdef`);
      const fields = keys.map((key, i) => `a${i}: bitcoinNode(path: \\"x\\", apiKey: \\"${key}\\")`).join(' ');
      const answer = await post(stack, `{"query": "{ ${fields} }"`);
      expect([answer.status, JSON.parse(answer.text)]).toEqual([
        400,
        { errors: [{ message: 'Error details withheld: the request carries too many API keys', extensions: { code: 'BAD_REQUEST' } }] },
      ]);
    });
  });
});

describe('abuse: document caches are bounded in bytes (class 9)', () => {
  const DOCUMENT_BYTES = 1024 * 1024;
  const APQ_BYTES = 256 * 1024;
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ DOCUMENT_CACHE_MAX_BYTES: String(DOCUMENT_BYTES), APQ_CACHE_MAX_BYTES: String(APQ_BYTES) });
  });
  afterAll(() => stack.close());

  async function cacheBytes(): Promise<Record<string, number>> {
    const text = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
    const bytes = [...text.matchAll(/^satgate_document_cache_bytes\{cache="(\w+)"\} (\d+)$/gm)].map(([, cache, value]) => [
      cache,
      Number(value),
    ]);
    return Object.fromEntries(bytes);
  }

  test('a document seen once is answered but not kept: the cache grows on its second sighting', async () => {
    const query = `{ status { status } } # once ${'x'.repeat(10_000)}`;
    const before = await cacheBytes();
    // Other variables each time: a repeat would be answered by the response fast path, unparsed.
    const first = await post(stack, JSON.stringify({ query, variables: { n: 1 } }));
    expect(JSON.parse(first.text)).toEqual({ data: { status: { status: 'ready' } } });
    const afterFirst = await cacheBytes();
    const second = await post(stack, JSON.stringify({ query, variables: { n: 2 } }));
    expect(JSON.parse(second.text)).toEqual({ data: { status: { status: 'ready' } } });
    const afterSecond = await cacheBytes();
    expect(afterFirst.documents).toBe(before.documents);
    // Its text alone is ~20 KB (two bytes a character).
    expect((afterSecond.documents ?? 0) - (afterFirst.documents ?? 0)).toBeGreaterThan(20_000);
  });

  test('40 distinct 60 KB documents, each sent twice: each answers, the parsed-document cache stays under its bound', async () => {
    for (let i = 0; i < 40; i++) {
      const query = `{ status { status } } # ${i} ${'x'.repeat(60_000)}`;
      const send = (n: number) => post(stack, JSON.stringify({ query, variables: { n } }));
      for (const answer of [await send(1), await send(2)]) {
        expect(JSON.parse(answer.text)).toEqual({ data: { status: { status: 'ready' } } });
      }
    }
    const { documents } = await cacheBytes();
    // Each document weighs ~120 KB (its text, two bytes a character): the cache held the last few.
    expect(documents).toBeGreaterThan(5 * 120_000);
    expect(documents).toBeLessThanOrEqual(DOCUMENT_BYTES);
  });

  test('20 persisted queries of 30 KB: the store stays under its bound, the oldest are evicted, the newest run by hash', async () => {
    const documents = Array.from({ length: 20 }, (_, i) => `{ status { status } } # ${i} ${'y'.repeat(30_000)}`);
    const hashOf = (query: string) => createHash('sha256').update(query).digest('hex');
    const extensions = (query: string) => ({ persistedQuery: { version: 1, sha256Hash: hashOf(query) } });
    for (const query of documents) {
      const answer = await post(stack, JSON.stringify({ query, extensions: extensions(query) }));
      expect(JSON.parse(answer.text)).toEqual({ data: { status: { status: 'ready' } } });
    }
    const byHash = async (query: string) => JSON.parse((await post(stack, JSON.stringify({ extensions: extensions(query) }))).text);
    expect(await byHash(documents[19]!)).toEqual({ data: { status: { status: 'ready' } } });
    expect(await byHash(documents[0]!)).toEqual({
      errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }],
    });
    const { apq } = await cacheBytes();
    expect(apq).toBeGreaterThan(3 * 60_000);
    expect(apq).toBeLessThanOrEqual(APQ_BYTES);
  });
});
