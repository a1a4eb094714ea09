// A syntax error's quoted strings redacted in one pass (src/graphql/plugins/secret-scrubbing.ts).
import { expect, test } from 'vitest';
import { withoutQuoted } from '../../src/graphql/plugins/secret-scrubbing.js';

test.each([
  ['Syntax Error: Expected Name, found String "k3y".', 'Syntax Error: Expected Name, found String "<redacted>".'],
  ['a "x\\"y" b "z" c', 'a "<redacted>" b "<redacted>" c'],
  ['a "x\\"', 'a "<redacted>"'],
  ['a "x\\', 'a "<redacted>"'],
  [`a ${'\\"'.repeat(3)}\\`, 'a \\"<redacted>"'],
  ['no quotes', 'no quotes'],
  ['""', '"<redacted>"'],
])('%s', (text, redacted) => {
  expect(withoutQuoted(text)).toBe(redacted);
});
