/**
 * Every error code a client can receive is in docs/errors.md's table: the codes written in src/
 * (a static scan), and the codes yoga and its plugins answer for malformed requests (driven here
 * once each; test/guards.ts checks what every test file received).
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { documentedCodes, receivedCodes, recordErrorCodes } from '../error-codes.js';
import { startStack, type Stack } from '../harness.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

test("every code written in src/ is in docs/errors.md's table", () => {
  const written = new Set<string>();
  for (const file of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    // The sample upstream plays the upstreams: its answers are not the gateway's.
    if (!file.endsWith('.ts') || file.startsWith('sample')) continue;
    const source = readFileSync(join(SRC, file), 'utf8');
    for (const [, code] of source.matchAll(/\bcode: '([A-Z][A-Z0-9_]+)'/g)) written.add(code!);
    // The contract's codes, named once in errors.ts's ErrorCode union.
    const union = /export type ErrorCode =([^;]+);/.exec(source)?.[1] ?? '';
    for (const [, code] of union.matchAll(/'([A-Z][A-Z0-9_]+)'/g)) written.add(code!);
  }
  expect(written.size).toBeGreaterThan(10);
  const documented = documentedCodes();
  expect([...written].filter((code) => !documented.has(code))).toEqual([]);
});

test('the recorder reads codes from JSON answers, batches and event streams', async () => {
  const server = createServer((req, res) => {
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: next\ndata: {"errors":[{"message":"x","extensions":{"code":"TEST_STREAMED"}}]}\n\n');
      res.end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([{ errors: [{ message: 'a', extensions: { code: 'TEST_BATCHED' } }] }, { errors: [{ message: 'no code' }] }]));
    }
  });
  recordErrorCodes(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  await (await fetch(`${base}/json`)).text();
  await (await fetch(`${base}/stream`)).text();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 20));
  const seen = ['TEST_BATCHED', '(none)', 'TEST_STREAMED'].map((code) => receivedCodes.has(code));
  // Made up for this test: not for docs/errors.md.
  for (const code of ['TEST_BATCHED', '(none)', 'TEST_STREAMED']) receivedCodes.delete(code);
  expect(seen).toEqual([true, true, true]);
});

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ MAX_BODY_BYTES: '2048' });
});
afterAll(() => stack.close());

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.gatewayUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }).then(
    async (r) => [r.status, await r.json()],
  );
const error = (message: string, code: string, more: Record<string, unknown> = {}) => ({
  errors: [{ message, extensions: { code }, ...more }],
});

test.each([
  [
    'not GraphQL',
    JSON.stringify({ query: '{ status {' }),
    200,
    error('Syntax Error: Expected Name, found <EOF>.', 'GRAPHQL_PARSE_FAILED', { locations: [{ line: 1, column: 11 }] }),
  ],
  [
    'not valid against the schema',
    JSON.stringify({ query: '{ status { uptime } }' }),
    200,
    error('Cannot query field "uptime" on type "Status".', 'GRAPHQL_VALIDATION_FAILED', { locations: [{ line: 1, column: 12 }] }),
  ],
  [
    'two operations and no operationName',
    JSON.stringify({ query: 'query A { status { status } } query B { status { status } }' }),
    200,
    error('The document has 2 operations (A, B): name one in operationName', 'OPERATION_RESOLUTION_FAILURE'),
  ],
  [
    'an operationName the document does not have',
    JSON.stringify({ query: 'query A { status { status } } { status { status } }', operationName: 'C' }),
    200,
    error('No operation named "C" in the document; it has: A, (anonymous)', 'OPERATION_RESOLUTION_FAILURE'),
  ],
  [
    'a document of fragments only',
    JSON.stringify({ query: 'fragment F on Query { status { status } }' }),
    200,
    error('The document has no operation to execute, only fragments', 'OPERATION_RESOLUTION_FAILURE'),
  ],
  [
    'a variable of the wrong type',
    JSON.stringify({ query: 'query ($t: String!) { brc20Token(ticker: $t) { token { ticker } } }', variables: { t: 42 } }),
    200,
    error('Variable "$t" got invalid value 42; String cannot represent a non string value: 42', 'BAD_USER_INPUT', {
      locations: [{ line: 1, column: 8 }],
    }),
  ],
  [
    'a required variable missing',
    JSON.stringify({ query: 'query ($t: String!) { brc20Token(ticker: $t) { token { ticker } } }' }),
    200,
    error('Variable "$t" of required type "String!" was not provided.', 'BAD_USER_INPUT', { locations: [{ line: 1, column: 8 }] }),
  ],
  ['no query', JSON.stringify({ variables: {} }), 200, error('Must provide query string.', 'BAD_REQUEST')],
  [
    'a body that is not JSON',
    '{"query": ',
    400,
    { errors: [{ message: 'POST body sent invalid JSON.', extensions: { code: 'BAD_REQUEST', originalError: expect.any(Object) } }] },
  ],
  [
    'a body over MAX_BODY_BYTES',
    JSON.stringify({ query: `{ status { status } } # ${'x'.repeat(3000)}` }),
    413,
    error('Request body exceeds 2048 bytes', 'PAYLOAD_TOO_LARGE'),
  ],
  [
    'an automatic persisted query not registered yet',
    JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } }),
    404,
    error('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND'),
  ],
  [
    "a document that is not its hash's",
    JSON.stringify({
      query: '{ status { status } }',
      extensions: { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update('other').digest('hex') } },
    }),
    400,
    error('PersistedQueryMismatch', 'PERSISTED_QUERY_MISMATCH'),
  ],
])('%s: a documented code, no upstream call', async (_label, body, status, expected) => {
  stack.sample.clearLog();
  expect(await post(body)).toEqual([status, expected]);
  expect(stack.upstreamCalls()).toEqual([]);
});

test.each([
  ['a required variable missing', { query: 'query ($t: String!) { brc20Token(ticker: $t) { token { ticker } } }' }, 400],
  ['no query', { variables: {} }, 400],
  ['a document not GraphQL', { query: '{ status {' }, 400],
  ['a document not valid against the schema', { query: '{ status { uptime } }' }, 400],
  ['two operations and no operationName', { query: 'query A { status { status } } query B { status { status } }' }, 400],
  ['a field error (data, with a null)', { query: '{ etchings(limit: 0) { total } }' }, 200],
])('%s, under accept: application/graphql-response+json: 4xx exactly when there is no data', async (_label, body, status) => {
  const [answered, answer] = (await post(JSON.stringify(body), { accept: 'application/graphql-response+json' })) as [
    number,
    Record<string, unknown>,
  ];
  expect([answered, 'data' in answer]).toEqual([status, status === 200]);
});

test('a form POST without a CSRF header is refused with a code, and counted by it in the metrics', async () => {
  const answer = await fetch(`${stack.gatewayUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ query: '{ status { status } }' }).toString(),
  });
  expect([answer.status, await answer.json()]).toEqual([403, error('Required CSRF header(s) not present', 'CSRF_HEADER_REQUIRED')]);
  const metrics = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
  expect(metrics).toContain('satgate_graphql_errors_total{code="CSRF_HEADER_REQUIRED"} 1');
  expect(metrics).not.toContain('code="UNKNOWN"');
});
