// Works against every upstream that speaks the documented interface: upstream faults on BRC-20
// lookups without holders, against an upstream with the token list (hiro) and one without it
// (documented), each field reporting its own outcome; and every root field failing alone.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DELETABLE_CHAINHOOK_UUIDS, sampleData } from '../../src/sample/data.js';
import { SAMPLE_PLATFORM_KEY, type Fault, type SampleProfile } from '../../src/sample/server.js';
import { startStack, type GraphQLBody, type Stack } from '../harness.js';
import { listCall, tokenCall } from '../profiles.js';
import { fieldError } from '../support.js';

/** A field's deadline: room for the siblings' answers on a loaded machine (300 ms timed them out). */
const TIMEOUT_MS = 1_000;
const SUMMARY = 'token { ticker } supply { mintedSupply }';
const QUERY = `{ a: brc20Token(ticker: "ordi") { ${SUMMARY} } b: brc20Token(ticker: "pepe") { ${SUMMARY} }
  status { status } transfers(block: 775700, limit: 1) { total } }`;
const summary = (ticker: string) => {
  const { token } = sampleData.brc20Tokens.find((t) => t.token.ticker === ticker)!;
  return { token: { ticker }, supply: { mintedSupply: token.minted_supply } };
};
const SIBLINGS = { status: { status: 'ready' }, transfers: { total: 2 } };
const SIBLING_CALLS = ['GET /metadata/v1', 'GET /ordinals/v1/inscriptions/transfers?block=775700&offset=0&limit=1'];
const LIST = listCall(['ordi', 'pepe']);
const TOKENS = [tokenCall('ordi'), tokenCall('pepe')];

/** The BRC-20 routes each profile serves: the fault goes on each of them. */
const ROUTES: Record<'hiro' | 'documented', string[]> = {
  hiro: ['/ordinals/v1/brc-20/tokens', '/ordinals/v1/brc-20/tokens/ordi', '/ordinals/v1/brc-20/tokens/pepe'],
  // No token list: its route stays a route 404, which the gateway learns on the first lookup.
  documented: ['/ordinals/v1/brc-20/tokens/ordi', '/ordinals/v1/brc-20/tokens/pepe'],
};

interface Outcome {
  /** The error extensions of both tokens, or undefined when they answer. */
  extensions?: Record<string, unknown>;
  /** The BRC-20 calls besides the siblings', in any order. */
  calls: string[];
}

const serverError = {
  status: 500,
  body: { statusCode: 500, error: 'Internal Server Error', message: 'An internal server error occurred' },
};
const faults: Array<[name: string, fault: Omit<Fault, 'path'>, outcomes: Record<'hiro' | 'documented', Outcome>]> = [
  [
    'a 500',
    serverError,
    {
      // The list failed: each token asks its own route, and reports what that answered.
      hiro: { extensions: { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 500 }, calls: [LIST, ...TOKENS] },
      documented: { extensions: { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 500 }, calls: [LIST, ...TOKENS] },
    },
  ],
  [
    'a 429 with Retry-After',
    { status: 429, headers: { 'retry-after': '30' }, body: { message: 'API rate limit exceeded' } },
    {
      // The quota is spent for the whole service: the token routes are not asked until the reset.
      hiro: { extensions: { code: 'RATE_LIMITED', service: 'ordinals', httpStatus: 429, retryAfter: 30 }, calls: [LIST] },
      documented: { extensions: { code: 'RATE_LIMITED', service: 'ordinals', httpStatus: 429, retryAfter: 30 }, calls: [LIST, ...TOKENS] },
    },
  ],
  [
    'a single 503, then success (UPSTREAM_RETRIES=1)',
    { times: 1, status: 503, body: 'Service Unavailable' },
    {
      hiro: { calls: [LIST, LIST] },
      documented: { calls: [LIST, ...TOKENS, ...TOKENS] },
    },
  ],
  [
    `an answer slower than UPSTREAM_TIMEOUT_MS (${TIMEOUT_MS} ms)`,
    { delayMs: TIMEOUT_MS * 2 },
    {
      // The list's wait is the field's whole deadline: no lookup follows it (UPSTREAM_TIMEOUT_MS
      // bounds the field's calls together). Where the list is missing, its 404 comes at once.
      hiro: { extensions: { code: 'UPSTREAM_TIMEOUT', service: 'ordinals' }, calls: [LIST] },
      documented: { extensions: { code: 'UPSTREAM_TIMEOUT', service: 'ordinals' }, calls: [LIST, ...TOKENS] },
    },
  ],
  [
    'truncated JSON in a 200',
    {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{"limit":60,"offset":0,"total":2,"results":[{"id":"',
    },
    {
      hiro: { extensions: { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 200 }, calls: [LIST, ...TOKENS] },
      documented: { extensions: { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 200 }, calls: [LIST, ...TOKENS] },
    },
  ],
];

/** Errors in path order: the two tokens fail concurrently. */
const byPath = (body: GraphQLBody) => ({ ...body, errors: body.errors?.sort((x, y) => String(x.path).localeCompare(String(y.path))) });

describe.each<'hiro' | 'documented'>(['hiro', 'documented'])('BRC-20 lookups without holders, against the %s upstream', (profile) => {
  describe.each(faults)('%s on every BRC-20 route', (_name, fault, outcomes) => {
    const { extensions, calls } = outcomes[profile];
    let stack: Stack;
    // A stack of its own: quota blocks, retry budgets and what was learned of the list stay here.
    beforeAll(async () => {
      stack = await startStack({ UPSTREAM_RETRIES: '1', UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) }, { profile: profile as SampleProfile });
    });
    afterAll(() => stack.close());

    it(extensions ? `each token fails alone with ${String(extensions.code)}` : 'each token answers', async () => {
      for (const path of ROUTES[profile]) stack.sample.inject({ path, ...fault });
      const { status, body } = await stack.graphql(QUERY);
      expect(status).toBe(200);
      expect(byPath(body)).toEqual(
        extensions
          ? { data: { a: null, b: null, ...SIBLINGS }, errors: [fieldError(['a'], extensions), fieldError(['b'], extensions)] }
          : { data: { a: summary('ordi'), b: summary('pepe'), ...SIBLINGS } },
      );
      // The first call is the list's (the fault, or the route 404 that says it is missing).
      const made = stack.upstreamCalls().filter((call) => !SIBLING_CALLS.includes(call));
      expect(made[0]).toBe(LIST);
      expect(made.sort()).toEqual([...calls].sort());
      expect(
        stack
          .upstreamCalls()
          .filter((call) => SIBLING_CALLS.includes(call))
          .sort(),
      ).toEqual(SIBLING_CALLS.sort());
    });
  });
});

describe('every root field fails alone (status, etchings and deleteChainhook are nullable)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  afterEach(() => stack.sample.reset());

  const READS = '{ status { status } etchings(limit: 1) { total } brc20Token(ticker: "ordi") { token { ticker } supply { holders } } }';
  const ordi = {
    token: { ticker: 'ordi' },
    supply: { holders: sampleData.brc20Tokens.find((t) => t.token.ticker === 'ordi')!.supply.holders },
  };
  const answers = { status: { status: 'ready' }, etchings: { total: sampleData.etchingsTotal }, brc20Token: ordi };

  it.each([
    ['status', '/metadata/v1', 'metadata'],
    ['etchings', '/runes/v1/etchings', 'runes'],
  ])('an upstream error in %s leaves the other fields their data', async (field, path, service) => {
    stack.sample.inject({ path, status: 503, body: 'Service Unavailable' });
    const { status, body } = await stack.graphql(READS);
    expect(status).toBe(200);
    expect(body).toEqual({
      data: { ...answers, [field]: null },
      errors: [fieldError([field], { code: 'UPSTREAM_ERROR', service, httpStatus: 503 })],
    });
  });

  it('a bad argument to etchings leaves the other fields their data', async () => {
    const { body } = await stack.graphql(READS.replace('limit: 1', 'limit: 61'));
    expect(body).toEqual({
      data: { ...answers, etchings: null },
      errors: [fieldError(['etchings'], { code: 'BAD_USER_INPUT', argument: 'limit' })],
    });
  });

  it('an upstream error in one deleteChainhook leaves the other its data', async () => {
    const [failing, deleted] = [DELETABLE_CHAINHOOK_UUIDS[0]!, DELETABLE_CHAINHOOK_UUIDS[1]!];
    stack.sample.inject({
      method: 'DELETE',
      path: `/v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${failing}`,
      status: 500,
      body: { status: 'error' },
    });
    const { body } = await stack.graphql(
      `mutation { a: deleteChainhook(uuid: "${failing}") { status chainhookUuid } b: deleteChainhook(uuid: "${deleted}") { status chainhookUuid } }`,
      undefined,
      { 'x-api-key': SAMPLE_PLATFORM_KEY },
    );
    expect(body).toEqual({
      data: { a: null, b: { status: 'success', chainhookUuid: deleted } },
      errors: [fieldError(['a'], { code: 'UPSTREAM_ERROR', service: 'platform', httpStatus: 500 })],
    });
    expect(stack.upstreamCalls()).toEqual([
      `DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${failing}`,
      `DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${deleted}`,
    ]);
  });
});
