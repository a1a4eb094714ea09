/**
 * Bad-input fuzzing (fast-check) over every GraphQL argument, every REST path and query parameter,
 * and malformed HTTP bodies. Properties: the gateway always answers a well-formed GraphQL response
 * or an upstream-compatible REST body, never a 5xx of its own; invalid input never reaches the
 * upstream; every upstream request stays on a documented route; no answer or log line holds a key;
 * memory stays bounded. Each property is bounded in runs; the counts are reported.
 *
 * The cheap inputs (fragment structures, nested variables, lone surrogates) travel nine to a batched
 * request (GRAPHQL_BATCH_LIMIT): each operation of a batch is one input, checked on its own answer.
 * (Past ten operations, Node warns of more than ten abort listeners on the request's signal.)
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { HIRO_KEY, startStack, type Stack } from './harness.js';

const PLATFORM_KEY = 'fuzzkey7c1d9e0b4a';
const BATCH = 9;
/** A property stops itself at its time limit; its test gets that long plus this to finish the last run. */
const PROPERTY_MARGIN_MS = 15_000;
let stack: Stack;
let inputs = 0;
/** HTTP requests sent: a batch is one request of many inputs. */
let requests = 0;

beforeAll(async () => {
  // Batches of operations with deeply nested variables weigh up to a few hundred KB.
  stack = await startStack({ LOG_LEVEL: 'debug', GRAPHQL_BATCH_LIMIT: String(BATCH), MAX_BODY_BYTES: String(1024 * 1024) });
});
afterAll(async () => {
  console.log(`fuzz: ${inputs} inputs tried`);
  await stack.close();
});

/** Every upstream request the gateway may make, as route patterns over the raw path. */
const UPSTREAM_ROUTES = [
  /^\/metadata\/v1$/,
  /^\/ordinals\/v1\/brc-20\/tokens\/[^/?#]*$/,
  /^\/ordinals\/v1\/brc-20\/tokens\?(ticker=[^&#]*&){1,20}offset=0&limit=60$/,
  /^\/ordinals\/v1\/inscriptions\/transfers\?block=(\d+|0{8}[0-9a-fA-F]{56})&offset=\d+&limit=([1-9]|[1-5]\d|60)$/,
  /^\/runes\/v1\/etchings\?offset=\d+&limit=([1-9]|[1-5]\d|60)$/,
  /^\/v1\/ext\/[^/?#]+\/chainhooks\/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  /^\/v1\/ext\/[^/?#]+\/bitcoin-node(\/[^?#]*)?(\?.*)?$/,
];

function assertUpstreamSafe(): void {
  for (const request of stack.sample.requests) {
    const url = request.url;
    expect(UPSTREAM_ROUTES.some((route) => route.test(url)), url).toBe(true);
    // Below the node root, no segment may be a dot segment in any encoding.
    const segments = url.split('?')[0]!.split('/').map((s) => s.toLowerCase());
    expect(segments.some((s) => ['.', '..', '%2e', '%2e%2e', '.%2e', '%2e.'].includes(s)), url).toBe(false);
  }
}

function assertNoSecrets(text: string): void {
  expect(text.includes(PLATFORM_KEY) || text.includes(HIRO_KEY)).toBe(false);
}

interface GraphQLShape {
  data?: unknown;
  errors?: Array<{ message: unknown; extensions?: { code?: unknown } }>;
}

/** A well-formed GraphQL answer: data and/or errors, each error with a message and a code. */
function assertGraphQLShape(status: number, text: string): GraphQLShape {
  expect(status, text).toBeLessThan(500);
  const body = JSON.parse(text) as GraphQLShape;
  expect('data' in body || 'errors' in body, text).toBe(true);
  for (const error of body.errors ?? []) {
    expect(typeof error.message).toBe('string');
    expect(error.message).not.toMatch(/\n\s+at |node_modules|127\.0\.0\.1:\d+/);
  }
  return body;
}

async function post(body: string, contentType = 'application/json', headers: Record<string, string> = {}) {
  inputs++;
  requests++;
  const response = await fetch(`${stack.gatewayUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': contentType, accept: 'application/json', ...headers },
    body,
  });
  return { status: response.status, text: await response.text() };
}

const anyText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('..', '../..', '%2e%2e', '%2E%2E%2F', '..%2f', '%252e%252e', '\\..\\', '//evil.example', 'http://evil.example/', '%00', 'a\u0000b', ' ', ''),
  fc.string({ maxLength: 5000 }),
);
const anyInt = fc.oneof(fc.integer(), fc.integer({ min: -5, max: 70 }), fc.constantFrom(2 ** 31 - 1, -(2 ** 31)));
const anyJson = fc.oneof(anyText, anyInt, fc.double(), fc.boolean(), fc.constant(null), fc.array(anyText, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), anyText, { maxKeys: 3 }));

const isUuid = (v: unknown) => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
const validPage = (limit: unknown, offset: unknown) =>
  Number.isInteger(limit) && (limit as number) >= 1 && (limit as number) <= 60 && Number.isInteger(offset) && (offset as number) >= 0;

test('GraphQL arguments: any value in any argument', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({ ticker: anyJson, block: anyJson, limit: anyJson, offset: anyJson, path: anyJson, uuid: anyJson, key: fc.constant(PLATFORM_KEY) }),
      async (v) => {
        stack.sample.clearLog();
        const query = `query ($ticker: String!, $block: BlockId!, $limit: Int!, $offset: Int!, $path: String!, $uuid: String!, $key: String) {
          brc20Token(ticker: $ticker) { token { ticker } }
          transfers(block: $block, limit: $limit, offset: $offset) { total }
          etchings(limit: $limit, offset: $offset) { total }
          bitcoinNode(path: $path, apiKey: $key)
        }`;
        const answer = await post(JSON.stringify({ query, variables: v }));
        const body = assertGraphQLShape(answer.status, answer.text);
        assertNoSecrets(answer.text);
        assertUpstreamSafe();
        if (!validPage(v.limit, v.offset)) {
          expect(stack.sample.requests.filter((r) => r.path.startsWith('/runes')), answer.text).toEqual([]);
        }
        if (body.errors?.some((e) => e.extensions?.code === 'BAD_USER_INPUT' && /path/i.test(String(e.message)))) {
          expect(stack.sample.requests.filter((r) => r.path.includes('/bitcoin-node'))).toEqual([]);
        }
        // The mutation, with any uuid: a non-UUID never sends a DELETE.
        stack.sample.clearLog();
        const mutation = await post(
          JSON.stringify({ query: 'mutation ($uuid: String!) { deleteChainhook(uuid: $uuid) { status } }', variables: { uuid: v.uuid } }),
          'application/json',
          { 'x-api-key': PLATFORM_KEY },
        );
        assertGraphQLShape(mutation.status, mutation.text);
        assertNoSecrets(mutation.text);
        expect(stack.sample.requests.length).toBe(isUuid(v.uuid) ? 1 : 0);
        stack.sample.reset();
      },
    ),
    { numRuns: 250, interruptAfterTimeLimit: 25_000 },
  );
}, 25_000 + PROPERTY_MARGIN_MS);

test('GraphQL documents: literals, deep nesting, many aliases, garbage', async () => {
  const literal = fc.oneof(
    anyText.map((s) => JSON.stringify(s)),
    anyInt.map(String),
    fc.constantFrom('true', 'null', '1.5', '[1,2]', '{a: 1}', '$undefined', '"""block"""'),
  );
  const document = fc.oneof(
    fc.tuple(literal, literal, literal).map(([a, b, c]) => `{ transfers(block: ${a}, limit: ${b}, offset: ${c}) { total } etchings(limit: ${b}) { total } }`),
    literal.map((a) => `{ bitcoinNode(path: ${a}, apiKey: "${PLATFORM_KEY}") brc20Token(ticker: ${a}) { token { id } } }`),
    literal.map((a) => `{ bitcoinNode(path: "rest/chaininfo.json", apiKey: ${a.replace(/"/g, '')}"${PLATFORM_KEY}") }`),
    fc.integer({ min: 1, max: 300 }).map((n) => `{ ${'status { chainTip { '.repeat(n)} blockHeight ${'} }'.repeat(n)} }`),
    fc.integer({ min: 1, max: 500 }).map((n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: status { status }`).join(' ')} }`),
    fc.string({ maxLength: 200 }),
  );
  await fc.assert(
    fc.asyncProperty(document, async (query) => {
      stack.sample.clearLog();
      const answer = await post(JSON.stringify({ query }));
      assertGraphQLShape(answer.status, answer.text);
      assertNoSecrets(answer.text);
      assertUpstreamSafe();
    }),
    { numRuns: 300, interruptAfterTimeLimit: 20_000 },
  );
}, 20_000 + PROPERTY_MARGIN_MS);

test('HTTP bodies: malformed JSON, wrong types, wrong content types', async () => {
  const body = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.constantFrom('', '{', '[]', 'null', '{"query": 1}', '{"query": null}', '{"variables": "x", "query": "{ status { status } }"}', '{"query":"{ status { status } }","extensions":"x"}'),
    anyJson.map((v) => JSON.stringify({ query: '{ status { status } }', variables: v })),
    anyJson.map((v) => JSON.stringify({ query: v })),
  );
  const contentType = fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/graphql', '');
  await fc.assert(
    fc.asyncProperty(body, contentType, async (text, type) => {
      stack.sample.clearLog();
      const answer = await post(text, type);
      expect(answer.status, answer.text).toBeLessThan(500);
      if (answer.text) {
        // A JSON array is a batch (GRAPHQL_BATCH_LIMIT is on here): one answer per operation.
        const parsed = JSON.parse(answer.text) as GraphQLShape | GraphQLShape[];
        for (const one of Array.isArray(parsed) ? parsed : [parsed]) expect('data' in one || 'errors' in one, answer.text).toBe(true);
      }
      assertUpstreamSafe();
    }),
    { numRuns: 300, interruptAfterTimeLimit: 15_000 },
  );
}, 15_000 + PROPERTY_MARGIN_MS);

/**
 * Posts operations (each a JSON object's text, so variables may be raw JSON nested deeper than
 * JSON.stringify goes) as one batch; answers one parsed answer per operation, each checked for shape.
 */
async function postBatch(operations: string[]): Promise<GraphQLShape[]> {
  inputs += operations.length;
  requests++;
  const response = await fetch(`${stack.gatewayUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: `[${operations.join(',')}]`,
  });
  const text = await response.text();
  expect(response.status, text.slice(0, 500)).toBe(200);
  assertNoSecrets(text);
  const answers = JSON.parse(text) as unknown[];
  expect(answers.length).toBe(operations.length);
  return answers.map((answer) => assertGraphQLShape(200, JSON.stringify(answer)));
}

/** A stall, not a benchmark: one batch of cheap operations answers well within this. */
const BATCH_STALL_MS = 10_000;

test('fragments: nested spreads, fan-out, cycles, inline fragments, directives (batched)', async () => {
  const selection = (fragments: number) =>
    fc.oneof(
      fc.constantFrom('__typename', 'a: __typename', 'status { status }', 'etchings(limit: 2) { total }', 'x { y }', '__typename @skip(if: false)'),
      fc.nat({ max: fragments - 1 }).map((i) => `...F${i}`),
      fc.nat({ max: fragments - 1 }).map((i) => `...F${i} @include(if: true)`),
      fc.nat({ max: fragments - 1 }).map((i) => `f { ...F${i} ...F${i} }`),
    );
  const inline = (items: string[], depth: number) => `${'... on Query { '.repeat(depth)}${items.join(' ')}${' }'.repeat(depth)}`;
  // Any graph of fragments: spreads may point anywhere, cycles included.
  const graph = fc.integer({ min: 1, max: 40 }).chain((count) =>
    fc
      .tuple(
        fc.array(selection(count), { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.array(selection(count), { minLength: 1, maxLength: 8 }), fc.nat({ max: 3 })), { minLength: count, maxLength: count }),
      )
      .map(([root, bodies]) => `query { ${root.join(' ')} }\n${bodies.map(([items, depth], i) => `fragment F${i} on Query { ${inline(items, depth)} }`).join('\n')}`),
  );
  // Chains where each fragment spreads the next `fanOut` times: exponential when expanded.
  const chain = fc.tuple(fc.integer({ min: 1, max: 120 }), fc.integer({ min: 1, max: 12 }), fc.boolean()).map(([length, fanOut, cyclic]) => {
    const next = (i: number) => (i + 1 < length ? i + 1 : cyclic ? 0 : length);
    const fragments = Array.from({ length }, (_, i) => `fragment F${i} on Query { ${`...F${next(i)} `.repeat(fanOut)}__typename }`);
    return `query { ...F0 }\n${fragments.join('\n')}${cyclic ? '' : `\nfragment F${length} on Query { status { status } }`}`;
  });
  await fc.assert(
    fc.asyncProperty(fc.array(fc.oneof(graph, chain), { minLength: BATCH, maxLength: BATCH }), async (documents) => {
      stack.sample.clearLog();
      const started = performance.now();
      const answers = await postBatch(documents.map((query) => JSON.stringify({ query })));
      expect(performance.now() - started).toBeLessThan(BATCH_STALL_MS);
      for (const answer of answers) {
        const refusals = (answer.errors ?? []).filter((e) => e.extensions?.code === 'QUERY_TOO_COMPLEX');
        for (const { extensions } of refusals) {
          const { limit, actual } = extensions as { limit: number; actual: number };
          expect(Number.isSafeInteger(limit) && Number.isSafeInteger(actual) && actual > limit, JSON.stringify(extensions)).toBe(true);
        }
        // A refused document never runs.
        if (refusals.length > 0) expect('data' in answer).toBe(false);
      }
      assertUpstreamSafe();
    }),
    { numRuns: 520, interruptAfterTimeLimit: 40_000 },
  );
}, 40_000 + PROPERTY_MARGIN_MS);

/** JSON text of a value nested `depth` deep in lists or objects, around one of `leaves`. */
const nestedJson = (...leaves: string[]) =>
  fc
    .tuple(fc.integer({ min: 1, max: 5000 }), fc.boolean(), fc.constantFrom(...leaves))
    .map(([depth, list, leaf]) => (list ? `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`));

/** Operations taking one variable `$v` in each place user input goes: tickers, blocks, pages, paths, keys. */
const API_KEY_OPERATION = 'query ($v: String) { bitcoinNode(path: "rest/chaininfo.json", apiKey: $v) }';
const VARIABLE_OPERATIONS = [
  'query ($v: String!) { brc20Token(ticker: $v) { token { ticker } } }',
  'query ($v: BlockId!) { transfers(block: $v, limit: 1) { total } }',
  'query ($v: Int!) { etchings(limit: $v) { total } }',
  `query ($v: String!) { bitcoinNode(path: $v, apiKey: "${PLATFORM_KEY}") }`,
  API_KEY_OPERATION,
  'mutation ($v: String!) { deleteChainhook(uuid: $v, apiKey: "k") { status } }',
];
const operation = (query: string, variableJson: string) => `{"query":${JSON.stringify(query)},"variables":{"v":${variableJson}}}`;

test('nested variables: lists and objects up to 5000 deep in every argument (batched)', async () => {
  // The key is nested where a key goes (it must never be echoed); elsewhere, plain values (a value
  // the client sends as a ticker may be echoed to it: nothing says it is a key).
  const nested = fc.oneof(
    fc.tuple(fc.constantFrom(...VARIABLE_OPERATIONS), nestedJson('1', '"x"', 'null', '[]', '{}')),
    fc.tuple(fc.constant(API_KEY_OPERATION), nestedJson(`"${PLATFORM_KEY}"`)),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(nested, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
      stack.sample.clearLog();
      const answers = await postBatch(batch.map(([query, value]) => operation(query, value)));
      // A nested value is never a ticker, a block, a page, a path or a key: every answer is an error, nothing is sent.
      for (const answer of answers) expect(answer.errors?.length, JSON.stringify(answer)).toBeGreaterThan(0);
      expect(stack.upstreamCalls()).toEqual([]);
    }),
    { numRuns: 225, interruptAfterTimeLimit: 20_000 },
  );
}, 20_000 + PROPERTY_MARGIN_MS);

test('lone surrogates in strings, variables, keys, paths and literals (batched)', async () => {
  const lone = fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff');
  // JSON text of a string holding a lone surrogate (JSON.stringify would escape it the same way).
  const surrogateJson = fc
    .tuple(fc.string({ maxLength: 8 }), lone, fc.string({ maxLength: 8 }))
    .map(([before, surrogate, after]) => `"${JSON.stringify(before).slice(1, -1)}${surrogate}${JSON.stringify(after).slice(1, -1)}"`);
  const input = fc.oneof(
    fc.tuple(fc.constantFrom(...VARIABLE_OPERATIONS), surrogateJson).map(([query, value]) => operation(query, value)),
    // The surrogate inside the document: a string literal, an alias, an argument name.
    fc
      .tuple(lone, fc.constantFrom('brc20Token(ticker: "§") { token { id } }', 'bitcoinNode(path: "§", apiKey: "§")', 'a§: __typename', 'transfers(block: "§") { total }'))
      .map(([surrogate, field]) => `{"query":"{ ${field.replace(/"/g, '\\"').replaceAll('§', surrogate)} }"}`),
    // As a variable's name and as a key of the variables object.
    surrogateJson.map((key) => `{"query":"{ __typename }","variables":{${key}:1}}`),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(input, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
      stack.sample.clearLog();
      await postBatch(batch);
      assertUpstreamSafe();
      // What reaches an upstream is well-formed UTF-8, percent-encoded: never half a character. (A
      // stray `%` the client wrote in a bitcoin-node query string is forwarded byte for byte.)
      const decodeEscapes = (url: string) => url.replace(/(?:%[0-9a-f]{2})+/gi, (run) => decodeURIComponent(run));
      for (const { url } of stack.sample.requests) expect(() => decodeEscapes(url), url).not.toThrow();
    }),
    { numRuns: 400, interruptAfterTimeLimit: 20_000 },
  );
}, 20_000 + PROPERTY_MARGIN_MS);

test('REST paths and query parameters: upstream-compatible answers, invalid input never sent', async () => {
  const segment = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 12 }).map(encodeURIComponent),
    fc.constantFrom('..', '.', '%2e%2e', '%2E%2e', '%2f', '%5c', '%00', '%zz', '%E0%A4%A', '', 'ordi', 'rest', 'chaininfo.json'),
  );
  const param = fc.oneof(anyInt.map(String), fc.string({ maxLength: 8 }), fc.constantFrom('', '1.5', 'abc', '-1', '61', '0', '60', '+5', '0x10'));
  const path = fc.oneof(
    fc.tuple(segment).map(([t]) => `/ordinals/v1/brc-20/tokens/${t}`),
    fc.tuple(param, param, param).map(([b, l, o]) => `/ordinals/v1/inscriptions/transfers?block=${encodeURIComponent(b)}&limit=${encodeURIComponent(l)}&offset=${encodeURIComponent(o)}`),
    fc.tuple(param, param).map(([l, o]) => `/runes/etchings?limit=${encodeURIComponent(l)}&offset=${encodeURIComponent(o)}`),
    fc.array(segment, { maxLength: 5 }).map((s) => `/v1/ext/${PLATFORM_KEY}/bitcoin-node/${s.join('/')}`),
    fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${['metadata', 'ordinals', 'runes', 'v1/ext'][s.length % 4]}/${s.join('/')}`),
  );
  await fc.assert(
    fc.asyncProperty(path, fc.constantFrom('GET', 'HEAD', 'DELETE', 'POST'), async (target, method) => {
      inputs++;
      requests++;
      stack.sample.clearLog();
      const { request } = await import('node:http');
      // node:http sends the target as written (fetch would normalise dot segments away).
      const answer = await new Promise<{ status: number; text: string; contentType: string | undefined }>((resolve, reject) => {
        const req = request(`${stack.gatewayUrl}/`, { method, path: target, agent: false }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text, contentType: res.headers['content-type'] }));
        });
        req.on('error', reject);
        req.end();
      });
      assertNoSecrets(answer.text);
      assertUpstreamSafe();
      // The gateway's own answers are never 5xx here: the upstream is up.
      expect(answer.status, `${method} ${target}: ${answer.text}`).toBeLessThan(500);
      if (answer.contentType?.startsWith('application/json') && answer.text) JSON.parse(answer.text);
      const query = new URL(target, 'http://x').searchParams;
      if (target.includes('/etchings') && !(Number.isInteger(Number(query.get('limit'))) && /^\+?\d+$/.test(query.get('limit') ?? '') && Number(query.get('limit')) >= 1 && Number(query.get('limit')) <= 60)) {
        // An invalid limit per the upstream's schema (leniently: anything not a plain 1..60) is answered locally.
        if (!/^(0x[0-9a-f]+|\s*\d+(\.0+)?\s*|\+\d+)$/i.test(query.get('limit') ?? '')) expect(stack.sample.requests).toEqual([]);
      }
    }),
    { numRuns: 400, interruptAfterTimeLimit: 20_000 },
  );
}, 20_000 + PROPERTY_MARGIN_MS);

test('after all of it the process is up, answers correctly, and memory is bounded', async () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 200; i++) await post(JSON.stringify({ query: `{ brc20Token(ticker: "${'x'.repeat(i)}") { token { id } } }` }));
  gc?.();
  expect(process.memoryUsage().heapUsed - before).toBeLessThan(16 * 1024 * 1024);
  const answer = await post(JSON.stringify({ query: '{ status { status } }' }));
  expect(JSON.parse(answer.text)).toEqual({ data: { status: { status: 'ready' } } });
  for (const line of stack.logs) assertNoSecrets(line);
  // One access line per request at least (a batch is one request).
  expect(stack.logs.length).toBeGreaterThan(requests);
});
