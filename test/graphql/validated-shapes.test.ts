// Over HTTP: documents that differ only in a String literal share one validation, and every answer
// is still the document's own: a ticker written into the document answers that ticker, and a
// document whose twin was valid gets its own validation errors, with its own locations, before
// any upstream call.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startStack, type Stack } from '../harness.js';

let stack: Stack;
beforeAll(async () => {
  // Every request executes: the fast path would answer repeated documents without validating them.
  stack = await startStack({ RESPONSE_CACHE: 'off' });
});
afterAll(() => stack.close());

const token = (ticker: string) => `{ brc20Token(ticker: ${JSON.stringify(ticker)}) { token { ticker } } }`;

test('each literal ticker answers its own token', async () => {
  const answers = [];
  for (const ticker of ['ordi', 'pepe', 'sats']) answers.push((await stack.graphql(token(ticker))).body);
  expect(answers).toEqual(['ordi', 'pepe', 'sats'].map((ticker) => ({ data: { brc20Token: { token: { ticker } } } })));
});

/** graphql-js's error for two fields `a` (lines 1 and 2) with differing arguments. */
const conflict = {
  message:
    'Fields "a" conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional.',
  locations: [
    { line: 1, column: 3 },
    { line: 2, column: 3 },
  ],
  extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
};

test('a twin of a valid document whose literals make it invalid gets its own errors, and no upstream call', async () => {
  const merged = (second: string) =>
    `{ a: brc20Token(ticker: "ordi") { token { ticker } }\n  a: brc20Token(ticker: ${JSON.stringify(second)}) { token { ticker } } }`;
  expect((await stack.graphql(merged('ordi'))).body).toEqual({ data: { a: { token: { ticker: 'ordi' } } } });
  stack.sample.clearLog();
  // Once, as graphql-js says it: the @defer/@stream plugin's overlapping-fields rule replaces graphql-js's.
  expect((await stack.graphql(merged('pepe'))).body).toEqual({ errors: [conflict] });
  // A string where a Boolean goes is part of the shape, never a stand-in for another string.
  expect((await stack.graphql('{ status @include(if: true) { status } }')).body).toEqual({ data: { status: { status: 'ready' } } });
  stack.sample.clearLog();
  expect((await stack.graphql('{ status @include(if: "yes") { status } }')).body).toEqual({
    errors: [
      {
        message: 'Boolean cannot represent a non boolean value: "yes"',
        locations: [{ line: 1, column: 23 }],
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      },
    ],
  });
  expect(stack.upstreamCalls()).toEqual([]);
});

test("a block string is not a stand-in for the same text quoted: the twin gets graphql-js's conflict", async () => {
  const twice = (second: string) =>
    `{ a: brc20Token(ticker: "pepe") { token { ticker } }\n  a: brc20Token(ticker: ${second}) { token { ticker } } }`;
  expect((await stack.graphql(twice('"pepe"'))).body).toEqual({ data: { a: { token: { ticker: 'pepe' } } } });
  stack.sample.clearLog();
  expect((await stack.graphql(twice('"""pepe"""'))).body).toEqual({ errors: [conflict] });
  expect(stack.upstreamCalls()).toEqual([]);
});
