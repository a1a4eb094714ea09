// vendor/ holds three packages npm installs from there (package.json): check that node_modules
// holds those copies, byte for byte, for import and for require.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const VENDOR = new URL('../../vendor/', import.meta.url);

test('node_modules holds the vendored promise-helpers, for import and for require', () => {
  // Resolved from yoga's own folder, as yoga resolves it.
  const fromYoga = createRequire(createRequire(import.meta.url).resolve('graphql-yoga'));
  const installed = {
    cjs: fromYoga.resolve('@whatwg-node/promise-helpers'),
    esm: fileURLToPath(import.meta.resolve('@whatwg-node/promise-helpers')),
  };
  expect(installed.cjs).not.toContain('/vendor/');
  for (const [format, file] of Object.entries(installed)) {
    expect(readFileSync(file, 'utf8'), format).toBe(
      readFileSync(new URL(`whatwg-node-promise-helpers/${format}/index.js`, VENDOR), 'utf8'),
    );
  }
});

test('node_modules holds the vendored graphql-jit, the compiler its entry points load', () => {
  const entries = {
    'index.js': createRequire(import.meta.url).resolve('graphql-jit'),
    'index.mjs': fileURLToPath(import.meta.resolve('graphql-jit')),
  };
  for (const [name, file] of Object.entries(entries)) {
    expect(file).not.toContain('/vendor/');
    expect(readFileSync(file, 'utf8'), name).toBe(readFileSync(new URL(`graphql-jit/lib/${name}`, VENDOR), 'utf8'));
  }
  // Both entry points load the CommonJS build of the compiler (0.8.9's index.mjs imports ./execution.js).
  const compiler = entries['index.js'].replace(/index\.js$/, 'execution.js');
  expect(readFileSync(compiler, 'utf8')).toBe(readFileSync(new URL('graphql-jit/lib/execution.js', VENDOR), 'utf8'));
  expect(readFileSync(entries['index.mjs'], 'utf8')).toContain('from "./execution.js"');
});

test('node_modules holds the vendored @graphql-tools/executor, for import and for require', () => {
  // Resolved from yoga's own folder, as yoga resolves it.
  const fromYoga = createRequire(createRequire(import.meta.url).resolve('graphql-yoga'));
  const entries = {
    cjs: fromYoga.resolve('@graphql-tools/executor'),
    esm: fileURLToPath(import.meta.resolve('@graphql-tools/executor')),
  };
  for (const [format, file] of Object.entries(entries)) {
    expect(file).not.toContain('/vendor/');
    const promiseForObject = file.replace(/index\.js$/, 'execution/promiseForObject.js');
    expect(readFileSync(promiseForObject, 'utf8'), format).toBe(
      readFileSync(new URL(`graphql-tools-executor/${format}/execution/promiseForObject.js`, VENDOR), 'utf8'),
    );
  }
});
