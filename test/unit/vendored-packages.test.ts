// vendor/whatwg-node-promise-helpers is what npm installed for every package that asks for
// @whatwg-node/promise-helpers (the override in package.json): both entry points, byte for byte.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const VENDORED = new URL('../../vendor/whatwg-node-promise-helpers/', import.meta.url);

test('node_modules holds the vendored promise-helpers, for import and for require', () => {
  // Resolved from yoga's own folder, as yoga resolves it.
  const fromYoga = createRequire(createRequire(import.meta.url).resolve('graphql-yoga'));
  const installed = {
    cjs: fromYoga.resolve('@whatwg-node/promise-helpers'),
    esm: fileURLToPath(import.meta.resolve('@whatwg-node/promise-helpers')),
  };
  expect(installed.cjs).not.toContain('/vendor/');
  for (const [format, file] of Object.entries(installed)) {
    expect(readFileSync(file, 'utf8'), format).toBe(readFileSync(new URL(`${format}/index.js`, VENDORED), 'utf8'));
  }
});
