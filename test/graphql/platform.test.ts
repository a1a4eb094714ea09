// The platform fields: which key is used, where each key travels (HIRO_API_KEY as a header to the
// hiro services only; the platform key in the path only), unsafe proxy paths, and deleteChainhook's
// UUID check and single, never retried DELETE.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DELETABLE_CHAINHOOK_UUIDS, findBrc20Token, sampleData } from '../../src/sample/data.js';
import { SAMPLE_PLATFORM_KEY } from '../../src/sample/server.js';
import { HIRO_KEY, startStack, type Stack } from '../harness.js';
import { fieldError, overWebSocket } from '../support.js';

const TIMEOUT_MS = 500;
const HEADER_ONLY_KEY = '0c1d2e3f405162738495a6b7c8d9eaf1';
const OTHER_KEY = 'other-header-key-1b2c3d';
// Credentials for other upstreams (no operation here reads from them): the platform is never sent
// them, and its messages never pass one on.
const UNISAT_KEY = 'unisat-secret-4e8d21c7';
const ORD_PASSWORD = 'ord-password-93af';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack(
    // Retries on (the harness turns them off): "never retried" must hold even where GETs are retried.
    { UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS), UPSTREAM_RETRIES: '2', UNISAT_API_KEY: UNISAT_KEY, ORD_API_AUTH: `ord:${ORD_PASSWORD}` },
    { platformApiKeys: [SAMPLE_PLATFORM_KEY, HEADER_ONLY_KEY] },
  );
});
afterAll(() => stack.close());
afterEach(() => stack.sample.reset());

async function run(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>) {
  stack.sample.clearLog();
  return stack.graphql(query, variables, headers);
}

const NODE = 'query($path: String!, $key: String) { bitcoinNode(path: $path, apiKey: $key) }';
const DELETE = `mutation($uuid: String!, $key: String) {
  deleteChainhook(uuid: $uuid, apiKey: $key) { status chainhookUuid message } }`;
const chaininfo = `bitcoin-node/rest/chaininfo.json`;

describe('key resolution', () => {
  it('the apiKey argument wins over the x-api-key header', async () => {
    const { body } = await run(NODE, { path: 'rest/chaininfo.json', key: SAMPLE_PLATFORM_KEY }, { 'x-api-key': OTHER_KEY });
    expect(body).toEqual({ data: { bitcoinNode: sampleData.bitcoinNode.chainInfo } });
    expect(stack.upstreamCalls()).toEqual([`GET /v1/ext/${SAMPLE_PLATFORM_KEY}/${chaininfo}`]);
  });

  it('the apiKey argument wins for deleteChainhook too', async () => {
    const uuid = DELETABLE_CHAINHOOK_UUIDS[3]!;
    const { body } = await run(DELETE, { uuid, key: SAMPLE_PLATFORM_KEY }, { 'x-api-key': OTHER_KEY });
    expect(body).toEqual({
      data: { deleteChainhook: { status: 'success', chainhookUuid: uuid, message: 'Chainhook deleted' } },
    });
    expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${uuid}`]);
  });

  it('the x-api-key header alone works', async () => {
    const { body } = await run(NODE, { path: 'rest/chaininfo.json' }, { 'x-api-key': HEADER_ONLY_KEY });
    expect(body).toEqual({ data: { bitcoinNode: sampleData.bitcoinNode.chainInfo } });
    expect(stack.upstreamCalls()).toEqual([`GET /v1/ext/${HEADER_ONLY_KEY}/${chaininfo}`]);
  });

  it('the x-api-key header alone works for deleteChainhook', async () => {
    const uuid = DELETABLE_CHAINHOOK_UUIDS[4]!;
    const { body } = await run(DELETE, { uuid }, { 'x-api-key': HEADER_ONLY_KEY });
    expect(body).toEqual({
      data: { deleteChainhook: { status: 'success', chainhookUuid: uuid, message: 'Chainhook deleted' } },
    });
    expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${HEADER_ONLY_KEY}/chainhooks/${uuid}`]);
  });

  it('over graphql-ws too: a mutation runs there as over HTTP (a WebSocket operation is no GET)', async () => {
    const uuid = DELETABLE_CHAINHOOK_UUIDS[4]!;
    stack.sample.clearLog();
    expect(await overWebSocket(stack.gatewayUrl, { query: DELETE, variables: { uuid } }, { 'x-api-key': HEADER_ONLY_KEY })).toEqual({
      data: { deleteChainhook: { status: 'success', chainhookUuid: uuid, message: 'Chainhook deleted' } },
    });
    expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${HEADER_ONLY_KEY}/chainhooks/${uuid}`]);
  });

  it("over graphql-ws, x-api-key in connectionParams (a browser's WebSocket sends no headers)", async () => {
    const uuid = DELETABLE_CHAINHOOK_UUIDS[3]!;
    stack.sample.clearLog();
    const params = { 'x-api-key': HEADER_ONLY_KEY };
    expect(await overWebSocket(stack.gatewayUrl, { query: DELETE, variables: { uuid } }, {}, params)).toEqual({
      data: { deleteChainhook: { status: 'success', chainhookUuid: uuid, message: 'Chainhook deleted' } },
    });
    expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${HEADER_ONLY_KEY}/chainhooks/${uuid}`]);
    // The upgrade's header wins over connectionParams, as a header does over HTTP.
    stack.sample.clearLog();
    const node = { query: NODE, variables: { path: 'rest/chaininfo.json' } };
    expect(await overWebSocket(stack.gatewayUrl, node, { 'x-api-key': SAMPLE_PLATFORM_KEY }, { 'x-api-key': OTHER_KEY })).toEqual({
      data: { bitcoinNode: sampleData.bitcoinNode.chainInfo },
    });
    expect(stack.upstreamCalls()).toEqual([`GET /v1/ext/${SAMPLE_PLATFORM_KEY}/${chaininfo}`]);
  });

  it('over graphql-ws, a refused key in connectionParams is FORBIDDEN and never echoed', async () => {
    stack.sample.clearLog();
    const node = { query: NODE, variables: { path: 'rest/chaininfo.json' } };
    const answer = await overWebSocket(stack.gatewayUrl, node, {}, { 'x-api-key': OTHER_KEY });
    expect(answer).toEqual({
      data: { bitcoinNode: null },
      errors: [
        {
          ...fieldError(['bitcoinNode'], { code: 'FORBIDDEN', service: 'platform', httpStatus: 403 }),
          message: 'The platform service refused the API key (HTTP 403): Forbidden: API key is not allowed to access this resource',
        },
      ],
    });
    expect(JSON.stringify(answer)).not.toContain(OTHER_KEY);
    expect(stack.logs.join('\n')).not.toContain(OTHER_KEY);
    expect(stack.upstreamCalls()).toEqual([`GET /v1/ext/${OTHER_KEY}/${chaininfo}`]);
  });

  it('neither: UNAUTHENTICATED, no upstream call', async () => {
    const node = await run(NODE, { path: 'rest/chaininfo.json' });
    expect(node.body).toEqual({ data: { bitcoinNode: null }, errors: [fieldError(['bitcoinNode'], { code: 'UNAUTHENTICATED' })] });
    const del = await run(DELETE, { uuid: DELETABLE_CHAINHOOK_UUIDS[0] });
    expect(del.body).toEqual({ data: { deleteChainhook: null }, errors: [fieldError(['deleteChainhook'], { code: 'UNAUTHENTICATED' })] });
    expect(stack.upstreamCalls()).toEqual([]);
  });

  it('two fields with different keys in one request each use their own', async () => {
    const { body } = await run(
      `{ a: bitcoinNode(path: "rest/chaininfo.json", apiKey: "${SAMPLE_PLATFORM_KEY}") b: bitcoinNode(path: "rest/chaininfo.json") }`,
      undefined,
      { 'x-api-key': HEADER_ONLY_KEY },
    );
    expect(body).toEqual({ data: { a: sampleData.bitcoinNode.chainInfo, b: sampleData.bitcoinNode.chainInfo } });
    expect(stack.upstreamCalls().sort()).toEqual(
      [`GET /v1/ext/${SAMPLE_PLATFORM_KEY}/${chaininfo}`, `GET /v1/ext/${HEADER_ONLY_KEY}/${chaininfo}`].sort(),
    );
  });
});

describe('identical bitcoinNode fields', () => {
  it('share one upstream call per (key, path), whether the key is an argument or the header', async () => {
    const { body } = await run(
      `{ a: bitcoinNode(path: "rest/chaininfo.json", apiKey: "${SAMPLE_PLATFORM_KEY}")
         b: bitcoinNode(path: "rest/chaininfo.json", apiKey: "${SAMPLE_PLATFORM_KEY}")
         c: bitcoinNode(path: "rest/chaininfo.json")
         d: bitcoinNode(path: "rest/mempool/info.json") }`,
      undefined,
      { 'x-api-key': SAMPLE_PLATFORM_KEY },
    );
    const chainInfo = sampleData.bitcoinNode.chainInfo;
    expect(body).toEqual({ data: { a: chainInfo, b: chainInfo, c: chainInfo, d: sampleData.bitcoinNode.mempoolInfo } });
    expect(stack.upstreamCalls().sort()).toEqual(
      [`GET /v1/ext/${SAMPLE_PLATFORM_KEY}/${chaininfo}`, `GET /v1/ext/${SAMPLE_PLATFORM_KEY}/bitcoin-node/rest/mempool/info.json`].sort(),
    );
  });
});

describe('the node’s JSON passed on whole', () => {
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const serve = (path: string, depth: number) =>
    stack.sample.inject({
      path: `/v1/ext/${SAMPLE_PLATFORM_KEY}/bitcoin-node/${path}`,
      status: 200,
      body: nested(depth),
      headers: { 'content-type': 'application/json' },
    });
  const query = `{ status { status } deep: bitcoinNode(path: "rest/deep.json") shallow: bitcoinNode(path: "rest/shallow.json") }`;

  it('nested deeper than 64 levels fails its own field, over HTTP and over a WebSocket; 64 is answered', async () => {
    serve('rest/deep.json', 8000);
    serve('rest/shallow.json', 64);
    const expected = {
      data: { status: { status: 'ready' }, deep: null, shallow: JSON.parse(nested(64)) as unknown },
      errors: [fieldError(['deep'], { code: 'UPSTREAM_ERROR', service: 'platform', httpStatus: 200 })],
    };
    const { body } = await run(query, undefined, { 'x-api-key': SAMPLE_PLATFORM_KEY });
    expect(body).toEqual(expected);
    expect(await overWebSocket(stack.gatewayUrl, { query }, { 'x-api-key': SAMPLE_PLATFORM_KEY })).toEqual(expected);
  });
});

describe('where the keys travel', () => {
  it('HIRO_API_KEY goes as x-api-key to every hiro service, the platform key never does', async () => {
    const { body } = await run(
      '{ status { status } brc20Token(ticker: "ordi") { token { ticker } supply { holders } } etchings(limit: 1) { total } transfers(block: 775700) { total } }',
      undefined,
      {
        'x-api-key': SAMPLE_PLATFORM_KEY,
      },
    );
    expect(body).toEqual({
      data: {
        status: { status: 'ready' },
        brc20Token: { token: { ticker: 'ordi' }, supply: { holders: findBrc20Token('ordi')!.supply.holders } },
        etchings: { total: sampleData.etchingsTotal },
        transfers: { total: 2 },
      },
    });
    const requests = stack.sample.requests;
    expect(requests.map((r) => r.path).sort()).toEqual(
      ['/metadata/v1', '/ordinals/v1/brc-20/tokens/ordi', '/runes/v1/etchings', '/ordinals/v1/inscriptions/transfers'].sort(),
    );
    for (const request of requests) {
      expect(request.headers['x-api-key'], request.path).toBe(HIRO_KEY);
      expect(JSON.stringify(request.headers)).not.toContain(SAMPLE_PLATFORM_KEY);
    }
  });

  it('platform requests carry no x-api-key header; the platform key is only in the path', async () => {
    const uuid = DELETABLE_CHAINHOOK_UUIDS[0]!;
    await run(NODE, { path: 'rest/chaininfo.json?count=1', key: SAMPLE_PLATFORM_KEY }, { 'x-api-key': OTHER_KEY });
    const first = [...stack.sample.requests];
    await run(NODE, { path: 'rest/mempool/info.json' }, { 'x-api-key': SAMPLE_PLATFORM_KEY });
    const second = [...stack.sample.requests];
    const del = await run(DELETE, { uuid }, { 'x-api-key': SAMPLE_PLATFORM_KEY });
    expect(del.body.data).toEqual({ deleteChainhook: { status: 'success', chainhookUuid: uuid, message: 'Chainhook deleted' } });
    const third = [...stack.sample.requests];
    const platformRequests = [...first, ...second, ...third];
    expect(platformRequests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v1/ext/${SAMPLE_PLATFORM_KEY}/${chaininfo}`,
      `GET /v1/ext/${SAMPLE_PLATFORM_KEY}/bitcoin-node/rest/mempool/info.json`,
      `DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${uuid}`,
    ]);
    for (const request of platformRequests) {
      expect(Object.keys(request.headers), request.path).not.toContain('x-api-key');
      const headers = JSON.stringify(request.headers);
      for (const key of [HIRO_KEY, SAMPLE_PLATFORM_KEY, OTHER_KEY]) expect(headers).not.toContain(key);
      const query = request.url.slice(request.path.length);
      expect(query).not.toContain(SAMPLE_PLATFORM_KEY);
      // Exactly one occurrence: the /v1/ext/<key>/ segment.
      expect(request.url.split(SAMPLE_PLATFORM_KEY)).toHaveLength(2);
      expect(request.path.startsWith(`/v1/ext/${SAMPLE_PLATFORM_KEY}/`)).toBe(true);
    }
  });

  it.each(['a/b?c#d', `${SAMPLE_PLATFORM_KEY}%2F..`, 'a\\b', 'a\u0000b', 'a\r\nb', '..', '.', 'a b', 'k'.repeat(129), '\ud800'])(
    'a key that is not a sane token (%j) is refused, argument or header, without an upstream call',
    async (key) => {
      const { body } = await run(NODE, { path: 'rest/chaininfo.json', key });
      const refused = {
        data: { bitcoinNode: null },
        errors: [fieldError(['bitcoinNode'], { code: 'BAD_USER_INPUT', argument: 'apiKey' })],
      };
      expect(body).toEqual(refused);
      if (/^[\x21-\x7e]*$/.test(key)) {
        expect((await run(NODE, { path: 'rest/chaininfo.json' }, { 'x-api-key': key })).body).toEqual(refused);
      }
      if (key.length >= 4) expect(JSON.stringify(body)).not.toContain(JSON.stringify(key).slice(1, -1));
      expect(stack.upstreamCalls()).toEqual([]);
    },
  );

  it('a sane key of every URL-unreserved character is sent as is, one path segment', async () => {
    // 100 characters: the longest path parameter the sample (Fastify) routes.
    const key = `Aa0._~-${'f'.repeat(93)}`;
    const { body } = await run(NODE, { path: 'rest/chaininfo.json', key });
    expect(body).toEqual({
      data: { bitcoinNode: null },
      errors: [
        {
          ...fieldError(['bitcoinNode'], { code: 'FORBIDDEN', service: 'platform', httpStatus: 403 }),
          // The platform's own message follows what the gateway says: it was the key that was refused.
          message: 'The platform service refused the API key (HTTP 403): Forbidden: API key is not allowed to access this resource',
        },
      ],
    });
    expect(stack.upstreamCalls()).toEqual([`GET /v1/ext/${key}/${chaininfo}`]);
  });
});

describe('unsafe bitcoinNode paths: BAD_USER_INPUT, zero upstream requests', () => {
  it.each([
    '../chainhooks',
    '..',
    'rest/../../chainhooks/x',
    '%2e%2e/x',
    '%2E%2E%2Fchainhooks',
    'rest/%2fx',
    'rest/%2Fx',
    'rest\\..\\x',
    'rest/%5c..%5cx',
    '//evil.example/x',
    'http://evil.example/',
    'https://evil.example/x',
    'rest/%252e%252e/x',
    './rest/chaininfo.json',
    'rest//x',
    'rest/x#frag',
    'rest/\u0000x',
    `rest/${'x'.repeat(2044)}`,
    `rest/x?${'y'.repeat(2042)}`,
  ])('%j', async (path) => {
    const { status, body } = await run(NODE, { path, key: SAMPLE_PLATFORM_KEY });
    expect(status).toBe(200);
    expect(body).toEqual({
      data: { bitcoinNode: null },
      errors: [fieldError(['bitcoinNode'], { code: 'BAD_USER_INPUT', argument: 'path' })],
    });
    expect(stack.upstreamCalls()).toEqual([]);
  });

  it('a path of 2,048 characters, query string included, is the longest sent', async () => {
    const path = `rest/x?${'y'.repeat(2041)}`;
    expect(path).toHaveLength(2048);
    await run(NODE, { path, key: SAMPLE_PLATFORM_KEY });
    expect(stack.upstreamCalls()).toEqual([`GET /v1/ext/${SAMPLE_PLATFORM_KEY}/bitcoin-node/${path}`]);
  });

  it('an unsafe path fails alone: a sibling answers', async () => {
    const { body } = await run(
      `{ status { status } a: bitcoinNode(path: "../chainhooks", apiKey: "${SAMPLE_PLATFORM_KEY}")
         b: bitcoinNode(path: "rest/chaininfo.json", apiKey: "${SAMPLE_PLATFORM_KEY}") }`,
    );
    expect(body).toEqual({
      data: { status: { status: 'ready' }, a: null, b: sampleData.bitcoinNode.chainInfo },
      errors: [fieldError(['a'], { code: 'BAD_USER_INPUT', argument: 'path' })],
    });
    expect(stack.upstreamCalls().sort()).toEqual(['GET /metadata/v1', `GET /v1/ext/${SAMPLE_PLATFORM_KEY}/${chaininfo}`]);
  });

  it('a path is checked before the key: no key and an unsafe path make no upstream request', async () => {
    const { body } = await run(NODE, { path: '../chainhooks' });
    expect(body.data).toEqual({ bitcoinNode: null });
    expect(body.errors).toHaveLength(1);
    expect(['BAD_USER_INPUT', 'UNAUTHENTICATED']).toContain(body.errors![0]!.extensions?.code);
    expect(stack.upstreamCalls()).toEqual([]);
  });
});

describe('deleteChainhook', () => {
  const uuid = DELETABLE_CHAINHOOK_UUIDS[2]!;

  it.each([
    ['not a uuid', 'not-a-uuid'],
    ['a path', '../x'],
    ['a path after a uuid', `${uuid}/../x`],
    ['a uuid with an extra character', `${uuid}0`],
    ['a uuid with a leading space', ` ${uuid}`],
    ['a uuid with a trailing newline', `${uuid}\n`],
    ['a uuid without dashes', uuid.replace(/-/g, '')],
    ['a uuid in braces', `{${uuid}}`],
    ['a uuid with a non-hex digit', `g${uuid.slice(1)}`],
    ['empty', ''],
  ])('%s → BAD_USER_INPUT, no upstream call', async (_name, bad) => {
    const { status, body } = await run(DELETE, { uuid: bad, key: SAMPLE_PLATFORM_KEY });
    expect(status).toBe(200);
    expect(body).toEqual({
      data: { deleteChainhook: null },
      errors: [fieldError(['deleteChainhook'], { code: 'BAD_USER_INPUT', argument: 'uuid' })],
    });
    expect(stack.upstreamCalls()).toEqual([]);
  });

  it('a valid uuid sends exactly one DELETE to /v1/ext/<key>/chainhooks/<uuid>', async () => {
    const { body } = await run(DELETE, { uuid, key: SAMPLE_PLATFORM_KEY });
    expect(body).toEqual({ data: { deleteChainhook: { status: 'success', chainhookUuid: uuid, message: 'Chainhook deleted' } } });
    expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${uuid}`]);
  });

  it('an uppercase uuid is a UUID too', async () => {
    const upper = uuid.toUpperCase();
    const { body } = await run(DELETE, { uuid: upper, key: SAMPLE_PLATFORM_KEY });
    // The sample stores uuids lowercase, like Postgres, and answers the stored form.
    expect(body).toEqual({ data: { deleteChainhook: { status: 'success', chainhookUuid: uuid, message: 'Chainhook deleted' } } });
    expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${upper}`]);
  });

  it("a second delete of the same chainhook is NOT_FOUND, with the platform's own message", async () => {
    await run(DELETE, { uuid, key: SAMPLE_PLATFORM_KEY });
    const { body } = await run(DELETE, { uuid, key: SAMPLE_PLATFORM_KEY });
    expect(body).toEqual({
      data: { deleteChainhook: null },
      errors: [
        {
          ...fieldError(['deleteChainhook'], { code: 'NOT_FOUND', service: 'platform', httpStatus: 404 }),
          message: 'The platform service answered with HTTP 404: Chainhook not found',
        },
      ],
    });
    expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${uuid}`]);
  });

  it.each([
    ['one that holds the key', `No chainhook ${'x'} for key ${SAMPLE_PLATFORM_KEY}`],
    ['one that holds the key upper-cased', `network ${SAMPLE_PLATFORM_KEY.toUpperCase()} does not exist`],
    ['one that holds HIRO_API_KEY', `key ${HIRO_KEY} is not a platform key`],
    ['one that holds UNISAT_API_KEY', `key ${UNISAT_KEY} is not a platform key`],
    ["one that holds ORD_API_AUTH's password", `password ${ORD_PASSWORD} is wrong`],
    ['one longer than 200 characters', 'Chainhook not found '.repeat(11)],
    ['one with control characters', 'Chainhook\nnot found'],
    ['one that is not a string', { text: 'Chainhook not found' }],
  ])("the platform's message is left out when it is %s", async (_name, message) => {
    stack.sample.inject({ method: 'DELETE', path: '/v1/ext/*', status: 404, body: { status: 'error', message, error: null } });
    const { body } = await run(DELETE, { uuid, key: SAMPLE_PLATFORM_KEY });
    expect(body).toEqual({
      data: { deleteChainhook: null },
      errors: [
        {
          ...fieldError(['deleteChainhook'], { code: 'NOT_FOUND', service: 'platform', httpStatus: 404 }),
          message: 'The platform service answered with HTTP 404',
        },
      ],
    });
  });

  it('a 503 is not retried: exactly one DELETE, UPSTREAM_ERROR with httpStatus 503', async () => {
    stack.sample.inject({ method: 'DELETE', path: '/v1/ext/*', status: 503, body: { status: 'error', message: 'Service Unavailable' } });
    const { body } = await run(DELETE, { uuid, key: SAMPLE_PLATFORM_KEY });
    expect(body).toEqual({
      data: { deleteChainhook: null },
      errors: [fieldError(['deleteChainhook'], { code: 'UPSTREAM_ERROR', service: 'platform', httpStatus: 503 })],
    });
    expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${uuid}`]);
  });

  it('a 503 with Retry-After is not retried either', async () => {
    stack.sample.inject({ method: 'DELETE', path: '/v1/ext/*', status: 503, headers: { 'retry-after': '1' }, body: 'busy' });
    const { body } = await run(DELETE, { uuid, key: SAMPLE_PLATFORM_KEY });
    expect(body.data).toEqual({ deleteChainhook: null });
    expect(body.errors).toEqual([fieldError(['deleteChainhook'], expect.objectContaining({ code: 'UPSTREAM_ERROR', httpStatus: 503 }))]);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${uuid}`]);
  });

  it('a connection reset is not retried: one DELETE, UPSTREAM_UNAVAILABLE', async () => {
    stack.sample.inject({ method: 'DELETE', path: '/v1/ext/*', reset: true });
    const { body } = await run(DELETE, { uuid, key: SAMPLE_PLATFORM_KEY });
    expect(body).toEqual({
      data: { deleteChainhook: null },
      errors: [fieldError(['deleteChainhook'], { code: 'UPSTREAM_UNAVAILABLE', service: 'platform' })],
    });
    expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${uuid}`]);
  });

  it('a timeout is not retried: one DELETE, UPSTREAM_TIMEOUT', async () => {
    stack.sample.inject({ method: 'DELETE', path: '/v1/ext/*', hang: true });
    const { body } = await run(DELETE, { uuid, key: SAMPLE_PLATFORM_KEY });
    expect(body).toEqual({
      data: { deleteChainhook: null },
      errors: [fieldError(['deleteChainhook'], { code: 'UPSTREAM_TIMEOUT', service: 'platform' })],
    });
    expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${uuid}`]);
  });

  it('control: with retries on, the same 503 on a bitcoinNode GET is retried', async () => {
    stack.sample.inject({ method: 'GET', path: '/v1/ext/*', status: 503, body: 'busy', times: 1 });
    const { body } = await run(NODE, { path: 'rest/chaininfo.json', key: SAMPLE_PLATFORM_KEY });
    expect(body).toEqual({ data: { bitcoinNode: sampleData.bitcoinNode.chainInfo } });
    expect(stack.upstreamCalls()).toEqual([
      `GET /v1/ext/${SAMPLE_PLATFORM_KEY}/${chaininfo}`,
      `GET /v1/ext/${SAMPLE_PLATFORM_KEY}/${chaininfo}`,
    ]);
  });

  it('two deletions in one mutation run in order, one DELETE each', async () => {
    const { body } = await run(
      `mutation { a: deleteChainhook(uuid: "${uuid}", apiKey: "${SAMPLE_PLATFORM_KEY}") { status }
                  b: deleteChainhook(uuid: "${DELETABLE_CHAINHOOK_UUIDS[1]}", apiKey: "${SAMPLE_PLATFORM_KEY}") { status } }`,
    );
    expect(body).toEqual({ data: { a: { status: 'success' }, b: { status: 'success' } } });
    // Mutation fields run in order.
    expect(stack.upstreamCalls()).toEqual([
      `DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${uuid}`,
      `DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${DELETABLE_CHAINHOOK_UUIDS[1]}`,
    ]);
  });
});

describe('deleteChainhook and MAX_UPSTREAM_CALLS_PER_REQUEST', () => {
  it('each DELETE is one of the request calls: past the bound, TOO_MANY_UPSTREAM_CALLS and no DELETE sent', async () => {
    const limited = await startStack({ MAX_UPSTREAM_CALLS_PER_REQUEST: '2' }, { platformApiKeys: [SAMPLE_PLATFORM_KEY] });
    try {
      const uuids = DELETABLE_CHAINHOOK_UUIDS.slice(0, 3);
      const aliases = uuids.map((uuid, i) => `d${i}: deleteChainhook(uuid: "${uuid}", apiKey: "${SAMPLE_PLATFORM_KEY}") { chainhookUuid }`);
      const { body } = await limited.graphql(`mutation { ${aliases.join(' ')} }`);
      expect(body).toEqual({
        data: { d0: { chainhookUuid: uuids[0] }, d1: { chainhookUuid: uuids[1] }, d2: null },
        errors: [
          {
            message: 'This request needs more than 2 upstream lookups; split it',
            locations: [{ line: 1, column: expect.any(Number) }],
            path: ['d2'],
            extensions: { code: 'TOO_MANY_UPSTREAM_CALLS', limit: 2 },
          },
        ],
      });
      expect(limited.upstreamCalls()).toEqual(uuids.slice(0, 2).map((uuid) => `DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${uuid}`));
    } finally {
      await limited.close();
    }
  });
});
