import { readFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { expect, test } from 'vitest';
import { schema } from '../../src/graphql/schema/index.js';

test('schema.graphql is the printed schema (run `npm run schema` after changing the code)', () => {
  const checkedIn = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
  expect(checkedIn).toBe(printSchema(schema) + '\n');
});
