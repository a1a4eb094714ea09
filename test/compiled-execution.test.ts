// Compiled execution (graphql-jit): queries and mutations run compiled, counted by engine in
// /metrics; what the compiler would answer differently runs on graphql-js; errors keep the
// `locations` graphql-js gives, through aliases, fragments, inline fragments and @skip.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startStack, type Stack } from './harness.js';

let stack: Stack;
beforeAll(async () => {
  // Every request executes: the fast path would answer repeated documents without executing.
  stack = await startStack({ RESPONSE_CACHE: 'off' });
});
afterAll(() => stack.close());

async function executions(): Promise<{ compiled: number; fallback: number }> {
  const text = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
  const count = (engine: string) => Number(new RegExp(`^satgate_graphql_executions_total\\{engine="${engine}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  return { compiled: count('compiled'), fallback: count('fallback') };
}

/** Runs a request and answers its body with how many executions of each engine it added. */
async function counted(query: string, variables?: Record<string, unknown>) {
  const before = await executions();
  const { body } = await stack.graphql(query, variables);
  const after = await executions();
  return { body, compiled: after.compiled - before.compiled, fallback: after.fallback - before.fallback };
}

test('a query runs compiled, with response keys in query order', async () => {
  const { body, compiled, fallback } = await counted('{ second: status { status } first: etchings(limit: 1) { limit offset } }');
  expect({ compiled, fallback }).toEqual({ compiled: 1, fallback: 0 });
  expect(body).toEqual({ data: { second: { status: 'ready' }, first: { limit: 1, offset: 0 } } });
  expect(Object.keys(body.data ?? {})).toEqual(['second', 'first']);
});

test('an omitted non-null variable with a default runs compiled, with the default', async () => {
  const { body, compiled, fallback } = await counted('query($limit: Int! = 2) { etchings(limit: $limit) { limit } }');
  expect({ compiled, fallback }).toEqual({ compiled: 1, fallback: 0 });
  expect(body).toEqual({ data: { etchings: { limit: 2 } } });
});

test.each<[string, unknown, string]>([
  ['a string for an Int', 'many', 'Variable "$limit" got invalid value "many"; Int cannot represent non-integer value: "many"'],
  // graphql-jit 0.8.9 lets this one through, to fail the field instead.
  ['null for a non-null type', null, 'Variable "$limit" of non-null type "Int!" must not be null.'],
])('a variable that is %s runs on graphql-js: its BAD_USER_INPUT at the definition', async (_name, limit, message) => {
  stack.sample.reset();
  const { body, compiled, fallback } = await counted('query($limit: Int!) { etchings(limit: $limit) { limit } }', { limit });
  expect({ compiled, fallback }).toEqual({ compiled: 0, fallback: 1 });
  expect(body).toEqual({ errors: [{ message, locations: [{ line: 1, column: 7 }], extensions: { code: 'BAD_USER_INPUT' } }] });
  expect(stack.upstreamCalls()).toEqual([]);
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
  const { body, compiled, fallback } = await counted(query);
  expect({ compiled, fallback }).toEqual({ compiled: 1, fallback: 0 });
  expect(body).toEqual({
    data: { status: { status: 'ready' }, bad: null },
    errors: [
      {
        message: expect.any(String),
        // The fragment's field, then the inline fragment's; the skipped one is not among them.
        locations: [
          { line: 7, column: 3 },
          { line: 8, column: 18 },
        ],
        path: ['bad'],
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      },
    ],
  });
  // Not skipped, the field at the operation's level joins them, in selection order (the spread comes first).
  const { body: unskipped } = await counted(query, { skipped: false });
  expect(unskipped).toEqual({
    data: { status: { status: 'ready' }, bad: null },
    errors: [
      {
        message: expect.any(String),
        locations: [
          { line: 7, column: 3 },
          { line: 8, column: 18 },
          { line: 4, column: 3 },
        ],
        path: ['bad'],
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      },
    ],
  });
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
    for (let i = 1; i <= 40; i++) answers.push((await small.graphql(`{ etchings(limit: ${i}) { limit offset total } }`)).body);
    expect(answers).toEqual(Array.from({ length: 40 }, (_, i) => ({ data: { etchings: { limit: i + 1, offset: 0, total: expect.any(Number) } } })));
    const held = await heldBytes();
    // Each entry is estimated at several KB: 40 of them would not fit, so the oldest went out.
    expect(held).toBeGreaterThan(bound / 2);
    expect(held).toBeLessThanOrEqual(bound);
  } finally {
    await small.close();
  }
});
