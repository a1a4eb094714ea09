// Documents that differ only in String/ID literals share one validation (validated-shapes.ts); every
// other difference, and every document with errors, is validated as it is. graphql-js's own
// `validate` is the judge: whatever the cache answers must be what it would have said.
import { buildSchema, parse, specifiedRules, validate } from 'graphql';
import { expect, test } from 'vitest';
import { createValidatedShapes } from '../../src/graphql/limits/validated-shapes.js';

const schema = buildSchema(`
  scalar BlockId
  input Filter { name: String, limit: Int }
  type Token { ticker: String, supply: Int }
  type Query {
    token(ticker: String!): Token
    byId(id: ID!): Token
    tokens(tickers: [String!]!, filter: Filter): [Token]
    block(id: BlockId!): Token
    page(limit: Int): [Token]
  }
`);

/** Validates each document through one cache: graphql-js's errors (messages) and whether it ran. */
function through(documents: string[]) {
  const shapes = createValidatedShapes(1024 * 1024);
  return documents.map((text) => {
    const document = parse(text);
    let ran = false;
    const errors = shapes.validate(schema, document, specifiedRules, () => {
      ran = true;
      return validate(schema, document, specifiedRules);
    });
    // The cache's answer is graphql-js's answer.
    expect(errors.map(String)).toEqual(validate(schema, document, specifiedRules).map(String));
    return { ran, errors: errors.map((error) => error.message) };
  });
}

test('a new String or ID literal reuses the validation of its shape', () => {
  expect(
    through([
      '{ token(ticker: "ordi") { ticker } }',
      '{ token(ticker: "pepe") { ticker } }',
      // A block string is a shape of its own (graphql-js compares arguments as printed).
      '{ token(ticker: """block""") { ticker } }',
      '{ token(ticker: """other""") { ticker } }',
      '{ byId(id: "a") { ticker } }',
      '{ byId(id: "b") { ticker } }',
      'query ($f: Filter = { name: "x" }) { tokens(tickers: ["a", "b"], filter: $f) { ticker } }',
      'query ($f: Filter = { name: "y" }) { tokens(tickers: ["c", "d"], filter: $f) { ticker } }',
    ]),
  ).toEqual([
    { ran: true, errors: [] },
    { ran: false, errors: [] },
    { ran: true, errors: [] },
    { ran: false, errors: [] },
    { ran: true, errors: [] },
    { ran: false, errors: [] },
    { ran: true, errors: [] },
    { ran: false, errors: [] },
  ]);
});

test('equal literals and distinct ones are other shapes: fields merged under one name are checked again', () => {
  const [same, differ] = through([
    '{ a: token(ticker: "x") { ticker } a: token(ticker: "x") { ticker } }',
    '{ a: token(ticker: "x") { ticker } a: token(ticker: "y") { ticker } }',
  ]);
  expect(same).toEqual({ ran: true, errors: [] });
  expect(differ).toEqual({
    ran: true,
    errors: [
      'Fields "a" conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional.',
    ],
  });
});

test('literals of other types are part of the shape: an Int out of range, a custom scalar, a string where an Int goes', () => {
  expect(
    through([
      '{ page(limit: 1) { ticker } }',
      '{ page(limit: 99999999999) { ticker } }',
      '{ block(id: "a") { ticker } }',
      '{ block(id: "b") { ticker } }',
      '{ page(limit: "x") { ticker } }',
    ]),
  ).toEqual([
    { ran: true, errors: [] },
    { ran: true, errors: ['Int cannot represent non 32-bit signed integer value: 99999999999'] },
    { ran: true, errors: [] },
    { ran: true, errors: [] },
    { ran: true, errors: ['Int cannot represent non-integer value: "x"'] },
  ]);
});

test('a shape with errors is never reused: each document gets its own errors', () => {
  expect(through(['{ token(ticker: "a") { nope } }', '{ token(ticker: "b") { nope } }'])).toEqual([
    { ran: true, errors: ['Cannot query field "nope" on type "Token".'] },
    { ran: true, errors: ['Cannot query field "nope" on type "Token".'] },
  ]);
});
