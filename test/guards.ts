/**
 * Checks run after every test file (vitest setupFiles): the gateways it drove sent only error
 * codes that docs/errors.md documents, and nothing in the process emitted a warning (Node prints
 * warnings to stderr: a MaxListenersExceededWarning is a leak, a DeprecationWarning a future break).
 */
import { afterAll, expect } from 'vitest';
import { documentedCodes, receivedCodes } from './error-codes.js';

const warnings: string[] = [];
process.on('warning', (warning) => warnings.push(`${warning.name}: ${warning.message}`));

afterAll(() => {
  const documented = documentedCodes();
  expect(
    [...receivedCodes].filter((code) => !documented.has(code)),
    "codes missing from docs/errors.md's table",
  ).toEqual([]);
  expect(warnings, 'process warnings').toEqual([]);
});
