// Compiled execution (graphql-jit): a document seen before runs compiled (the first time it runs
// on graphql-js: compiling costs more than executing once), counted by engine in /metrics; the
// compiled answer is graphql-js's; what the compiler would answer differently runs on graphql-js;
// errors keep the `locations` graphql-js gives, through aliases, fragments and inline fragments;
// documents with @skip or @include run on graphql-js.
// Literals travel as variables (test/graphql/literal-injection.test.ts): documents that differ only in
// their literals share one compiled plan, each answered, and located, as its own.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startExecutorPair } from '../executor-pair.js';
import { executionsByEngine, startStack, type Stack } from '../harness.js';
import { DEFAULT_LITERALS, VARIABLE_USES } from '../variable-uses.js';
import { sampleData } from '../../src/sample/data.js';
import { SAMPLE_PLATFORM_KEY } from '../../src/sample/server.js';
import { fieldError } from '../support.js';

let stack: Stack;
beforeAll(async () => {
  // Every request executes: the fast path would answer repeated documents without executing.
  stack = await startStack({ RESPONSE_CACHE: 'off' });
});
afterAll(() => stack.close());

const executions = () => executionsByEngine(stack);

/** Runs a request and answers its body with how many executions of each engine it added. */
async function counted(query: string, variables?: Record<string, unknown>) {
  const before = await executions();
  const { body } = await stack.graphql(query, variables);
  const after = await executions();
  return { body, compiled: after.compiled - before.compiled, fallback: after.fallback - before.fallback };
}

test('a document runs on graphql-js the first time, compiled from the second, with the same answer and keys in query order', async () => {
  const query = '{ second: status { status } first: etchings(limit: 1) { limit offset } }';
  const expected = { data: { second: { status: 'ready' }, first: { limit: 1, offset: 0 } } };
  const first = await counted(query);
  expect(first).toEqual({ body: expected, compiled: 0, fallback: 1 });
  for (let i = 0; i < 2; i++) {
    const again = await counted(query);
    expect(again).toEqual({ body: expected, compiled: 1, fallback: 0 });
    expect(Object.keys(again.body.data ?? {})).toEqual(['second', 'first']);
  }
});

test('an omitted non-null variable with a default runs compiled, with the default', async () => {
  const query = 'query($limit: Int! = 2) { etchings(limit: $limit) { limit } }';
  expect(await counted(query)).toEqual({ body: { data: { etchings: { limit: 2 } } }, compiled: 0, fallback: 1 });
  expect(await counted(query)).toEqual({ body: { data: { etchings: { limit: 2 } } }, compiled: 1, fallback: 0 });
});

test.each<[string, unknown, string]>([
  ['a string for an Int', 'many', 'Variable "$limit" got invalid value "many"; Int cannot represent non-integer value: "many"'],
  // graphql-jit 0.8.9 lets this one through, to fail the field instead.
  ['null for a non-null type', null, 'Variable "$limit" of non-null type "Int!" must not be null.'],
])('a variable that is %s runs on graphql-js: its BAD_USER_INPUT at the definition', async (_name, limit, message) => {
  stack.sample.reset();
  const query = 'query($limit: Int!) { etchings(limit: $limit) { limit } }';
  // Seen before, the document would run compiled: these variables keep it on graphql-js.
  await counted(query, { limit: 1 });
  stack.sample.clearLog();
  const { body, compiled, fallback } = await counted(query, { limit });
  expect({ compiled, fallback }).toEqual({ compiled: 0, fallback: 1 });
  expect(body).toEqual({ errors: [{ message, locations: [{ line: 1, column: 7 }], extensions: { code: 'BAD_USER_INPUT' } }] });
  expect(stack.upstreamCalls()).toEqual([]);
});

test('a null variable for a non-null argument with a default fails its field as BAD_USER_INPUT, compiled too', async () => {
  stack.sample.reset();
  const query = 'query($n: Int) {\n  status { status }\n  page: etchings(offset: $n) { limit }\n}';
  const expected = {
    data: { status: { status: 'ready' }, page: null },
    errors: [
      {
        message: 'Argument "offset" of non-null type "Int!" must not be null.',
        locations: [{ line: 3, column: 26 }],
        path: ['page'],
        extensions: { code: 'BAD_USER_INPUT' },
      },
    ],
  };
  const answers = [await counted(query, { n: null }), await counted(query, { n: null })];
  expect(answers).toEqual([
    { body: expected, compiled: 0, fallback: 1 },
    { body: expected, compiled: 1, fallback: 0 },
  ]);
  // Only `status` asked the upstream: the refused argument never reached it.
  expect(new Set(stack.upstreamCalls())).toEqual(new Set(['GET /metadata/v1']));
});

test('a field error keeps the locations graphql-js gives, through an alias, a fragment, an inline fragment and @skip', async () => {
  const query = [
    'query Blocks($skipped: Boolean = true) {',
    '  status { status }',
    '  ...Bad',
    '  bad: transfers(block: "not-a-block") @skip(if: $skipped) { total }',
    '}',
    'fragment Bad on Query {',
    '  bad: transfers(block: "not-a-block") { total }',
    '  ... on Query { bad: transfers(block: "not-a-block") { total } }',
    '}',
  ].join('\n');
  // A document with @skip stays on graphql-js (see the test below): the same answer every time.
  const first = await counted(query);
  expect({ compiled: first.compiled, fallback: first.fallback }).toEqual({ compiled: 0, fallback: 1 });
  const { body, compiled, fallback } = await counted(query);
  expect({ compiled, fallback }).toEqual({ compiled: 0, fallback: 1 });
  expect(body).toEqual(first.body);
  /** The answer: `bad` failed at these locations. */
  const failedAt = (...locations: Array<{ line: number; column: number }>) => ({
    data: { status: { status: 'ready' }, bad: null },
    errors: [{ message: expect.any(String), locations, path: ['bad'], extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) }],
  });
  // The fragment's field, then the inline fragment's; the skipped one is not among them.
  expect(body).toEqual(failedAt({ line: 7, column: 3 }, { line: 8, column: 18 }));
  // Not skipped, the field at the operation's level joins them, in selection order (the spread comes first).
  const { body: unskipped } = await counted(query, { skipped: false });
  expect(unskipped).toEqual(failedAt({ line: 7, column: 3 }, { line: 8, column: 18 }, { line: 4, column: 3 }));
});

test('documents that differ only in literals share one compiled plan: the second ticker runs compiled the first time it comes', async () => {
  const ask = (ticker: string) => counted(`{ shared: brc20Token(ticker: ${JSON.stringify(ticker)}) { token { ticker } } }`);
  const answers = [];
  for (const ticker of ['ordi', 'pepe', 'sats']) {
    stack.sample.clearLog();
    answers.push({ ...(await ask(ticker)), upstream: stack.upstreamCalls() });
  }
  const answer = (ticker: string, engine: { compiled: number; fallback: number }) => ({
    body: { data: { shared: { token: { ticker } } } },
    ...engine,
    upstream: [`GET /ordinals/v1/brc-20/tokens?ticker=${ticker}&offset=0&limit=60`],
  });
  expect(answers).toEqual([
    answer('ordi', { compiled: 0, fallback: 1 }),
    answer('pepe', { compiled: 1, fallback: 0 }),
    answer('sats', { compiled: 1, fallback: 0 }),
  ]);
});

test.each([
  // graphql-jit 0.8.9 answered the skipped fragment's fields from the second request on,
  [
    'a skipped selection beside another of its key',
    'query($v: Boolean!) { etchings(limit: 1) @include(if: $v) { ...E } etchings(limit: 1) { total } } fragment E on RuneEtchingPage { results { spacedName } }',
    { v: false },
    { data: { etchings: { total: 302 } } },
  ],
  [
    'a skipped field of a nested key',
    '{ status @skip(if: true) { ...S } status { status } } fragment S on Status { serverVersion }',
    {},
    { data: { status: { status: 'ready' } } },
  ],
  // and put a skipped selection's key first.
  [
    'a skipped key before the others',
    '{ status @skip(if: true) { status } etchings(limit: 1) { total } status { status } }',
    {},
    { data: { etchings: { total: 302 }, status: { status: 'ready' } } },
  ],
])('@skip and @include run on graphql-js, every time: %s', async (_name, query, variables, expected) => {
  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(await counted(query, variables));
  expect(answers.map(({ body }) => JSON.stringify(body))).toEqual(Array(3).fill(JSON.stringify(expected)));
  expect(answers.map(({ compiled, fallback }) => ({ compiled, fallback }))).toEqual(Array(3).fill({ compiled: 0, fallback: 1 }));
});

test("on a shared plan, errors are located in the request's own document", async () => {
  const failed = (query: string) => ({
    data: { a: null, b: null },
    errors: ['a', 'b'].map((key) => ({
      message: expect.any(String),
      locations: [{ line: 1, column: query.indexOf(`${key}: transfers`) + 1 }],
      path: [key],
      extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
    })),
  });
  const first = '{ a: transfers(block: "bad") { total } b: transfers(block: "also-bad") { total } }';
  const second = '{ a: transfers(block: "bad-bad-bad-bad") { total } b: transfers(block: "x") { total } }';
  expect(await counted(first)).toEqual({ body: failed(first), compiled: 0, fallback: 1 });
  expect(await counted(second)).toEqual({ body: failed(second), compiled: 1, fallback: 0 });
});

test('operations of one document that share a fragment each get their own answer, compiled', async () => {
  // Each operation has its own plan (their hoisted variables differ), the fragment in both.
  const document = [
    'query A { ...F }',
    'query B { brc20Token(ticker: "ordi") { token { ticker } } ...F }',
    'fragment F on Query { status { status } }',
  ].join('\n');
  const run = async (operationName: string) => {
    const before = await executions();
    const response = await fetch(`${stack.gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: document, operationName }),
    });
    const after = await executions();
    return { body: await response.json(), compiled: after.compiled - before.compiled };
  };
  const a = { data: { status: { status: 'ready' } } };
  const b = { data: { brc20Token: { token: { ticker: 'ordi' } }, status: { status: 'ready' } } };
  expect([await run('A'), await run('A'), await run('B'), await run('B'), await run('A')]).toEqual([
    { body: a, compiled: 0 },
    { body: a, compiled: 1 },
    { body: b, compiled: 0 },
    { body: b, compiled: 1 },
    { body: a, compiled: 1 },
  ]);
});

test('compiled queries are kept within DOCUMENT_CACHE_MAX_BYTES, least recently used out', async () => {
  const bound = 100_000;
  const small = await startStack({ RESPONSE_CACHE: 'off', DOCUMENT_CACHE_MAX_BYTES: String(bound) });
  try {
    const heldBytes = async () => {
      const text = await (await fetch(`${small.gatewayUrl}/metrics`)).text();
      return Number(/^satgate_document_cache_bytes\{cache="compiled"\} (\d+)$/m.exec(text)?.[1]);
    };
    const answers = [];
    // Each document twice: the second time it is compiled and kept. Each has a shape of its own
    // (an alias): documents that differ only in a literal would share one plan.
    for (let i = 1; i <= 40; i++) {
      await small.graphql(`{ e${i}: etchings(limit: ${i}) { limit offset total } }`);
      answers.push((await small.graphql(`{ e${i}: etchings(limit: ${i}) { limit offset total } }`)).body);
    }
    expect(answers).toEqual(
      Array.from({ length: 40 }, (_, i) => ({ data: { [`e${i + 1}`]: { limit: i + 1, offset: 0, total: expect.any(Number) } } })),
    );
    const held = await heldBytes();
    // Each entry is estimated at several KB: 40 of them would not fit, so the oldest went out.
    expect(held).toBeGreaterThan(bound / 2);
    expect(held).toBeLessThanOrEqual(bound);
  } finally {
    await small.close();
  }
});

test('a default graphql-js reads otherwise than as JSON (a Float where a BlockId goes) runs on graphql-js every time', async () => {
  const query = 'query($b: BlockId! = 775700.0) { transfers(block: $b, limit: 1) { total } }';
  const runs = [await counted(query), await counted(query), await counted(query)];
  const refused = {
    errors: [
      {
        message: expect.stringMatching(/^BlockId must be a block height/) as string,
        locations: [{ line: 1, column: 34 }],
        path: ['transfers'],
        extensions: { code: 'BAD_USER_INPUT' },
      },
    ],
    data: { transfers: null },
  };
  expect(runs).toEqual(Array(3).fill({ body: refused, compiled: 0, fallback: 1 }));
});

test('a `__proto__` key in the variables is only a name no operation declares, compiled or not', async () => {
  const query = 'query($a: Int = 1, $l: Int) { x: etchings(limit: $a) { limit } etchings(limit: $l) { limit } }';
  const variables = JSON.parse('{"__proto__":{"l":5}}') as Record<string, unknown>;
  const body = { data: { x: { limit: 1 }, etchings: { limit: 20 } } };
  expect([await counted(query, variables), await counted(query, variables)]).toEqual([
    { body, compiled: 0, fallback: 1 },
    { body, compiled: 1, fallback: 0 },
  ]);
});

test('a document that names anything `__proto__` (an alias, a variable) runs on graphql-js every time, with its field and value', async () => {
  const aliased = '{ etchings(limit: 1) { __proto__: total limit } }';
  const named = 'query($__proto__: Int!) { etchings(limit: $__proto__) { limit } }';
  const total = ((await stack.graphql('{ etchings(limit: 1) { total } }')).body.data?.etchings as { total: number }).total;
  // As a client's JSON has it: an own member named `__proto__`.
  const variables = JSON.parse('{"__proto__": 2}') as Record<string, unknown>;
  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(await counted(aliased), await counted(named, variables));
  expect(answers).toEqual(
    Array.from({ length: 3 }, () => [
      { body: { data: { etchings: { ['__proto__']: total, limit: 1 } } }, compiled: 0, fallback: 1 },
      { body: { data: { etchings: { limit: 2 } } }, compiled: 0, fallback: 1 },
    ]).flat(),
  );
});

test('a query whose non-null field failed as it started answers graphql-js’s errors: the later fields never ran', async () => {
  // brc20Tokens is non-null and refuses an empty list as it starts; graphql-js then runs no later
  // field, where graphql-jit ran transfers too and reported its error first.
  const query = '{ tokens: brc20Tokens(tickers: []) { token { ticker } } transfers(block: -1) { total } }';
  const body = {
    errors: [
      {
        message: 'tickers must hold 1 to 50 tickers, got 0',
        locations: [{ line: 1, column: 3 }],
        path: ['tokens'],
        extensions: { code: 'BAD_USER_INPUT', argument: 'tickers' },
      },
    ],
    data: null,
  };
  expect([await counted(query), await counted(query)]).toEqual([
    { body, compiled: 0, fallback: 1 },
    // Compiled, then run again on graphql-js.
    { body, compiled: 0, fallback: 1 },
  ]);
});

test('every default literal, in every variable position, answers the same bytes compiled (from its first run) and on graphql-js', async () => {
  const pair = await startExecutorPair();
  try {
    for (const [type, field] of VARIABLE_USES) {
      for (const literal of DEFAULT_LITERALS) {
        const query = `query ($v: ${type} = ${literal}) { v: ${field.replace('§', '$v')} }`;
        // pair.graphql asserts the two answers are the same text.
        const { status } = await pair.graphql(query);
        expect(status, query).toBeLessThan(500);
      }
    }
    const { compiled, reference } = await pair.executions();
    // Some ran compiled (the rest are refused before execution, or run on graphql-js by design).
    expect(compiled.compiled).toBeGreaterThan(0);
    expect(reference.compiled).toBe(0);
  } finally {
    await pair.close();
  }
});

test('a list item that fails after a later item has its answer keeps its own place, compiled as on graphql-js', async () => {
  const pair = await startExecutorPair(() => ({ BRC20_LIST_LOOKUPS: 'off' }));
  try {
    // ordi's token fails 150 ms late, after pepe's has come back.
    pair.inject({ path: /brc-20\/tokens\/ordi$/, status: 500, delayMs: 150, body: { error: 'x' } });
    const { body } = await pair.graphql('{ brc20Tokens(tickers: ["ordi", "pepe"]) { token { ticker } supply { holders } } }');
    const pepe = sampleData.brc20Tokens.find(({ token }) => token.ticker === 'pepe')!;
    expect(body).toEqual({
      data: { brc20Tokens: [null, { token: { ticker: 'pepe' }, supply: { holders: pepe.supply.holders } }] },
      errors: [fieldError(['brc20Tokens', 0], { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 500 })],
    });
    expect((await pair.executions()).compiled).toEqual({ compiled: 1, fallback: 0 });
  } finally {
    await pair.close();
  }
});

test('a query run again on graphql-js is charged its answer bytes once', async () => {
  // Room for one 6 KB platform answer, not two.
  const pair = await startExecutorPair(() => ({ MAX_RESPONSE_BYTES_PER_REQUEST: '10100' }));
  try {
    pair.inject({ path: /bitcoin-node/, status: 200, body: { blob: 'x'.repeat(6000) } });
    const query = `{ n: bitcoinNode(path: "rest/chaininfo.json", apiKey: "${SAMPLE_PLATFORM_KEY}") t: brc20Tokens(tickers: []) { token { ticker } } }`;
    const { body } = await pair.graphql(query);
    // brc20Tokens is non-null and refuses its input: data is null, and its error is the only one.
    expect(body).toEqual({ data: null, errors: [fieldError(['t'], { code: 'BAD_USER_INPUT', argument: 'tickers' })] });
    expect((await pair.executions()).compiled).toEqual({ compiled: 0, fallback: 1 });
  } finally {
    await pair.close();
  }
});

test('COMPILED_EXECUTION=eager warns at start that it has no compile budget; the default does not', async () => {
  const warnings = (logs: string[]) =>
    logs
      .map((line) => JSON.parse(line) as { level: string; msg: string })
      .filter(({ level }) => level === 'warn')
      .map(({ msg }) => msg);
  const eager = await startStack({ COMPILED_EXECUTION: 'eager' });
  try {
    expect(warnings(eager.logs)).toEqual([
      'COMPILED_EXECUTION=eager compiles every new document without a budget: for checking the executors, not for production',
    ]);
    expect(warnings(stack.logs)).toEqual([]);
  } finally {
    await eager.close();
  }
});
