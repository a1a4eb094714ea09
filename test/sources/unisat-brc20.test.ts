/**
 * BRC20_SOURCE=unisat: the real gateway over HTTP against the sample's UniSat profile
 * (src/sample/unisat.ts). Answers keep hiro's shapes; the request log proves what reached UniSat.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { sampleData } from '../../src/sample/data.js';
import { findUnisatBrc20 } from '../../src/sample/sources-data.js';
import { HIRO_KEY, rest, startStack, type Stack } from '../harness.js';
import { BRC20_FIELDS, BYTES_ETAG, dataRequests, expectNoSecrets, fieldError, globalId, toBrc20 } from '../support.js';
import { BRC20_HEIGHT } from '../../src/sample/unisat.js';

/** The token's own fields, as BRC20_FIELDS selects them under `token`. */
const TOKEN_FIELDS = BRC20_FIELDS.slice(BRC20_FIELDS.indexOf('{') + 1, BRC20_FIELDS.indexOf('}'));

const UNISAT_KEY = 'unisat-secret-key-4d1e77';
const SOURCE = { source: 'unisat', height: BRC20_HEIGHT, unavailable: ['Brc20Token.selfMint'] };
/** An answer of UniSat's that the gateway cannot read, as a field's error. */
const FAILED = { code: 'UPSTREAM_ERROR', service: 'ordinals', source: 'unisat', httpStatus: 200 };

/** A hiro sample token as the gateway answers it from UniSat: the same, but UniSat has no self-mint flag. */
function expected(ticker: string) {
  const hiro = toBrc20(sampleData.brc20Tokens.find((t) => t.token.ticker === ticker)!);
  return { ...hiro, token: { ...hiro.token, selfMint: null } };
}

/** The UniSat path of a ticker: letters and digits as they are (lowercased), else hex of UTF-8. */
const infoPath = (segment: string) => `/v1/indexer/brc20/${segment}/info`;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack(
    (sample) => ({
      BRC20_SOURCE: 'unisat',
      UNISAT_API_URL: sample.baseUrl,
      UNISAT_API_KEY: UNISAT_KEY,
      UNISAT_RATE_LIMIT_PER_SECOND: '1000',
    }),
    { sources: { unisat: { apiKey: UNISAT_KEY } } },
  );
});
afterAll(() => stack.close());
afterEach(() => stack.sample.reset());

describe('BRC-20 token details from UniSat', () => {
  test('every sample token: hiro’s answer but selfMint, one info call each, hex paths for special tickers', async () => {
    const tickers = sampleData.brc20Tokens.map((t) => t.token.ticker);
    // Asked in another case where letters allow it: the lookup is case-insensitive.
    const asked = tickers.map((t, i) => (i % 2 === 0 ? t.toUpperCase() : t));
    const { status, body } = await stack.graphql(`query ($t: [String!]!) { brc20Tokens(tickers: $t) { ${BRC20_FIELDS} } }`, { t: asked });
    expect(status).toBe(200);
    expect(body).toEqual({ data: { brc20Tokens: tickers.map(expected) }, extensions: { sources: [SOURCE] } });
    const segments = tickers.map((t) => (/^[a-z0-9]+$/.test(t) ? t : Buffer.from(t, 'utf8').toString('hex')));
    expect(segments).toContain('f09f90b8'); // 🐸
    expect(segments).toContain('782579'); // x%y
    expect(segments).toContain('612062'); // a b
    expect(
      dataRequests(stack.sample)
        .map((r) => r.url)
        .sort(),
    ).toEqual(segments.map(infoPath).sort());
    // The sample serves hex segments only where the ticker needs them (the route's note).
    for (const segment of segments) expect(findUnisatBrc20(segment)).toBeDefined();
  });

  test('the Bearer key goes to UniSat only, hiro’s key to hiro only', async () => {
    const { body } = await stack.graphql(`{ brc20Token(ticker: "ordi") { token { id } } status { status } }`);
    expect(body.data).toEqual({ brc20Token: { token: { id: expected('ordi').token.id } }, status: { status: sampleData.statusV1.status } });
    const byPath = Object.fromEntries(dataRequests(stack.sample).map((r) => [r.path, r.headers]));
    expect(Object.keys(byPath).sort()).toEqual([infoPath('ordi'), '/metadata/v1'].sort());
    expect(byPath[infoPath('ordi')]).toMatchObject({ authorization: `Bearer ${UNISAT_KEY}` });
    expect(byPath[infoPath('ordi')]!['x-api-key']).toBeUndefined();
    expect(byPath['/metadata/v1']).toMatchObject({ 'x-api-key': HIRO_KEY });
    expect(byPath['/metadata/v1']!.authorization).toBeUndefined();
  });

  test('node: a token by its ticker, one info call, as brc20Token shows it; null for none', async () => {
    const ids = ['ordi', 'zzzz'].map((ticker) => globalId('Brc20Token', ticker));
    const { body } = await stack.graphql(`query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Brc20Token { ${TOKEN_FIELDS} } } }`, { ids });
    expect(body).toEqual({ data: { nodes: [expected('ordi').token, null] }, extensions: { sources: [SOURCE] } });
    expect(
      dataRequests(stack.sample)
        .map((r) => r.url)
        .sort(),
    ).toEqual([infoPath('ordi'), infoPath('zzzz')]);
  });

  test('an unknown ticker is null; `code: 0, data: null` is null too', async () => {
    const { body } = await stack.graphql(`{ brc20Token(ticker: "zzzz") { token { id } } }`);
    expect(body).toEqual({ data: { brc20Token: null }, extensions: { sources: [{ source: 'unisat', height: null, unavailable: [] }] } });
    stack.sample.inject({ path: infoPath('ordi'), status: 200, body: { code: 0, msg: 'OK', data: null } });
    const again = await stack.graphql(`{ brc20Token(ticker: "ordi") { token { id } } }`);
    expect(again.body.data).toEqual({ brc20Token: null });
  });

  test('`code: -1` is "no such token" only when its message says so, not when it speaks of a failure', async () => {
    const asked = async (msg: string) => {
      stack.sample.inject({ path: infoPath('ordi'), status: 200, body: { code: -1, msg, data: null }, times: 1 });
      const { body } = await stack.graphql(`{ brc20Token(ticker: "ordi") { token { id } } }`);
      return [msg, body.data, body.errors?.map((error) => error.extensions?.code)];
    };
    const absent = ['brc20 not found', 'Ticker does not exist', 'tick not exist', 'invalid ticker', 'not found'];
    const failures = [
      'Unknown error, please try again later',
      'Internal error: upstream node not found',
      'Rune not found in cache',
      'not found: timeout',
    ];
    const answers = [];
    for (const msg of [...absent, ...failures]) answers.push(await asked(msg));
    expect(answers).toEqual([
      ...absent.map((msg) => [msg, { brc20Token: null }, undefined]),
      ...failures.map((msg) => [msg, { brc20Token: null }, ['UPSTREAM_ERROR']]),
    ]);
  });

  test('an amount longer than 100 characters is no amount: UPSTREAM_ERROR, REST 502', async () => {
    const info = findUnisatBrc20('ordi')!;
    stack.sample.inject({ path: infoPath('ordi'), status: 200, body: { code: 0, msg: 'OK', data: { ...info, max: '2'.repeat(101) } } });
    const { body } = await stack.graphql(`{ brc20Token(ticker: "ordi") { token { id maxSupply } } }`);
    expect(body).toEqual({
      data: { brc20Token: null },
      errors: [fieldError(['brc20Token'], { code: 'UPSTREAM_ERROR', service: 'ordinals', source: 'unisat', httpStatus: 200 })],
      extensions: { sources: [{ ...SOURCE, height: null, unavailable: [] }] },
    });
    const response = await fetch(`${stack.gatewayUrl}/ordinals/v1/brc-20/tokens/ordi`);
    expect([response.status, await response.json()]).toEqual([
      502,
      { statusCode: 502, error: 'Bad Gateway', message: 'The unisat service sent an answer that is not the JSON the gateway expects' },
    ]);
    expect(dataRequests(stack.sample).map((r) => r.url)).toEqual([infoPath('ordi'), infoPath('ordi')]);
  });

  test('`code: -1` on HTTP 200 is an error naming the operation’s service and the source, never data', async () => {
    stack.sample.inject({ path: infoPath('ordi'), status: 200, body: { code: -1, msg: 'server busy', data: { ticker: 'ordi' } } });
    const { body } = await stack.graphql(`{ brc20Token(ticker: "ordi") { token { id } } }`);
    expect(body.data).toEqual({ brc20Token: null });
    expect(body.errors).toEqual([
      fieldError(['brc20Token'], { code: 'UPSTREAM_ERROR', service: 'ordinals', source: 'unisat', httpStatus: 200 }),
    ]);
    expect(JSON.stringify(body)).not.toContain('server busy');
  });

  test('a number past GraphQL Int or a Timestamp is UniSat’s unreadable answer, never an internal error', async () => {
    const info = findUnisatBrc20('ordi')!;
    const bad = [
      { holdersCount: 2 ** 31 },
      { historyCount: 4294967296000 },
      { deployHeight: -(2 ** 31) - 1 },
      { deployBlocktime: 2 ** 50 },
    ];
    const answers = [];
    for (const fields of bad) {
      stack.sample.inject({ path: infoPath('ordi'), status: 200, body: { code: 0, msg: 'OK', data: { ...info, ...fields } }, times: 1 });
      const { body } = await stack.graphql(`{ brc20Token(ticker: "ordi") { ${BRC20_FIELDS} } }`);
      answers.push({ data: body.data, errors: body.errors });
    }
    expect(answers).toEqual(bad.map(() => ({ data: { brc20Token: null }, errors: [fieldError(['brc20Token'], FAILED)] })));
    expect(stack.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50)).toEqual([]);
  });

  test('amounts longer than any real one (100 characters) are refused before any BigInt work', async () => {
    const info = findUnisatBrc20('ordi')!;
    const ask = async (fields: Record<string, string>) => {
      stack.sample.inject({ path: infoPath('ordi'), status: 200, body: { code: 0, msg: 'OK', data: { ...info, ...fields } }, times: 1 });
      const started = Date.now();
      const { body } = await stack.graphql(`{ brc20Token(ticker: "ordi") { ${BRC20_FIELDS} } }`);
      return { body, ms: Date.now() - started };
    };
    // The bound itself is served: far above any real amount, it refuses nothing real.
    const longest = '9'.repeat(100);
    const written = `${longest}.${'0'.repeat(18)}`;
    const ordi = expected('ordi');
    expect((await ask({ max: longest })).body).toEqual({
      data: { brc20Token: { token: { ...ordi.token, maxSupply: written }, supply: { ...ordi.supply, maxSupply: written } } },
      extensions: { sources: [SOURCE] },
    });
    const failed = {
      data: { brc20Token: null },
      errors: [fieldError(['brc20Token'], FAILED)],
      extensions: { sources: [{ source: 'unisat', height: null, unavailable: [] }] },
    };
    const tooLong: Array<Record<string, string>> = [
      { max: '9'.repeat(101) },
      { limit: `1.${'0'.repeat(99)}` },
      { confirmedMinted: '1'.repeat(101) },
    ];
    const answers = [];
    for (const fields of tooLong) answers.push((await ask(fields)).body);
    expect(answers).toEqual(tooLong.map(() => failed));
    // 9,000,000 digits (a 9 MB answer, within UPSTREAM_MAX_RESPONSE_BYTES) took 5.5 s of CPU in BigInt.
    const huge = await ask({ max: '9'.repeat(9_000_000) });
    expect(huge.body).toEqual(failed);
    expect(huge.ms).toBeLessThan(1500);
  });

  test('UniSat refusing the key is UNAUTHENTICATED; the key is in no answer and no log line', async () => {
    stack.sample.inject({ path: infoPath('ordi'), status: 401, body: 'Invalid API Key' });
    const { body } = await stack.graphql(`{ brc20Token(ticker: "ordi") { token { id } } }`);
    expect(body.errors).toEqual([
      fieldError(['brc20Token'], { code: 'UNAUTHENTICATED', service: 'ordinals', source: 'unisat', httpStatus: 401 }),
    ]);
    const answer = await rest(`${stack.gatewayUrl}/ordinals/v1/brc-20/tokens/ordi`);
    expectNoSecrets(JSON.stringify([body, answer]) + stack.logs.join('\n'), [UNISAT_KEY]);
  });

  test('a ticker that reads as hex is itself, not the token UniSat decodes it to: null, REST 404', async () => {
    // UniSat decodes hex path parameters: `6f726469` answers ORDI, `f09f90b8` the 🐸 token.
    const asked = ['6f726469', 'F09F90B8', '🐸', 'ORDI'];
    const { body } = await stack.graphql(`query ($t: [String!]!) { brc20Tokens(tickers: $t) { ${BRC20_FIELDS} } }`, { t: asked });
    expect(body).toEqual({ data: { brc20Tokens: [null, null, expected('🐸'), expected('ordi')] }, extensions: { sources: [SOURCE] } });
    const one = await stack.graphql(`{ brc20Token(ticker: "f09f90b8") { token { id } } }`);
    expect(one.body).toEqual({
      data: { brc20Token: null },
      extensions: { sources: [{ source: 'unisat', height: null, unavailable: [] }] },
    });
    const answer = await rest(`${stack.gatewayUrl}/ordinals/v1/brc-20/tokens/f09f90b8`);
    expect([answer.status, answer.etag, answer.body]).toEqual([404, null, { error: 'Not found' }]);
    // 🐸 and its hex spelling are one UniSat path: each request reads the answer for itself.
    expect(
      dataRequests(stack.sample)
        .map((r) => r.url)
        .sort(),
    ).toEqual([infoPath('6f726469'), infoPath('f09f90b8'), infoPath('f09f90b8'), infoPath('f09f90b8'), infoPath('ordi')]);
  });

  test('REST answers hiro’s body with null for what UniSat lacks, names the source, and an ETag when found', async () => {
    const hiro = sampleData.brc20Tokens.find((t) => t.token.ticker === 'pepe')!;
    const response = await fetch(`${stack.gatewayUrl}/ordinals/v1/brc-20/tokens/PEPE`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-data-source')).toBe('unisat');
    expect(response.headers.get('etag')).toMatch(BYTES_ETAG);
    expect(await response.json()).toEqual({ token: { ...hiro.token, self_mint: null }, supply: hiro.supply });
    // Not found has no representation to confirm: no ETag.
    const missing = await fetch(`${stack.gatewayUrl}/ordinals/brc-20/tokens/zzzz`);
    expect([missing.status, missing.headers.get('x-data-source'), missing.headers.get('etag'), await missing.json()]).toEqual([
      404,
      'unisat',
      null,
      { error: 'Not found' },
    ]);
    expect(dataRequests(stack.sample).map((r) => r.url)).toEqual([infoPath('pepe'), infoPath('zzzz')]);
  });
});

describe('hiro stays the default', () => {
  test('without BRC20_SOURCE nothing reaches UniSat and answers carry no sources', async () => {
    const hiroStack = await startStack({}, { sources: { unisat: {} } });
    try {
      const { body } = await hiroStack.graphql(`{ brc20Token(ticker: "ordi") { ${BRC20_FIELDS} } }`);
      expect(body).toEqual({ data: { brc20Token: toBrc20(sampleData.brc20Tokens[0]!) } });
      const response = await fetch(`${hiroStack.gatewayUrl}/ordinals/v1/brc-20/tokens/ordi`);
      expect(response.headers.get('x-data-source')).toBeNull();
      expect(hiroStack.sample.requests.every((r) => r.path.startsWith('/ordinals/') && r.headers.authorization === undefined)).toBe(true);
    } finally {
      await hiroStack.close();
    }
  });
});
