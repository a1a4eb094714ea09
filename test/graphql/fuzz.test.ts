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
 *
 * graphql-jit's markers: a literal string starting with one (`__MAGIC_DATE__…(<js>)`) once became
 * code in the gateway; every marker, in every literal position, must run nothing and change nothing.
 *
 * A failing property prints its seed and input at once (so a case is not lost if shrinking outlasts
 * the test), then its shrunk counterexample, its path and the command that replays it. Replay:
 *   FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run test/graphql/fuzz.test.ts --project default -t '<test name>'
 * FUZZ_SEED alone runs every property from that seed (the same inputs in the same order); FUZZ_PATH
 * (with FUZZ_SEED) runs only the counterexample it names. Each run's seeds are printed at the end.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startExecutorPair } from '../executor-pair.js';
import { DEFAULT_LITERALS, ODD_KEYS, VARIABLE_USES } from '../variable-uses.js';
import { HIRO_KEY, startStack, type Stack } from '../harness.js';

const PLATFORM_KEY = 'fuzzkey7c1d9e0b4a';
const BATCH = 9;
/** A property stops itself at its time limit; its test gets that long plus this to finish the last run. */
const PROPERTY_MARGIN_MS = 15_000;
let stack: Stack;
let inputs = 0;
/** HTTP requests sent: a batch is one request of many inputs. */
let requests = 0;
/** Each property's seed, printed at the end: any run can be replayed. */
const seeds: string[] = [];

const FUZZ_SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const FUZZ_PATH = process.env.FUZZ_PATH;
if (FUZZ_SEED !== undefined && !Number.isInteger(FUZZ_SEED)) throw new Error(`FUZZ_SEED must be an integer, not ${process.env.FUZZ_SEED}`);
if (FUZZ_PATH !== undefined && FUZZ_SEED === undefined)
  throw new Error('FUZZ_PATH replays a counterexample of one seed: set FUZZ_SEED too');

/** The property running now: its test's name and seed, and whether it has failed yet. */
let running: { name: string; seed: number; failed: boolean } | undefined;

/** The command that runs this test from `seed` (and only the counterexample at `path`). */
function replayCommand(name: string, seed: number, path?: string): string {
  // -t takes a regular expression: the name's own punctuation is escaped; the shell's quote too.
  const pattern = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, `'\\''`);
  return `FUZZ_SEED=${seed}${path ? ` FUZZ_PATH=${path}` : ''} npx vitest run test/graphql/fuzz.test.ts --project default -t '${pattern}'`;
}

/** A long input printed whole would bury the report: its start, and its length. */
function shown(value: unknown, limit = 4000): string {
  const text = fc.stringify(value);
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length} characters)`;
}

/** A property's predicate that prints its first failing input at once, with the seed. */
function checked<A extends unknown[]>(predicate: (...values: A) => Promise<void>): (...values: A) => Promise<void> {
  return async (...values) => {
    try {
      await predicate(...values);
    } catch (error) {
      if (running && !running.failed) {
        running.failed = true;
        console.error(
          `fuzz: "${running.name}" failed (seed ${running.seed}), shrinking; the input:\n${shown(values)}\nreplay: ${replayCommand(running.name, running.seed)}`,
        );
      }
      throw error;
    }
  };
}

/**
 * fc.assert with a seed known from the start (FUZZ_SEED, or a random one), a time limit, and a
 * report that names the seed, the path, the shrunk counterexample and the command to replay it.
 */
async function assertProperty<Ts>(
  property: fc.IAsyncProperty<Ts>,
  { numRuns, timeLimitMs }: { numRuns: number; timeLimitMs: number },
): Promise<void> {
  const name = expect.getState().currentTestName ?? '';
  const seed = FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31);
  running = { name, seed, failed: false };
  seeds.push(`${seed} "${name}"`);
  const details = await fc.check(property, { seed, path: FUZZ_PATH, numRuns, plugins: [fc.interruptAfterTimeLimit(timeLimitMs)] });
  running = undefined;
  if (!details.failed) return;
  const error = details.errorInstance;
  const report = [
    `fuzz: "${name}" failed after ${details.numRuns} inputs (seed ${seed}, path ${details.counterexamplePath}, shrunk ${details.numShrinks} times${details.interrupted ? ', cut short by the time limit' : ''})`,
    `counterexample: ${details.counterexample === null ? '(none: interrupted)' : shown(details.counterexample, 20_000)}`,
    `error: ${error instanceof Error ? error.message : String(error)}`,
    `replay: ${replayCommand(name, seed, details.counterexamplePath ?? undefined)}`,
  ].join('\n');
  console.error(report);
  throw new Error(report, { cause: error });
}

beforeAll(async () => {
  // Batches of operations with deeply nested variables weigh up to a few hundred KB.
  stack = await startStack({ LOG_LEVEL: 'debug', GRAPHQL_BATCH_LIMIT: String(BATCH), MAX_BODY_BYTES: String(1024 * 1024) });
});
afterAll(async () => {
  console.log(`fuzz: ${inputs} inputs tried; seeds (FUZZ_SEED): ${seeds.join(', ')}`);
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
    expect(
      UPSTREAM_ROUTES.some((route) => route.test(url)),
      url,
    ).toBe(true);
    // Below the node root, no segment may be a dot segment in any encoding.
    const segments = url
      .split('?')[0]!
      .split('/')
      .map((s) => s.toLowerCase());
    expect(
      segments.some((s) => ['.', '..', '%2e', '%2e%2e', '.%2e', '%2e.'].includes(s)),
      url,
    ).toBe(false);
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
  fc.constantFrom(
    '..',
    '../..',
    '%2e%2e',
    '%2E%2E%2F',
    '..%2f',
    '%252e%252e',
    '\\..\\',
    '//evil.example',
    'http://evil.example/',
    '%00',
    'a\u0000b',
    ' ',
    '',
  ),
  fc.string({ maxLength: 5000 }),
);
const anyInt = fc.oneof(fc.integer(), fc.integer({ min: -5, max: 70 }), fc.constantFrom(2 ** 31 - 1, -(2 ** 31)));
const anyJson = fc.oneof(
  anyText,
  anyInt,
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(anyText, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), anyText, { maxKeys: 3 }),
);

const isUuid = (v: unknown) => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
const validPage = (limit: unknown, offset: unknown) =>
  Number.isInteger(limit) && (limit as number) >= 1 && (limit as number) <= 60 && Number.isInteger(offset) && (offset as number) >= 0;

test(
  'GraphQL arguments: any value in any argument',
  async () => {
    await assertProperty(
      fc.asyncProperty(
        fc.record({
          ticker: anyJson,
          block: anyJson,
          limit: anyJson,
          offset: anyJson,
          path: anyJson,
          uuid: anyJson,
          key: fc.constant(PLATFORM_KEY),
        }),
        checked(async (v) => {
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
            expect(
              stack.sample.requests.filter((r) => r.path.startsWith('/runes')),
              answer.text,
            ).toEqual([]);
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
        }),
      ),
      { numRuns: 250, timeLimitMs: 25_000 },
    );
  },
  25_000 + PROPERTY_MARGIN_MS,
);

test(
  'GraphQL documents: literals, deep nesting, many aliases, garbage',
  async () => {
    const literal = fc.oneof(
      anyText.map((s) => JSON.stringify(s)),
      anyInt.map(String),
      fc.constantFrom('true', 'null', '1.5', '[1,2]', '{a: 1}', '$undefined', '"""block"""'),
    );
    const document = fc.oneof(
      fc
        .tuple(literal, literal, literal)
        .map(([a, b, c]) => `{ transfers(block: ${a}, limit: ${b}, offset: ${c}) { total } etchings(limit: ${b}) { total } }`),
      literal.map((a) => `{ bitcoinNode(path: ${a}, apiKey: "${PLATFORM_KEY}") brc20Token(ticker: ${a}) { token { id } } }`),
      literal.map((a) => `{ bitcoinNode(path: "rest/chaininfo.json", apiKey: ${a.replace(/"/g, '')}"${PLATFORM_KEY}") }`),
      fc.integer({ min: 1, max: 300 }).map((n) => `{ ${'status { chainTip { '.repeat(n)} blockHeight ${'} }'.repeat(n)} }`),
      fc.integer({ min: 1, max: 500 }).map((n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: status { status }`).join(' ')} }`),
      fc.string({ maxLength: 200 }),
    );
    await assertProperty(
      fc.asyncProperty(
        document,
        checked(async (query) => {
          stack.sample.clearLog();
          const answer = await post(JSON.stringify({ query }));
          assertGraphQLShape(answer.status, answer.text);
          assertNoSecrets(answer.text);
          assertUpstreamSafe();
        }),
      ),
      { numRuns: 300, timeLimitMs: 20_000 },
    );
  },
  20_000 + PROPERTY_MARGIN_MS,
);

test(
  'HTTP bodies: malformed JSON, wrong types, wrong content types',
  async () => {
    const body = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.constantFrom(
        '',
        '{',
        '[]',
        'null',
        '{"query": 1}',
        '{"query": null}',
        '{"variables": "x", "query": "{ status { status } }"}',
        '{"query":"{ status { status } }","extensions":"x"}',
      ),
      anyJson.map((v) => JSON.stringify({ query: '{ status { status } }', variables: v })),
      anyJson.map((v) => JSON.stringify({ query: v })),
    );
    const contentType = fc.constantFrom(
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'application/graphql',
      '',
    );
    await assertProperty(
      fc.asyncProperty(
        body,
        contentType,
        checked(async (text, type) => {
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
      ),
      { numRuns: 300, timeLimitMs: 15_000 },
    );
  },
  15_000 + PROPERTY_MARGIN_MS,
);

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

test(
  'fragments: nested spreads, fan-out, cycles, inline fragments, directives (batched)',
  async () => {
    const selection = (fragments: number) =>
      fc.oneof(
        fc.constantFrom(
          '__typename',
          'a: __typename',
          'status { status }',
          'etchings(limit: 2) { total }',
          'x { y }',
          '__typename @skip(if: false)',
        ),
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
          fc.array(fc.tuple(fc.array(selection(count), { minLength: 1, maxLength: 8 }), fc.nat({ max: 3 })), {
            minLength: count,
            maxLength: count,
          }),
        )
        .map(
          ([root, bodies]) =>
            `query { ${root.join(' ')} }\n${bodies.map(([items, depth], i) => `fragment F${i} on Query { ${inline(items, depth)} }`).join('\n')}`,
        ),
    );
    // Chains where each fragment spreads the next `fanOut` times: exponential when expanded.
    const chain = fc
      .tuple(fc.integer({ min: 1, max: 120 }), fc.integer({ min: 1, max: 12 }), fc.boolean())
      .map(([length, fanOut, cyclic]) => {
        const next = (i: number) => (i + 1 < length ? i + 1 : cyclic ? 0 : length);
        const fragments = Array.from({ length }, (_, i) => `fragment F${i} on Query { ${`...F${next(i)} `.repeat(fanOut)}__typename }`);
        return `query { ...F0 }\n${fragments.join('\n')}${cyclic ? '' : `\nfragment F${length} on Query { status { status } }`}`;
      });
    await assertProperty(
      fc.asyncProperty(
        fc.array(fc.oneof(graph, chain), { minLength: BATCH, maxLength: BATCH }),
        checked(async (documents) => {
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
      ),
      { numRuns: 520, timeLimitMs: 40_000 },
    );
  },
  40_000 + PROPERTY_MARGIN_MS,
);

/** JSON text of a value nested `depth` deep in lists or objects, around one of `leaves`. */
const nestedJson = (...leaves: string[]) =>
  fc
    .tuple(fc.integer({ min: 1, max: 5000 }), fc.boolean(), fc.constantFrom(...leaves))
    .map(([depth, list, leaf]) =>
      list ? `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`,
    );

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

test(
  'nested variables: lists and objects up to 5000 deep in every argument (batched)',
  async () => {
    // The key is nested where a key goes (it must never be echoed); elsewhere, plain values (a value
    // the client sends as a ticker may be echoed to it: nothing says it is a key).
    const nested = fc.oneof(
      fc.tuple(fc.constantFrom(...VARIABLE_OPERATIONS), nestedJson('1', '"x"', 'null', '[]', '{}')),
      fc.tuple(fc.constant(API_KEY_OPERATION), nestedJson(`"${PLATFORM_KEY}"`)),
    );
    await assertProperty(
      fc.asyncProperty(
        fc.array(nested, { minLength: BATCH, maxLength: BATCH }),
        checked(async (batch) => {
          stack.sample.clearLog();
          const answers = await postBatch(batch.map(([query, value]) => operation(query, value)));
          // A nested value is never a ticker, a block, a page, a path or a key: every answer is an error, nothing is sent.
          for (const answer of answers) expect(answer.errors?.length, JSON.stringify(answer)).toBeGreaterThan(0);
          expect(stack.upstreamCalls()).toEqual([]);
        }),
      ),
      { numRuns: 225, timeLimitMs: 20_000 },
    );
  },
  20_000 + PROPERTY_MARGIN_MS,
);

test(
  'lone surrogates in strings, variables, keys, paths and literals (batched)',
  async () => {
    const lone = fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff');
    // JSON text of a string holding a lone surrogate (JSON.stringify would escape it the same way).
    const surrogateJson = fc
      .tuple(fc.string({ maxLength: 8 }), lone, fc.string({ maxLength: 8 }))
      .map(([before, surrogate, after]) => `"${JSON.stringify(before).slice(1, -1)}${surrogate}${JSON.stringify(after).slice(1, -1)}"`);
    const input = fc.oneof(
      fc.tuple(fc.constantFrom(...VARIABLE_OPERATIONS), surrogateJson).map(([query, value]) => operation(query, value)),
      // The surrogate inside the document: a string literal, an alias, an argument name.
      fc
        .tuple(
          lone,
          fc.constantFrom(
            'brc20Token(ticker: "§") { token { id } }',
            'bitcoinNode(path: "§", apiKey: "§")',
            'a§: __typename',
            'transfers(block: "§") { total }',
          ),
        )
        .map(([surrogate, field]) => `{"query":"{ ${field.replace(/"/g, '\\"').replaceAll('§', surrogate)} }"}`),
      // As a variable's name and as a key of the variables object.
      surrogateJson.map((key) => `{"query":"{ __typename }","variables":{${key}:1}}`),
    );
    await assertProperty(
      fc.asyncProperty(
        fc.array(input, { minLength: BATCH, maxLength: BATCH }),
        checked(async (batch) => {
          stack.sample.clearLog();
          await postBatch(batch);
          assertUpstreamSafe();
          // What the gateway encodes for an upstream is well-formed UTF-8, percent-encoded: never half
          // a character. A bitcoin-node query string is the client's own, forwarded byte for byte
          // (docs/security.md), `%A0` included: only its path is the gateway's.
          const decodeEscapes = (url: string) => url.replace(/(?:%[0-9a-f]{2})+/gi, (run) => decodeURIComponent(run));
          const encodedByGateway = (url: string) => (url.includes('/bitcoin-node/') ? url.split('?')[0]! : url);
          for (const { url } of stack.sample.requests) expect(() => decodeEscapes(encodedByGateway(url)), url).not.toThrow();
        }),
      ),
      { numRuns: 400, timeLimitMs: 20_000 },
    );
  },
  20_000 + PROPERTY_MARGIN_MS,
);

/** graphql-jit 0.8.9's markers (node_modules/graphql-jit/lib/execution.js). */
const JIT_MARKERS = [
  '__MAGIC_DATE__33a9e76d_02e0_4128_8e92_3530ad3da74d',
  '__MAGIC_NAN__57f286b9_4c20_487f_b409_79804ddcb4f8',
  '__MAGIC_PLUS_INFINITY__bb201c39_3333_4695_b4ad_7f1722e7aa7a',
  '__MAGIC_MINUS_INFINITY__71d4310a_d4a3_4a05_b1fe_e60779d24998',
];
/** Set by a payload that ran: the gateway runs in this process. */
const INJECTED = 'satgateFuzzInjected';
/** A payload that ran would also hold the event loop this long: no answer takes it. */
const BLOCK_MS = 5000;

test(
  'graphql-jit markers in every literal position run nothing and answer as graphql-js does (batched)',
  async () => {
    const payload = fc.constantFrom(
      '',
      '1',
      `(globalThis.${INJECTED}=1)`,
      `(globalThis.${INJECTED}=1,(()=>{const end=Date.now()+${BLOCK_MS};while(Date.now()<end);})())`,
      `(globalThis.${INJECTED}=1)"+(globalThis.${INJECTED}=1)+"`,
      `(globalThis.${INJECTED}=1)\\`,
    );
    const text = fc
      .tuple(fc.constantFrom(...JIT_MARKERS), payload, fc.constantFrom('', ' ', 'x'))
      .map(([marker, code, before]) => `${before}${marker}${code}`);
    /** The text as a GraphQL string literal: plain, with escapes (`\u005F` for `_`, or every character), or a block string. */
    const literal = fc.tuple(text, fc.constantFrom('plain', 'underscores', 'all', 'block')).map(([value, how]) => {
      if (how === 'block') return `"""${value}"""`;
      if (how === 'underscores') return JSON.stringify(value).replace(/_/g, '\\u005F');
      if (how === 'all') return `"${[...value].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`;
      return JSON.stringify(value);
    });
    // Each position takes the literal at §; `$t` is a String! variable some of them declare.
    const positions = [
      '{ brc20Token(ticker: §) { token { ticker } } }',
      '{ brc20Tokens(tickers: [§, "ordi"]) { token { ticker } } }',
      '{ brc20Tokens(tickers: §) { token { ticker } } }',
      'query ($t: String!) { brc20Tokens(tickers: [$t, §]) { token { ticker } } }',
      'query ($t: String! = §) { brc20Token(ticker: $t) { token { ticker } } }',
      'query ($t: [String!]! = [§]) { brc20Tokens(tickers: $t) { token { ticker } } }',
      '{ status @include(if: §) { status } }',
      '{ status @skip(if: true) @include(if: §) { status } }',
      '{ transfers(block: §) { total } }',
      '{ etchingsConnection(after: §, first: 1) { totalCount } }',
      '{ ...F } fragment F on Query { a: brc20Token(ticker: §) { token { ticker } } }',
      '{ ... on Query { b: brc20Token(ticker: §) { token { ticker } } } }',
      '{ bitcoinNode(path: "rest/chaininfo.json", apiKey: §) }',
      'mutation { deleteChainhook(uuid: §, apiKey: "k") { status } }',
    ];
    const operation = fc
      .tuple(fc.constantFrom(...positions), literal)
      .map(([position, value]) =>
        JSON.stringify({ query: position.replace('§', value), ...(position.includes('$t: String!)') ? { variables: { t: 'ordi' } } : {}) }),
      );
    /** Posts the operations as one batch: each answer's text, in order, and how long the gateway took. */
    const postBatchAs = async (operations: string[], accept: string) => {
      inputs += operations.length;
      requests++;
      const started = performance.now();
      const response = await fetch(`${stack.gatewayUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept },
        body: `[${operations.join(',')}]`,
      });
      const text = await response.text();
      const ms = performance.now() - started;
      assertNoSecrets(text);
      const answers = (JSON.parse(text) as unknown[]).map((answer) => JSON.stringify(answer));
      for (const answer of answers) assertGraphQLShape(200, answer);
      return { answers, ms };
    };
    await assertProperty(
      fc.asyncProperty(
        fc.array(operation, { minLength: 1, maxLength: BATCH }),
        checked(async (batch) => {
          stack.sample.clearLog();
          // What an earlier input's payload set must not fail this one (shrinking runs many).
          delete (globalThis as Record<string, unknown>)[INJECTED];
          // The same documents twice (another Accept: the response fast path would answer the
          // repeat): the first time on graphql-js, the second compiled (a shape seen before).
          const first = await postBatchAs(batch, 'application/json');
          const second = await postBatchAs(batch, 'application/graphql-response+json');
          expect((globalThis as Record<string, unknown>)[INJECTED]).toBeUndefined();
          expect(second.answers).toEqual(first.answers);
          expect(Math.max(first.ms, second.ms)).toBeLessThan(BLOCK_MS);
          assertUpstreamSafe();
        }),
      ),
      { numRuns: 150, timeLimitMs: 20_000 },
    );
  },
  20_000 + PROPERTY_MARGIN_MS,
);

test(
  'variable defaults of every kind, and odd keys in variables: compiled answers are graphql-js’s bytes',
  async () => {
    const pair = await startExecutorPair();
    try {
      const value = fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.constantFrom(
          'ordi',
          '775700',
          775700,
          1,
          'UnVuZUV0Y2hpbmc6ODQ3MDQxOjky',
          ['ordi'],
          { v: 'ordi' },
          { w: 5 },
          { v: 1, w: 'ordi' },
        ),
      );
      // Two variables, `$v` and `$w`: one's default makes the variables be copied, the other may be
      // absent, and a `__proto__` key may hold either name.
      const variable = fc.record({
        use: fc.constantFrom(...VARIABLE_USES),
        fallback: fc.option(fc.constantFrom(...DEFAULT_LITERALS), { nil: undefined, freq: 2 }),
        given: fc.option(value, { nil: undefined, freq: 2 }),
      });
      const oddKey = fc.oneof({ weight: 3, arbitrary: fc.constant('__proto__') }, { weight: 2, arbitrary: fc.constantFrom(...ODD_KEYS) });
      const oddValue = fc.oneof(value, fc.dictionary(fc.constantFrom('v', 'w'), value, { minKeys: 1, maxKeys: 2 }));
      const request = fc.record({
        declared: fc.tuple(variable, variable),
        odd: fc.array(fc.tuple(oddKey, oddValue), { maxLength: 2 }),
      });
      await assertProperty(
        fc.asyncProperty(
          request,
          checked(async ({ declared, odd }) => {
            // Sent to the pair, not to `stack`: not counted in `requests` (its access lines are checked).
            inputs++;
            const names = ['v', 'w'] as const;
            const definitions = declared.map(
              ({ use: [type], fallback }, i) => `$${names[i]}: ${type}${fallback === undefined ? '' : ` = ${fallback}`}`,
            );
            const fields = declared.map(({ use: [, field] }, i) => `${names[i]}: ${field.replace('§', `$${names[i]}`)}`);
            const query = `query (${definitions.join(', ')}) { ${fields.join(' ')} }`;
            const given = declared.flatMap(({ given }, i) => (given === undefined ? [] : [[names[i], given] as [string, unknown]]));
            // Parsed from text: an object literal's `__proto__` key would set its prototype, not a key.
            const entries = [...odd, ...given].map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
            const variables = JSON.parse(`{${entries.join(',')}}`) as Record<string, unknown>;
            // pair.graphql asserts the two answers are the same text.
            const { status, body } = await pair.graphql(query, variables);
            assertGraphQLShape(status, JSON.stringify(body));
          }),
        ),
        { numRuns: 1000, timeLimitMs: 10_000 },
      );
      // Most inputs are refused before execution or run on graphql-js by design (about 4% ran
      // compiled in 1,000): the comparison must still have seen compiled answers.
      const { compiled, reference } = await pair.executions();
      expect([compiled.compiled >= 5, reference.compiled]).toEqual([true, 0]);
    } finally {
      await pair.close();
    }
  },
  10_000 + PROPERTY_MARGIN_MS,
);

test(
  'REST paths and query parameters: upstream-compatible answers, invalid input never sent',
  async () => {
    const segment = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 12 }).map(encodeURIComponent),
      fc.constantFrom('..', '.', '%2e%2e', '%2E%2e', '%2f', '%5c', '%00', '%zz', '%E0%A4%A', '', 'ordi', 'rest', 'chaininfo.json'),
    );
    const param = fc.oneof(
      anyInt.map(String),
      fc.string({ maxLength: 8 }),
      fc.constantFrom('', '1.5', 'abc', '-1', '61', '0', '60', '+5', '0x10'),
    );
    const path = fc.oneof(
      fc.tuple(segment).map(([t]) => `/ordinals/v1/brc-20/tokens/${t}`),
      fc
        .tuple(param, param, param)
        .map(
          ([b, l, o]) =>
            `/ordinals/v1/inscriptions/transfers?block=${encodeURIComponent(b)}&limit=${encodeURIComponent(l)}&offset=${encodeURIComponent(o)}`,
        ),
      fc.tuple(param, param).map(([l, o]) => `/runes/etchings?limit=${encodeURIComponent(l)}&offset=${encodeURIComponent(o)}`),
      fc.array(segment, { maxLength: 5 }).map((s) => `/v1/ext/${PLATFORM_KEY}/bitcoin-node/${s.join('/')}`),
      fc
        .array(segment, { minLength: 1, maxLength: 4 })
        .map((s) => `/${['metadata', 'ordinals', 'runes', 'v1/ext'][s.length % 4]}/${s.join('/')}`),
    );
    await assertProperty(
      fc.asyncProperty(
        path,
        fc.constantFrom('GET', 'HEAD', 'DELETE', 'POST'),
        checked(async (target, method) => {
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
          if (
            target.includes('/etchings') &&
            !(
              Number.isInteger(Number(query.get('limit'))) &&
              /^\+?\d+$/.test(query.get('limit') ?? '') &&
              Number(query.get('limit')) >= 1 &&
              Number(query.get('limit')) <= 60
            )
          ) {
            // An invalid limit per the upstream's schema (leniently: anything not a plain 1..60) is answered locally.
            if (!/^(0x[0-9a-f]+|\s*\d+(\.0+)?\s*|\+\d+)$/i.test(query.get('limit') ?? '')) expect(stack.sample.requests).toEqual([]);
          }
        }),
      ),
      { numRuns: 400, timeLimitMs: 20_000 },
    );
  },
  20_000 + PROPERTY_MARGIN_MS,
);

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
