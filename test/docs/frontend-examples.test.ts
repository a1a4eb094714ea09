/**
 * docs/frontend.md shows the client setups that test/frontend runs: each code block marked
 * `<!-- file: <path> -->` is that file, byte for byte, and every setup in examples/frontend/ is
 * shown. So the docs' code cannot drift from what the tests prove.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const doc = readFileSync(new URL('docs/frontend.md', ROOT), 'utf8');
/** Each marked block: the file it names and the block's text (the lines between its fences). */
const marked = [...doc.matchAll(/<!-- file: (\S+) -->\n\n```\w*\n([\s\S]*?)^```$/gm)].map(([, file, code]) => ({
  file: file!,
  code: code!,
}));

test('each marked code block of docs/frontend.md is its file, byte for byte', () => {
  expect(marked.length).toBeGreaterThan(0);
  for (const { file, code } of marked) {
    expect({ file, code }).toEqual({ file, code: readFileSync(new URL(file, ROOT), 'utf8') });
  }
});

test('every setup in examples/frontend/ is shown, once', () => {
  const setups = readdirSync(new URL('examples/frontend/', ROOT))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `examples/frontend/${name}`);
  const shown = marked.map((block) => block.file).filter((file) => file.startsWith('examples/frontend/'));
  expect(shown.sort()).toEqual(setups.sort());
});
