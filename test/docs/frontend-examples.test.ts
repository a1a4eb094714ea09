/**
 * docs/frontend.md shows the setups the tests run: each code block right after a
 * `<!-- examples/frontend/<file> -->` line equals that file, byte for byte.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const doc = readFileSync(new URL('docs/frontend.md', ROOT), 'utf8');
const blocks = [...doc.matchAll(/^<!-- (examples\/frontend\/[\w.-]+) -->\n\n```\w+\n([\s\S]*?)^```$/gm)].map(
  ([, file, code]) => [file!, code!] as const,
);

test('docs/frontend.md shows at least the urql setup', () => {
  expect(blocks.map(([file]) => file)).toContain('examples/frontend/urql.ts');
});

test.each(blocks)('the block of %s equals the file', (file, code) => {
  expect(code).toBe(readFileSync(new URL(file, ROOT), 'utf8'));
});
