/**
 * The docs' examples work as written. Every `curl` command of a ```sh block in README.md and docs/
 * that asks `localhost:4000` (where `npm run demo` listens) is sent to a gateway over the sample
 * upstream, and must answer the status its trailing comment names (200 when it names none); a
 * GraphQL answer must carry exactly the error codes the comment names (none when it names none).
 * Every ```graphql block must validate against schema.graphql, and its queries must run without
 * errors. Commands that use shell expansion (`$(…)`, `$name`) are left to the reader. And every
 * relative link in the docs leads to a file of the repository, and to a heading that exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { buildSchema, Kind, parse, validate, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startStack, type Stack } from '../harness.js';

const ROOT = new URL('../../', import.meta.url);
const DOCS = [
  'README.md',
  ...readdirSync(new URL('docs/', ROOT), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];

/** The fenced blocks of one language in a Markdown file. */
function blocks(file: string, language: string): string[] {
  const text = readFileSync(new URL(file, ROOT), 'utf8');
  return [...text.matchAll(new RegExp('^```' + language + '\\n([\\s\\S]*?)^```', 'gm'))].map((m) => m[1]!);
}

interface Command {
  words: string[];
  comment: string;
  /** The command uses `$`: its words are not what the shell would pass. */
  expands: boolean;
}

/** Splits shell text into commands (one a line, `\` continuing it): words, quotes and the trailing comment. */
function commands(script: string): Command[] {
  const out: Command[] = [];
  for (const line of script.replace(/\\\n/g, ' ').split('\n')) {
    const words: string[] = [];
    let word: string | undefined;
    let comment = '';
    let expands = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (c === "'") {
        const end = line.indexOf("'", i + 1);
        word = (word ?? '') + line.slice(i + 1, end);
        i = end;
      } else if (c === '"') {
        let text = '';
        for (i++; line[i] !== '"'; i++) {
          if (line[i] === '\\' && '"\\$`'.includes(line[i + 1]!)) i++;
          else if (line[i] === '$') expands = true;
          text += line[i];
        }
        word = (word ?? '') + text;
      } else if (c === ' ' || c === '\t') {
        if (word !== undefined) words.push(word);
        word = undefined;
      } else if (c === '#' && word === undefined) {
        comment = line.slice(i + 1).trim();
        break;
      } else {
        if (c === '$') expands = true;
        word = (word ?? '') + c;
      }
    }
    if (word !== undefined) words.push(word);
    if (words.length > 0) out.push({ words, comment, expands });
  }
  return out;
}

interface Example {
  file: string;
  command: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  stream: boolean;
}

/** The request a `curl` command sends (only the flags the docs use; any other fails the test). */
function request(file: string, words: string[], base: string): Example {
  let method: string | undefined;
  let url = '';
  let get = false;
  let stream = false;
  const headers: Record<string, string> = {};
  const data: string[] = [];
  const query: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (/^-[siSNI]+$/.test(word)) {
      if (word.includes('N')) stream = true;
      if (word.includes('I')) method = 'HEAD';
    } else if (word === '-G') get = true;
    else if (word === '-X') method = words[++i];
    else if (word === '-H') {
      const header = words[++i]!;
      headers[header.slice(0, header.indexOf(':')).toLowerCase()] = header.slice(header.indexOf(':') + 1).trim();
    } else if (word === '-d' || word === '--data') data.push(words[++i]!);
    else if (word === '--data-urlencode') {
      const pair = words[++i]!;
      query.push(`${pair.slice(0, pair.indexOf('='))}=${encodeURIComponent(pair.slice(pair.indexOf('=') + 1))}`);
    } else if (word.startsWith('-')) throw new Error(`${file}: curl flag ${word} is not understood by this test: ${words.join(' ')}`);
    else url = word.replace(/^(http:\/\/)?localhost:4000/, base);
  }
  if (get) url += (url.includes('?') ? '&' : '?') + [...data, ...query].join('&');
  const body = get || data.length === 0 ? undefined : data.join('&');
  return { file, command: words.join(' '), method: method ?? (body ? 'POST' : 'GET'), url, headers, body, stream };
}

/** What an example answered: its status and the codes of its GraphQL errors. */
async function run(example: Example): Promise<{ status: number; codes: string[] }> {
  const controller = new AbortController();
  const response = await fetch(example.url, {
    method: example.method,
    headers: example.headers,
    body: example.body,
    signal: controller.signal,
  });
  let text: string;
  if (example.stream) {
    // The first event is enough: the stream goes on for as long as the demo runs.
    const reader = response.body!.getReader();
    text = '';
    while (!/^data: .+$/m.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('utf8');
    }
    controller.abort();
    text = /^data: (.+)$/m.exec(text)?.[1] ?? '';
  } else {
    text = await response.text();
  }
  let codes: string[] = [];
  try {
    const errors = (JSON.parse(text) as { errors?: Array<{ extensions?: { code?: string } }> }).errors ?? [];
    codes = errors.map((error) => error.extensions?.code ?? '(none)');
  } catch {
    // not JSON: a REST answer's text, an empty 304
  }
  return { status: response.status, codes };
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.close();
});

test('every curl example answers what the docs say it answers', async () => {
  const examples = DOCS.flatMap((file) =>
    blocks(file, 'sh')
      .flatMap(commands)
      .filter((c) => c.words[0] === 'curl' && !c.expands && c.words.some((w) => w.includes('localhost:4000')))
      .map((c) => ({ example: request(file, c.words, stack.gatewayUrl), comment: c.comment })),
  );
  expect(examples.length).toBeGreaterThan(15);
  const answered: unknown[] = [];
  const expected: unknown[] = [];
  for (const { example, comment } of examples) {
    const { status, codes } = await run(example);
    answered.push({ file: example.file, command: example.command, status, codes });
    expected.push({
      file: example.file,
      command: example.command,
      status: Number(/\b[1-5]\d\d\b/.exec(comment)?.[0] ?? 200),
      codes: comment.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? [],
    });
  }
  expect(answered).toEqual(expected);
});

test('every GraphQL document of the docs validates, and its queries run without errors', async () => {
  const schema = buildSchema(readFileSync(new URL('schema.graphql', ROOT), 'utf8'));
  const documents = DOCS.flatMap((file) => blocks(file, 'graphql').map((source) => ({ file, source })));
  expect(documents.length).toBeGreaterThan(1);
  const found: unknown[] = [];
  for (const { file, source } of documents) {
    const operations = parse(source).definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const validation = validate(schema, parse(source)).map((error) => error.message);
    // Queries whose variables may all be left out run as they are.
    const runnable = operations.filter(
      (op) => op.operation === 'query' && op.variableDefinitions?.every((v) => v.type.kind !== Kind.NON_NULL_TYPE || v.defaultValue),
    );
    const errors: unknown[] = [];
    for (const op of runnable) {
      const response = await fetch(`${stack.gatewayUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: source, operationName: op.name?.value }),
      });
      errors.push(...(((await response.json()) as { errors?: unknown[] }).errors ?? []));
    }
    found.push({ file, operations: operations.map((op) => op.name?.value ?? op.operation), validation, errors });
  }
  expect(found).toEqual(found.map((entry) => ({ ...(entry as object), validation: [], errors: [] })));
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

test('every relative link in the docs leads to a file and a heading of the repository', () => {
  const files = [...DOCS, 'CHANGELOG.md', 'bench/README.md', 'bench/RESULTS.md'];
  const broken: string[] = [];
  let links = 0;
  for (const file of files) {
    // Links inside code blocks are code, not links.
    const text = readFileSync(new URL(file, ROOT), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      links++;
      const [path, hash] = target!.split('#') as [string, string | undefined];
      const resolved = path ? new URL(path, new URL(file, ROOT)) : new URL(file, ROOT);
      if (!existsSync(resolved)) {
        broken.push(`${file}: ${target}`);
      } else if (hash && !resolved.pathname.endsWith('/')) {
        const headings =
          readFileSync(resolved, 'utf8')
            .replace(/^```[\s\S]*?^```/gm, '')
            .match(/^#{1,6} .+$/gm) ?? [];
        if (!headings.some((heading) => anchor(heading.replace(/^#+ /, '')) === hash)) broken.push(`${file}: ${target}`);
      }
    }
  }
  expect(links).toBeGreaterThan(30);
  expect(broken).toEqual([]);
});
