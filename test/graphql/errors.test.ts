// Every error code of docs/errors.md over HTTP: the code and its extensions, the
// path, which upstream calls happened, that the other fields of the same query still answer, and
// that no error carries an upstream URL, a stack trace or a key.
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DELETABLE_CHAINHOOK_UUIDS, KNOWN_BLOCK_HASH, sampleData, type Brc20TokenDetails } from '../../src/sample/data.js';
import type { Fault } from '../../src/sample/server.js';
import { SAMPLE_PLATFORM_KEY } from '../../src/sample/server.js';
import { startExecutorPair, type ExecutorPair } from '../executor-pair.js';
import { HIRO_KEY, startStack, type GraphQLBody, type Stack } from '../harness.js';
import { BRC20_FIELDS, STACK_FRAME, callsOf, expectNoSecrets, fieldError, toBrc20 } from '../support.js';

const TIMEOUT_MS = 500;
const WRONG_KEY = 'wrong-platform-key-9d41c0';
/** Upstream URLs that are not a sample's (the refused port). */
const otherUpstreams: string[] = [];

// Each request on the suite's stack goes to both executors (test/executor-pair.ts).
let pair: ExecutorPair;
let stack: Stack;
beforeAll(async () => {
  pair = await startExecutorPair(() => ({
    UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
    // A fault must surface: never answer from an earlier cached success instead.
    STALE_IF_ERROR_MS: '0',
  }));
  stack = pair.stack;
});
afterAll(() => pair.close());
afterEach(() => pair.reset());

/** Strings that no GraphQL error may contain. */
function forbiddenIn(s: Stack, extra: string[] = []): string[] {
  const hostPort = (url: string) => new URL(url).host;
  return [
    s.sample.url,
    hostPort(s.sample.url),
    hostPort(s.gatewayUrl),
    '127.0.0.1',
    'localhost',
    'http://',
    'node_modules',
    'file://',
    HIRO_KEY,
    SAMPLE_PLATFORM_KEY,
    WRONG_KEY,
    ...otherUpstreams.flatMap((url) => [url, hostPort(url)]),
    ...extra,
  ];
}

/** Asserts that no error message or extension leaks a URL, a stack trace or a key. */
function expectCleanErrors(body: GraphQLBody, forbidden: string[]) {
  const errors = JSON.stringify(body.errors ?? []);
  expectNoSecrets(errors, forbidden);
  expect(STACK_FRAME.test(errors), `stack trace in ${errors}`).toBe(false);
  for (const error of body.errors ?? []) {
    expect(Object.keys(error.extensions ?? {})).not.toContain('stacktrace');
    expect(Object.keys(error.extensions ?? {})).not.toContain('originalError');
  }
}

/** Runs a query with a clean request log, and checks its errors for leaks. */
async function run(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>, s = stack) {
  s.sample.clearLog();
  const started = performance.now();
  const result = await (s === stack ? pair : s).graphql(query, variables, headers);
  expectCleanErrors(result.body, forbiddenIn(s));
  return { ...result, ms: performance.now() - started };
}

const ordi = () => toBrc20(sampleData.brc20Tokens.find((t) => t.token.ticker === 'ordi') as Brc20TokenDetails);
const sortedCalls = (s = stack) =>
  callsOf(s.sample)
    .map((c) => `${c.method} ${c.path}`)
    .sort();

describe('BAD_USER_INPUT: page arguments out of range, no upstream call for the field', () => {
  describe.each([
    ['limit', 0],
    ['limit', 61],
    ['limit', -1],
    ['offset', -1],
  ])('%s %i', (argument, value) => {
    it('transfers (literal): fails alone, the sibling answers', async () => {
      const { status, body } = await run(`{ status { status } transfers(block: 775700, ${argument}: ${value}) { total } }`);
      expect(status).toBe(200);
      expect(body).toEqual({
        data: { status: { status: 'ready' }, transfers: null },
        errors: [fieldError(['transfers'], { code: 'BAD_USER_INPUT', argument })],
      });
      expect(sortedCalls()).toEqual(['GET /metadata/v1']);
    });

    it('transfers (variable): fails alone, the sibling answers', async () => {
      const { body } = await run(`query($v: Int!) { status { status } transfers(block: "775700", ${argument}: $v) { total } }`, {
        v: value,
      });
      expect(body).toEqual({
        data: { status: { status: 'ready' }, transfers: null },
        errors: [fieldError(['transfers'], { code: 'BAD_USER_INPUT', argument })],
      });
      expect(sortedCalls()).toEqual(['GET /metadata/v1']);
    });

    it('etchings (literal and variable): no upstream request at all', async () => {
      for (const [query, variables] of [
        [`{ etchings(${argument}: ${value}) { total } }`, undefined],
        [`query($v: Int!) { etchings(${argument}: $v) { total } }`, { v: value }],
      ] as const) {
        const { status, body } = await run(query, variables);
        expect(status).toBe(200);
        expect(body).toEqual({ data: { etchings: null }, errors: [fieldError(['etchings'], { code: 'BAD_USER_INPUT', argument })] });
        expect(stack.upstreamCalls()).toEqual([]);
      }
    });
  });

  it('two bad fields fail each with its own error, the good ones answer', async () => {
    const { body } = await run(
      `{ status { status } a: transfers(block: 1, limit: 0) { total } b: transfers(block: 1, offset: -5) { total }
         brc20Token(ticker: "ordi") { ${BRC20_FIELDS} } }`,
    );
    expect(body).toEqual({
      data: { status: { status: 'ready' }, a: null, b: null, brc20Token: ordi() },
      errors: expect.arrayContaining([
        fieldError(['a'], { code: 'BAD_USER_INPUT', argument: 'limit' }),
        fieldError(['b'], { code: 'BAD_USER_INPUT', argument: 'offset' }),
      ]),
    });
    expect(body.errors).toHaveLength(2);
    expect(sortedCalls()).toEqual(['GET /metadata/v1', 'GET /ordinals/v1/brc-20/tokens/ordi']);
  });
});

describe("client input graphql-js or a yoga plugin throws on is the client's error, not an unexpected one", () => {
  it.each([
    ['etchings', 'limit', 'query($v: Int) { etchings(limit: $v) { limit } }'],
    ['etchings', 'offset', 'query($v: Int) { etchings(offset: $v) { limit } }'],
    ['transfers', 'limit', 'query($v: Int) { transfers(block: 775700, limit: $v) { limit } }'],
  ])('a null variable for %s(%s: Int! = …): BAD_USER_INPUT at the argument, no upstream call', async (field, argument, query) => {
    const before = stack.logs.length;
    const { body } = await run(query, { v: null });
    expect(body).toEqual({
      data: { [field]: null },
      errors: [
        {
          message: `Argument "${argument}" of non-null type "Int!" must not be null.`,
          // At the argument's value: the variable in the arguments, not its definition.
          locations: [{ line: 1, column: query.lastIndexOf('$v') + 1 }],
          path: [field],
          extensions: { code: 'BAD_USER_INPUT' },
        },
      ],
    });
    expect(stack.upstreamCalls()).toEqual([]);
    expect(stack.logs.slice(before).filter((line) => line.includes('unexpected error'))).toEqual([]);
  });

  it('a query that is not a string, with an automatic-persisted-query hash: 400 BAD_REQUEST, as without the hash', async () => {
    const post = async (body: unknown) => {
      const response = await fetch(`${stack.gatewayUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    const hash = '54ec60f8977b2a29e840f3dbd273cefed11b4b03ccb63a771fc3584a549259a1';
    const expected = {
      status: 400,
      body: { errors: [{ message: 'Expected "query" param to be a string, but given number.', extensions: { code: 'BAD_REQUEST' } }] },
    };
    expect([
      await post({ query: 123 }),
      await post({ query: 123, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }),
    ]).toEqual([expected, expected]);
  });
});

describe('BAD_USER_INPUT: a BlockId that is neither a height nor a hash', () => {
  const hex63 = `00000000${'a'.repeat(55)}`;
  const hex65 = `00000000${'a'.repeat(57)}`;
  const noLeadingZeros = `10000000${KNOWN_BLOCK_HASH.slice(8)}`;
  const nonHex = `00000000${'g'.repeat(56)}`;
  // [name, GraphQL literal, JSON variable value]
  const cases: Array<[string, string, unknown]> = [
    ['"abc"', '"abc"', 'abc'],
    ['"-1"', '"-1"', '-1'],
    ['a 63-hex string', JSON.stringify(hex63), hex63],
    ['a 65-hex string', JSON.stringify(hex65), hex65],
    ['a hash without the 8 leading zeros', JSON.stringify(noLeadingZeros), noLeadingZeros],
    ['a 64-char hash with a non-hex character', JSON.stringify(nonHex), nonHex],
    ['a negative Int', '-1', -1],
    ['a float', '1.5', 1.5],
    ['an empty string', '""', ''],
    ['a height with a space', '" 775700"', ' 775700'],
    ['an exponent', '"1e3"', '1e3'],
    ['a hex number', '"0x1f"', '0x1f'],
    ['a boolean', 'true', true],
  ];

  describe.each(cases)('%s', (_name, literal, value) => {
    it('literal: BAD_USER_INPUT without any upstream request', async () => {
      const { body } = await run(`{ transfers(block: ${literal}) { total } }`);
      expect(body.errors?.length).toBeGreaterThan(0);
      expect(body.errors!.map((e) => e.extensions?.code)).toEqual(body.errors!.map(() => 'BAD_USER_INPUT'));
      expect(body.data?.transfers ?? null).toBeNull();
      expect(stack.upstreamCalls()).toEqual([]);
    });

    it('variable: BAD_USER_INPUT without any upstream request', async () => {
      const { body } = await run('query($b: BlockId!) { transfers(block: $b) { total } }', { b: value });
      expect(body.errors?.length).toBeGreaterThan(0);
      expect(body.errors!.map((e) => e.extensions?.code)).toEqual(body.errors!.map(() => 'BAD_USER_INPUT'));
      expect(body.data?.transfers ?? null).toBeNull();
      expect(stack.upstreamCalls()).toEqual([]);
    });
  });

  // docs/errors.md: "A failing field fails alone: the other fields keep their data." One test per
  // form, every case checked (expect.soft) so a failure lists them all.
  it.each(['literal', 'variable'] as const)('%s: each invalid BlockId fails the field alone, the sibling answers', async (form) => {
    for (const [name, literal, value] of cases) {
      const { body } =
        form === 'literal'
          ? await run(`{ status { status } transfers(block: ${literal}) { total } }`)
          : await run('query($b: BlockId!) { status { status } transfers(block: $b) { total } }', { b: value });
      expect.soft(body, name).toEqual({
        data: { status: { status: 'ready' }, transfers: null },
        errors: [fieldError(['transfers'], expect.objectContaining({ code: 'BAD_USER_INPUT' }))],
      });
      expect.soft(sortedCalls(), name).toEqual(['GET /metadata/v1']);
    }
  });
});

describe('platform keys: UNAUTHENTICATED, FORBIDDEN, NOT_FOUND', () => {
  it('UNAUTHENTICATED: bitcoinNode without a key, no upstream call for it', async () => {
    const { body } = await run(`{ status { status } bitcoinNode(path: "rest/chaininfo.json") }`);
    expect(body).toEqual({
      data: { status: { status: 'ready' }, bitcoinNode: null },
      errors: [fieldError(['bitcoinNode'], { code: 'UNAUTHENTICATED' })],
    });
    expect(sortedCalls()).toEqual(['GET /metadata/v1']);
  });

  it('UNAUTHENTICATED: deleteChainhook without a key, no upstream call', async () => {
    const { body } = await run(`mutation { deleteChainhook(uuid: "${DELETABLE_CHAINHOOK_UUIDS[0]}") { status } }`);
    expect(body).toEqual({ data: { deleteChainhook: null }, errors: [fieldError(['deleteChainhook'], { code: 'UNAUTHENTICATED' })] });
    expect(stack.upstreamCalls()).toEqual([]);
  });

  it('UNAUTHENTICATED: the platform answered 401', async () => {
    const { body } = await run(`{ status { status } bitcoinNode(path: "rest/chaininfo.json", apiKey: "revoked-key") }`);
    expect(body).toEqual({
      data: { status: { status: 'ready' }, bitcoinNode: null },
      errors: [fieldError(['bitcoinNode'], { code: 'UNAUTHENTICATED', service: 'platform', httpStatus: 401 })],
    });
    expect(sortedCalls()).toEqual(['GET /metadata/v1', 'GET /v1/ext/revoked-key/bitcoin-node/rest/chaininfo.json']);
  });

  it('FORBIDDEN: the platform answered 403 for a wrong key', async () => {
    const { body } = await run(`{ status { status } bitcoinNode(path: "rest/chaininfo.json") }`, undefined, { 'x-api-key': WRONG_KEY });
    expect(body).toEqual({
      data: { status: { status: 'ready' }, bitcoinNode: null },
      errors: [fieldError(['bitcoinNode'], { code: 'FORBIDDEN', service: 'platform', httpStatus: 403 })],
    });
    expect(sortedCalls()).toEqual(['GET /metadata/v1', `GET /v1/ext/${WRONG_KEY}/bitcoin-node/rest/chaininfo.json`]);
  });

  it('FORBIDDEN: deleteChainhook with a wrong key', async () => {
    const uuid = DELETABLE_CHAINHOOK_UUIDS[0]!;
    const { body } = await run(`mutation { deleteChainhook(uuid: "${uuid}", apiKey: "${WRONG_KEY}") { status } }`);
    expect(body).toEqual({
      data: { deleteChainhook: null },
      errors: [fieldError(['deleteChainhook'], { code: 'FORBIDDEN', service: 'platform', httpStatus: 403 })],
    });
    expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${WRONG_KEY}/chainhooks/${uuid}`]);
  });

  // Mutation fields run one after another on both executors; each failing one fails alone.
  it('three deleteChainhook fields: bad input and a wrong key fail alone, in order, and the third deletes', async () => {
    const [forbidden, deleted] = [DELETABLE_CHAINHOOK_UUIDS[0]!, DELETABLE_CHAINHOOK_UUIDS[1]!];
    const { body } = await run(
      `mutation {
        a: deleteChainhook(uuid: "not-a-uuid") { status }
        b: deleteChainhook(uuid: "${forbidden}", apiKey: "${WRONG_KEY}") { status }
        c: deleteChainhook(uuid: "${deleted}") { status chainhookUuid }
      }`,
      undefined,
      { 'x-api-key': SAMPLE_PLATFORM_KEY },
    );
    expect(body).toEqual({
      data: { a: null, b: null, c: { status: 'success', chainhookUuid: deleted } },
      errors: [
        fieldError(['a'], { code: 'BAD_USER_INPUT', argument: 'uuid' }),
        fieldError(['b'], { code: 'FORBIDDEN', service: 'platform', httpStatus: 403 }),
      ],
    });
    expect(stack.upstreamCalls()).toEqual([
      `DELETE /v1/ext/${WRONG_KEY}/chainhooks/${forbidden}`,
      `DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${deleted}`,
    ]);
  });

  it('NOT_FOUND: deleteChainhook of an unknown chainhook', async () => {
    const uuid = 'aa3626dc-2090-49cd-8f1e-8f9994393aee';
    expect(DELETABLE_CHAINHOOK_UUIDS).not.toContain(uuid);
    const { body } = await run(`mutation { deleteChainhook(uuid: "${uuid}") { status chainhookUuid message } }`, undefined, {
      'x-api-key': SAMPLE_PLATFORM_KEY,
    });
    expect(body).toEqual({
      data: { deleteChainhook: null },
      errors: [fieldError(['deleteChainhook'], { code: 'NOT_FOUND', service: 'platform', httpStatus: 404 })],
    });
    expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${uuid}`]);
  });

  it("anywhere else an upstream 404 is UPSTREAM_ERROR with its httpStatus (NOT_FOUND is deleteChainhook's alone)", async () => {
    const { body } = await run(`{ bitcoinNode(path: "rest/nope.json") }`, undefined, { 'x-api-key': SAMPLE_PLATFORM_KEY });
    expect(body).toEqual({
      data: { bitcoinNode: null },
      errors: [fieldError(['bitcoinNode'], { code: 'UPSTREAM_ERROR', service: 'platform', httpStatus: 404 })],
    });
    expect(stack.upstreamCalls()).toEqual([`GET /v1/ext/${SAMPLE_PLATFORM_KEY}/bitcoin-node/rest/nope.json`]);
  });

  it('BAD_USER_INPUT: a platform key that is not a sane token, no upstream call for it', async () => {
    const { body } = await run(`{ status { status } bitcoinNode(path: "rest/chaininfo.json", apiKey: "${SAMPLE_PLATFORM_KEY}/../x") }`);
    expect(body).toEqual({
      data: { status: { status: 'ready' }, bitcoinNode: null },
      errors: [fieldError(['bitcoinNode'], { code: 'BAD_USER_INPUT', argument: 'apiKey' })],
    });
    expect(sortedCalls()).toEqual(['GET /metadata/v1']);
  });

  it('UPSTREAM_ERROR: the node answered 400', async () => {
    const { body } = await run(
      `{ status { status } bitcoinNode(path: "rest/blockhashbyheight/x.json", apiKey: "${SAMPLE_PLATFORM_KEY}") }`,
    );
    expect(body).toEqual({
      data: { status: { status: 'ready' }, bitcoinNode: null },
      errors: [fieldError(['bitcoinNode'], { code: 'UPSTREAM_ERROR', service: 'platform', httpStatus: 400 })],
    });
  });
});

describe('upstream failures: the faulted field fails alone', () => {
  const TRIPLE = `{ status { status } brc20Token(ticker: "ordi") { ${BRC20_FIELDS} } etchings { total } }`;
  const ORDI_PATH = '/ordinals/v1/brc-20/tokens/ordi';
  const tripleCalls = ['GET /metadata/v1', `GET ${ORDI_PATH}`, 'GET /runes/v1/etchings'].sort();

  it('without a fault every field answers', async () => {
    const { body } = await run(TRIPLE);
    expect(body).toEqual({
      data: { status: { status: 'ready' }, brc20Token: ordi(), etchings: { total: sampleData.etchingsTotal } },
    });
    expect(sortedCalls()).toEqual(tripleCalls);
  });

  it.each<[string, Omit<Fault, 'path'>, Record<string, unknown>]>([
    [
      'UNAUTHENTICATED (the hiro service answered 401)',
      { status: 401, body: { message: 'Invalid authentication credentials' } },
      { code: 'UNAUTHENTICATED', service: 'ordinals', httpStatus: 401 },
    ],
    [
      'FORBIDDEN (the hiro service answered 403)',
      { status: 403, body: { message: 'You cannot consume this service' } },
      { code: 'FORBIDDEN', service: 'ordinals', httpStatus: 403 },
    ],
    [
      'UPSTREAM_ERROR with httpStatus 500',
      { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'An internal server error occurred' } },
      { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 500 },
    ],
    [
      'UPSTREAM_ERROR with httpStatus 502 (a text body)',
      { status: 502, body: 'Bad Gateway' },
      { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 502 },
    ],
    [
      'UPSTREAM_ERROR for a 200 with malformed JSON',
      { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"token": {"id": ' },
      { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 200 },
    ],
    [
      'UPSTREAM_ERROR for a 200 that is not JSON at all',
      { status: 200, body: '<html>maintenance</html>' },
      { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 200 },
    ],
    [
      'UPSTREAM_ERROR for a 200 whose JSON is null',
      { status: 200, body: null as unknown as object },
      { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 200 },
    ],
    [
      'UPSTREAM_ERROR for a 200 whose JSON is an array',
      { status: 200, body: [sampleData.brc20Tokens[0]] },
      { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 200 },
    ],
    [
      'UPSTREAM_ERROR for a 200 whose token lacks a field the schema needs',
      { status: 200, body: { ...sampleData.brc20Tokens[0], token: { ...sampleData.brc20Tokens[0]!.token, ticker: null } } },
      { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 200 },
    ],
    ['UPSTREAM_UNAVAILABLE (connection reset)', { reset: true }, { code: 'UPSTREAM_UNAVAILABLE', service: 'ordinals' }],
  ])('%s', async (_name, fault, extensions) => {
    pair.inject({ path: ORDI_PATH, ...fault });
    const { status, body } = await run(TRIPLE);
    expect(status).toBe(200);
    expect(body).toEqual({
      data: { status: { status: 'ready' }, brc20Token: null, etchings: { total: sampleData.etchingsTotal } },
      errors: [fieldError(['brc20Token'], extensions)],
    });
    expect(sortedCalls()).toEqual(tripleCalls);
  });

  // A 429 with Retry-After makes the gateway hold back the whole service until then (its quota
  // gate), so these run on their own stack, the blocking one last.
  describe('RATE_LIMITED', () => {
    let limited: Stack;
    beforeAll(async () => {
      limited = await startStack({ UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) });
    });
    afterAll(() => limited.close());
    afterEach(() => limited.sample.reset());

    it.each<[string, Omit<Fault, 'path'>, Record<string, unknown>]>([
      [
        'without Retry-After',
        { status: 429, body: { message: 'API rate limit exceeded' } },
        { code: 'RATE_LIMITED', service: 'ordinals', httpStatus: 429 },
      ],
      [
        'with retryAfter (429, Retry-After: 7)',
        { status: 429, headers: { 'retry-after': '7' }, body: { message: 'API rate limit exceeded' } },
        { code: 'RATE_LIMITED', service: 'ordinals', httpStatus: 429, retryAfter: 7 },
      ],
    ])('%s', async (_name, fault, extensions) => {
      limited.sample.inject({ path: ORDI_PATH, ...fault });
      const { status, body } = await run(TRIPLE, undefined, undefined, limited);
      expect(status).toBe(200);
      expect(body).toEqual({
        data: { status: { status: 'ready' }, brc20Token: null, etchings: { total: sampleData.etchingsTotal } },
        errors: [fieldError(['brc20Token'], extensions)],
      });
      expect(sortedCalls(limited)).toEqual(tripleCalls);
    });
  });

  it.each<[string, Omit<Fault, 'path'>]>([
    ['the upstream never answers', { hang: true }],
    ['the upstream answers after the deadline', { delayMs: TIMEOUT_MS + 1000 }],
  ])('UPSTREAM_TIMEOUT: %s', async (_name, fault) => {
    pair.inject({ path: ORDI_PATH, ...fault });
    const { body, ms } = await run(TRIPLE);
    expect(body).toEqual({
      data: { status: { status: 'ready' }, brc20Token: null, etchings: { total: sampleData.etchingsTotal } },
      errors: [fieldError(['brc20Token'], { code: 'UPSTREAM_TIMEOUT', service: 'ordinals' })],
    });
    // UPSTREAM_TIMEOUT_MS bounds the whole wait of the field, retries included.
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(TIMEOUT_MS + 1000);
    const calls = sortedCalls();
    expect(calls.filter((c) => c !== `GET ${ORDI_PATH}`)).toEqual(['GET /metadata/v1', 'GET /runes/v1/etchings']);
    expect(calls.filter((c) => c === `GET ${ORDI_PATH}`).length).toBeGreaterThanOrEqual(1);
  });

  it('a 404 for a transfers block is null without an error', async () => {
    pair.inject({ path: '/ordinals/v1/inscriptions/transfers', status: 404, body: { error: 'Not found' } });
    const { body } = await run('{ status { status } transfers(block: 775700) { total } }');
    expect(body).toEqual({ data: { status: { status: 'ready' }, transfers: null } });
  });

  // Only the handler's own `{"error":"Not found"}` says "no such token" or "no such block".
  it.each<[string, Omit<Fault, 'path'>]>([
    [
      'a route 404 (an API no longer served there)',
      { status: 404, body: { message: 'Route GET:/x not found', error: 'Not Found', statusCode: 404 } },
    ],
    ["a proxy's page", { status: 404, body: '<html><body>404 Not Found</body></html>' }],
    ['an empty 404', { status: 404, body: '' }],
  ])('%s is UPSTREAM_ERROR for a lookup, never null', async (_name, fault) => {
    pair.inject({ path: '/ordinals/v1/inscriptions/transfers', ...fault });
    pair.inject({ path: ORDI_PATH, ...fault });
    const { body } = await run(
      '{ status { status } transfers(block: 775700) { total } brc20Token(ticker: "ordi") { supply { holders } } }',
    );
    const notFound = { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 404 };
    expect({ ...body, errors: body.errors?.sort((a, b) => String(a.path).localeCompare(String(b.path))) }).toEqual({
      data: { status: { status: 'ready' }, transfers: null, brc20Token: null },
      errors: [fieldError(['brc20Token'], notFound), fieldError(['transfers'], notFound)],
    });
  });

  it('UPSTREAM_ERROR on transfers: the sibling answers', async () => {
    pair.inject({ path: '/ordinals/v1/inscriptions/transfers', status: 503, body: 'Service Unavailable' });
    const { body } = await run(`{ status { status } transfers(block: 775700) { total } brc20Token(ticker: "ordi") { ${BRC20_FIELDS} } }`);
    expect(body).toEqual({
      data: { status: { status: 'ready' }, transfers: null, brc20Token: ordi() },
      errors: [fieldError(['transfers'], { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 503 })],
    });
  });

  it('one faulted alias fails, the other alias of another ticker answers', async () => {
    pair.inject({ path: ORDI_PATH, status: 500, body: { message: 'boom' } });
    const { body } = await run(`{ a: brc20Token(ticker: "ordi") { ${BRC20_FIELDS} } b: brc20Token(ticker: "pepe") { token { ticker } } }`);
    expect(body).toEqual({
      data: { a: null, b: { token: { ticker: 'pepe' } } },
      errors: [fieldError(['a'], { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 500 })],
    });
  });

  it('a fault on status costs status alone, with its code and path', async () => {
    pair.inject({ path: '/metadata/v1', status: 500, body: { message: 'boom' } });
    const { body } = await run('{ status { status } etchings(limit: 1) { total } }');
    expect(body).toEqual({
      data: { status: null, etchings: { total: sampleData.etchingsTotal } },
      errors: [fieldError(['status'], { code: 'UPSTREAM_ERROR', service: 'metadata', httpStatus: 500 })],
    });
  });
});

describe('UPSTREAM_UNAVAILABLE: upstreams that refuse connections', () => {
  let refused: Stack;
  beforeAll(async () => {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const closed = `http://127.0.0.1:${port}`;
    otherUpstreams.push(closed);
    refused = await startStack({ ORDINALS_API_URL: closed, RUNES_API_URL: closed, UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) });
  });
  afterAll(() => refused.close());

  it('the ordinals fields fail alone, status answers', async () => {
    const { body } = await run(
      `{ status { status } brc20Token(ticker: "ordi") { ${BRC20_FIELDS} } transfers(block: 775700) { total } }`,
      undefined,
      undefined,
      refused,
    );
    expect(body).toEqual({
      data: { status: { status: 'ready' }, brc20Token: null, transfers: null },
      errors: expect.arrayContaining([
        fieldError(['brc20Token'], { code: 'UPSTREAM_UNAVAILABLE', service: 'ordinals' }),
        fieldError(['transfers'], { code: 'UPSTREAM_UNAVAILABLE', service: 'ordinals' }),
      ]),
    });
    expect(body.errors).toHaveLength(2);
    // Only the metadata service is the sample; the refused ones never reached it.
    expect(sortedCalls(refused)).toEqual(['GET /metadata/v1']);
  });

  it('etchings (RUNES_API_URL refused): UPSTREAM_UNAVAILABLE at its path', async () => {
    const { body } = await run('{ etchings { total } }', undefined, undefined, refused);
    expect(body).toEqual({
      data: { etchings: null },
      errors: [fieldError(['etchings'], { code: 'UPSTREAM_UNAVAILABLE', service: 'runes' })],
    });
    expect(refused.upstreamCalls()).toEqual([]);
  });
});

it.each(['1e3', '775700.0'])(
  'a Float literal of a whole number (%s) is no BlockId, as the upstream refuses block=1e3: BAD_USER_INPUT at transfers, nothing asked',
  async (literal) => {
    stack.sample.clearLog();
    const { body } = await pair.graphql(`{ status { status } transfers(block: ${literal}) { total } }`);
    expect(body).toEqual({
      data: { status: { status: 'ready' }, transfers: null },
      errors: [fieldError(['transfers'], { code: 'BAD_USER_INPUT' })],
    });
    expect(stack.upstreamCalls()).toEqual(['GET /metadata/v1']);
  },
);

describe("a custom scalar's bad literal", () => {
  it.each([
    ['a BlockId list', '{ transfers(block: [1]) { total } }', 20],
    ['a BlockId enum value', '{ transfers(block: ABC) { total } }', 20],
  ])('%s is BAD_USER_INPUT located at the literal, and asks nothing upstream', async (_name, query, column) => {
    stack.sample.clearLog();
    const { body } = await pair.graphql(query);
    expect(body).toEqual({
      errors: [
        {
          message:
            'BlockId must be a block height (an Int >= 0 or a string of digits) or a block hash (64 hex characters starting with eight zeros)',
          locations: [{ line: 1, column }],
          extensions: { code: 'BAD_USER_INPUT' },
        },
      ],
    });
    expect(stack.upstreamCalls()).toEqual([]);
  });
});
