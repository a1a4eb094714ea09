import { readFileSync } from 'node:fs';
import { buildSchema, parse, printSchema, validate } from 'graphql';
import { expect, test } from 'vitest';
import { schema } from '../../src/graphql/schema/index.js';

test('schema.graphql is the printed schema (run `npm run schema` after changing the code)', () => {
  const checkedIn = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
  expect(checkedIn).toBe(printSchema(schema) + '\n');
});

test('schema.graphql declares @defer and @stream: a document using them validates against the file', () => {
  const file = buildSchema(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));
  const document = parse(
    '{ status { status } ... @defer(label: "later") { etchingsConnection(first: 500) { edges @stream(initialCount: 10) { cursor } } } }',
  );
  expect(validate(file, document)).toEqual([]);
});
