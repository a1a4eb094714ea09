/**
 * The README's quick start and docs/frontend.md show the client setups that test/frontend and
 * test/clients run: each code block marked `<!-- file: <path> -->` is that file, byte for byte, and
 * every setup in examples/frontend/ is shown in docs/frontend.md. So the docs' code cannot drift
 * from what the tests prove.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
/** Each marked block of `doc`: the file it names and the block's text (the lines between its fences). */
const markedBlocks = (doc: string) =>
  [...readFileSync(new URL(doc, ROOT), 'utf8').matchAll(/<!-- file: (\S+) -->\n\n```\w*\n([\s\S]*?)^```$/gm)].map(([, file, code]) => ({
    file: file!,
    code: code!,
  }));

test.each(['README.md', 'docs/frontend.md'])('each marked code block of %s is its file, byte for byte', (doc) => {
  const marked = markedBlocks(doc);
  expect(marked.length).toBeGreaterThan(0);
  for (const { file, code } of marked) {
    expect({ file, code }).toEqual({ file, code: readFileSync(new URL(file, ROOT), 'utf8') });
  }
});

test('every setup in examples/frontend/ is shown in docs/frontend.md, once', () => {
  const setups = readdirSync(new URL('examples/frontend/', ROOT))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `examples/frontend/${name}`);
  const shown = markedBlocks('docs/frontend.md')
    .map((block) => block.file)
    .filter((file) => file.startsWith('examples/frontend/'));
  expect(shown.sort()).toEqual(setups.sort());
});
