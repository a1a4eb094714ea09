// No key ever reaches a log line or a GraphQL answer: a debug-level gateway serves a mix of requests
// that carry keys (apiKey argument, x-api-key header, REST platform paths), failing ones included,
// and its captured logs and every response body are searched for the keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETABLE_CHAINHOOK_UUIDS } from '../../src/sample/data.js';
import { SAMPLE_PLATFORM_KEY } from '../../src/sample/server.js';
import { HIRO_KEY, startStack, type GraphQLBody, type Stack } from '../harness.js';
import { STACK_FRAME, expectNoSecrets, overWebSocket } from '../support.js';

const TIMEOUT_MS = 300;
/** Accepted by the sample, sent as the x-api-key header of GraphQL requests. */
const HEADER_KEY = '7e6d5c4b3a291807f6e5d4c3b2a19080';
/** Refused by the sample (403). */
const WRONG_KEY = 'c0ffee00deadbeef0badf00d12345678';
/** Paths under these keys are faulted: 401, 500 (its body echoes the key), hang, reset. */
const KEY_401 = 'a401a401a401a401a401a401a401a401';
const KEY_500 = 'b500b500b500b500b500b500b500b500';
const KEY_HANG = 'cafe0000cafe0000cafe0000cafe0000';
const KEY_RESET = 'dead0000dead0000dead0000dead0000';

const SECRETS = [HIRO_KEY, SAMPLE_PLATFORM_KEY, HEADER_KEY, WRONG_KEY, KEY_401, KEY_500, KEY_HANG, KEY_RESET];

let stack: Stack;
/** Every GraphQL response body of this file, as text. */
const bodies: string[] = [];

beforeAll(async () => {
  stack = await startStack(
    { LOG_LEVEL: 'debug', UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS), STALE_IF_ERROR_MS: '0' },
    { platformApiKeys: [SAMPLE_PLATFORM_KEY, HEADER_KEY] },
  );
  const { sample } = stack;
  sample.inject({ path: `/v1/ext/${KEY_401}/*`, status: 401, body: { status: 'error', message: 'Unauthorized', error: null } });
  sample.inject({
    path: `/v1/ext/${KEY_500}/*`,
    status: 500,
    body: { status: 'error', message: `internal error for key ${KEY_500}`, error: { key: KEY_500 } },
  });
  sample.inject({ path: `/v1/ext/${KEY_HANG}/*`, hang: true });
  sample.inject({ path: `/v1/ext/${KEY_RESET}/*`, reset: true });
  // The hiro services echo their key in error bodies.
  sample.inject({
    path: '/ordinals/v1/brc-20/tokens/boom',
    status: 500,
    body: { statusCode: 500, error: 'Internal Server Error', message: `key ${HIRO_KEY} failed` },
  });
  sample.inject({ path: '/ordinals/v1/brc-20/tokens/deny', status: 403, body: { message: `key ${HIRO_KEY} is not allowed` } });
  sample.inject({ path: '/ordinals/v1/brc-20/tokens/nokey', status: 401, body: { message: 'No API key found in request' } });
  sample.inject({ path: '/ordinals/v1/brc-20/tokens/slow', hang: true });
  sample.inject({ path: '/runes/v1/etchings', status: 429, headers: { 'retry-after': '3' }, body: { message: 'API rate limit exceeded' } });
});
afterAll(() => stack.close());

async function graphql(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>) {
  const result = await stack.graphql(query, variables, headers);
  bodies.push(JSON.stringify(result.body));
  return result.body;
}

async function rest(path: string, init: RequestInit = {}) {
  const response = await fetch(stack.gatewayUrl + path, init);
  return { status: response.status, text: await response.text() };
}

const codes = (body: GraphQLBody) => (body.errors ?? []).map((e) => e.extensions?.code);

describe('a mix of requests that carry keys', () => {
  beforeAll(async () => {
    const node = (key: string) => `{ bitcoinNode(path: "rest/chaininfo.json", apiKey: "${key}") }`;
    const DELETE = 'mutation($uuid: String!, $key: String) { deleteChainhook(uuid: $uuid, apiKey: $key) { status } }';

    // GraphQL, successful: apiKey literal, apiKey variable, x-api-key header.
    expect(codes(await graphql(node(SAMPLE_PLATFORM_KEY)))).toEqual([]);
    expect(
      codes(await graphql('query($k: String) { bitcoinNode(path: "rest/mempool/info.json", apiKey: $k) }', { k: SAMPLE_PLATFORM_KEY })),
    ).toEqual([]);
    expect(codes(await graphql('{ bitcoinNode(path: "rest/chaininfo.json") }', undefined, { 'x-api-key': HEADER_KEY }))).toEqual([]);
    expect(codes(await graphql(DELETE, { uuid: DELETABLE_CHAINHOOK_UUIDS[0], key: SAMPLE_PLATFORM_KEY }))).toEqual([]);
    expect(codes(await graphql(DELETE, { uuid: DELETABLE_CHAINHOOK_UUIDS[1] }, { 'x-api-key': HEADER_KEY }))).toEqual([]);
    expect(
      codes(
        await graphql(
          `
            {
              status {
                status
              }
              brc20Token(ticker: "ordi") {
                token {
                  ticker
                }
              }
              transfers(block: 775700) {
                total
              }
            }
          `,
          undefined,
          { 'x-api-key': HEADER_KEY },
        ),
      ),
    ).toEqual([]);

    // GraphQL, failing: 404, 403, 401, 500, timeout, reset, unsafe path.
    expect(codes(await graphql(DELETE, { uuid: DELETABLE_CHAINHOOK_UUIDS[0], key: SAMPLE_PLATFORM_KEY }))).toEqual(['NOT_FOUND']);
    expect(codes(await graphql(node(WRONG_KEY)))).toEqual(['FORBIDDEN']);
    expect(codes(await graphql(DELETE, { uuid: DELETABLE_CHAINHOOK_UUIDS[2] }, { 'x-api-key': WRONG_KEY }))).toEqual(['FORBIDDEN']);
    expect(codes(await graphql(node(KEY_401)))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await graphql(node(KEY_500)))).toEqual(['UPSTREAM_ERROR']);
    expect(codes(await graphql(DELETE, { uuid: DELETABLE_CHAINHOOK_UUIDS[2], key: KEY_500 }))).toEqual(['UPSTREAM_ERROR']);
    expect(codes(await graphql(node(KEY_HANG)))).toEqual(['UPSTREAM_TIMEOUT']);
    expect(codes(await graphql(DELETE, { uuid: DELETABLE_CHAINHOOK_UUIDS[2] }, { 'x-api-key': KEY_HANG }))).toEqual(['UPSTREAM_TIMEOUT']);
    expect(codes(await graphql(node(KEY_RESET)))).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(codes(await graphql(`{ bitcoinNode(path: "../chainhooks/x", apiKey: "${SAMPLE_PLATFORM_KEY}") }`))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await graphql(DELETE, { uuid: `../${SAMPLE_PLATFORM_KEY}`, key: SAMPLE_PLATFORM_KEY }))).toEqual(['BAD_USER_INPUT']);

    // GraphQL, the hiro services failing while HIRO_API_KEY is sent.
    // (supply.holders: the detail route, one lookup per ticker, each with its own fault)
    const failing = await graphql(`
      {
        a: brc20Token(ticker: "boom") {
          supply {
            holders
          }
        }
        b: brc20Token(ticker: "deny") {
          supply {
            holders
          }
        }
        c: brc20Token(ticker: "nokey") {
          supply {
            holders
          }
        }
        d: brc20Token(ticker: "slow") {
          supply {
            holders
          }
        }
      }
    `);
    expect(codes(failing).sort()).toEqual(['FORBIDDEN', 'UNAUTHENTICATED', 'UPSTREAM_ERROR', 'UPSTREAM_TIMEOUT']);
    expect(codes(await graphql('{ etchings { total } }'))).toEqual(['RATE_LIMITED']);

    // GraphQL over GET, the key in the URL's query string.
    const get = await fetch(
      `${stack.gatewayUrl}/graphql?query=${encodeURIComponent(`{ bitcoinNode(path: "rest/chaininfo.json", apiKey: "${SAMPLE_PLATFORM_KEY}") }`)}`,
      { headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' } },
    );
    expect(get.status).toBe(200);
    bodies.push(await get.text());

    // REST platform paths: the key is a path segment.
    const uuid = DELETABLE_CHAINHOOK_UUIDS[3];
    expect((await rest(`/v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${uuid}`, { method: 'DELETE' })).status).toBe(200);
    expect((await rest(`/v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${uuid}`, { method: 'DELETE' })).status).toBe(404);
    expect((await rest(`/v1/ext/${SAMPLE_PLATFORM_KEY}/bitcoin-node/rest/chaininfo.json`)).status).toBe(200);
    expect((await rest(`/v1/ext/${SAMPLE_PLATFORM_KEY}/bitcoin-node/rest/headers/${'0'.repeat(64)}.json?count=2`)).status).toBe(200);
    expect((await rest(`/v1/ext/${WRONG_KEY}/bitcoin-node/rest/chaininfo.json`)).status).toBe(403);
    expect((await rest(`/v1/ext/${KEY_401}/chainhooks/${uuid}`, { method: 'DELETE' })).status).toBe(401);
    expect((await rest(`/v1/ext/${KEY_500}/bitcoin-node/rest/chaininfo.json`)).status).toBe(500);
    expect((await rest(`/v1/ext/${KEY_HANG}/bitcoin-node/rest/chaininfo.json`)).status).toBe(504);
    expect((await rest(`/v1/ext/${KEY_HANG}/chainhooks/${uuid}`, { method: 'DELETE' })).status).toBe(504);
    expect((await rest(`/v1/ext/${KEY_RESET}/bitcoin-node/rest/chaininfo.json`)).status).toBe(502);
    expect([400, 404]).toContain((await rest(`/v1/ext/${SAMPLE_PLATFORM_KEY}/bitcoin-node/%2e%2e/chainhooks/x`)).status);
    expect((await rest(`/v1/ext/${SAMPLE_PLATFORM_KEY}/nothing-here`)).status).toBe(404);
    // REST hiro paths with a client x-api-key header (not forwarded; HIRO_API_KEY is).
    expect((await rest('/ordinals/v1/brc-20/tokens/ordi', { headers: { 'x-api-key': HEADER_KEY } })).status).toBe(200);
    expect((await rest('/ordinals/v1/brc-20/tokens/boom')).status).toBe(500);

    // Near misses of the platform paths (served by yoga, or refused): the access log and the
    // answers redact whatever follows an `ext` segment, wherever it is and however it is spelt.
    for (const [method, path] of [
      ['GET', `//v1/ext/${SAMPLE_PLATFORM_KEY}/bitcoin-node/rest/chaininfo.json`],
      ['GET', `/V1/ext/${HEADER_KEY}/bitcoin-node/rest/chaininfo.json`],
      ['DELETE', `/v1/EXT/${WRONG_KEY}/chainhooks/${uuid}`],
      ['GET', `/v1%2Fext%2F${KEY_401}%2Fbitcoin-node`],
      ['GET', `/api/v1/ext/${KEY_500}/x`],
      ['DELETE', `/v1/ext/${KEY_HANG}/chainhooks/%zz`],
      ['GET', `/v1/ext/${KEY_RESET}%zz/bitcoin-node/x`],
    ]) {
      const answer = await rest(path!, { method });
      expect(answer.status, path).toBeLessThan(500);
      expectNoSecrets(answer.text, SECRETS);
    }

    // Let the pino destination flush.
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  it('the logs are not empty and include the debug lines of upstream requests, platform ones too', () => {
    expect(stack.logs.length).toBeGreaterThan(0);
    const lines = stack.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    const debug = lines.filter((l) => l.level === 'debug');
    expect(debug.length).toBeGreaterThanOrEqual(20);
    // The platform's requests are logged, in a form without the key.
    expect(debug.some((l) => JSON.stringify(l).includes('/v1/ext/'))).toBe(true);
    expect(debug.some((l) => JSON.stringify(l).includes('chainhooks'))).toBe(true);
    // Failures are logged too (timeouts, resets).
    expect(lines.some((l) => ['warn', 'error', 'fatal'].includes(l.level as string))).toBe(true);
  });

  it('no key appears in any log line', () => {
    const logs = stack.logs.join('\n');
    expectNoSecrets(logs, SECRETS);
    expectNoSecrets(logs, SECRETS.map(encodeURIComponent));
  });

  it('no key and no stack trace appear in any GraphQL response body', () => {
    expect(bodies.length).toBeGreaterThanOrEqual(20);
    for (const body of bodies) {
      expectNoSecrets(body, SECRETS);
      expect(STACK_FRAME.test(body), body).toBe(false);
    }
  });

  it('the keys really were used upstream (so the searches above can fail)', () => {
    const urls = stack.sample.requests.map((r) => r.url).join('\n');
    for (const key of [SAMPLE_PLATFORM_KEY, HEADER_KEY, WRONG_KEY, KEY_401, KEY_500, KEY_HANG, KEY_RESET]) {
      expect(urls).toContain(`/v1/ext/${key}/`);
    }
    expect(stack.sample.requests.some((r) => r.headers['x-api-key'] === HIRO_KEY)).toBe(true);
  });
});

describe('malformed requests that carry a key', () => {
  it.each<[string, string, Record<string, unknown> | undefined]>([
    ['apiKey given a list', 'query($k: String) { bitcoinNode(path: "rest/chaininfo.json", apiKey: $k) }', { k: [SAMPLE_PLATFORM_KEY] }],
    [
      'apiKey given an object',
      'query($k: String) { bitcoinNode(path: "rest/chaininfo.json", apiKey: $k) }',
      { k: { key: SAMPLE_PLATFORM_KEY } },
    ],
    ['an unterminated document', `{ bitcoinNode(path: "rest/chaininfo.json", apiKey: "${SAMPLE_PLATFORM_KEY}") `, undefined],
    ['an unknown argument', `{ bitcoinNode(path: "rest/chaininfo.json", key: "${SAMPLE_PLATFORM_KEY}") }`, undefined],
    ['apiKey as an Int literal', `{ bitcoinNode(path: "rest/chaininfo.json", apiKey: ${'9'.repeat(32)}) }`, undefined],
  ])('%s: the key is not echoed in the answer or the logs', async (_name, query, variables) => {
    const before = stack.logs.length;
    const body = await graphql(query, variables);
    expect(body.errors?.length).toBeGreaterThan(0);
    const keys = [SAMPLE_PLATFORM_KEY, '9'.repeat(32)];
    await new Promise((resolve) => setTimeout(resolve, 20));
    const logs = stack.logs.slice(before).join('\n');
    for (const key of keys) {
      expect.soft(JSON.stringify(body).includes(key), `the answer contains ${key}`).toBe(false);
      expect.soft(logs.includes(key), `the logs contain ${key}`).toBe(false);
    }
  });
});

describe('over graphql-ws', () => {
  it.each<[string, string, Record<string, unknown> | undefined]>([
    ['apiKey given a list', 'query($k: String) { bitcoinNode(path: "rest/chaininfo.json", apiKey: $k) }', { k: [SAMPLE_PLATFORM_KEY] }],
    [
      'apiKey given an object',
      'query($k: String) { bitcoinNode(path: "rest/chaininfo.json", apiKey: $k) }',
      { k: { key: SAMPLE_PLATFORM_KEY } },
    ],
    ['the header key in an Int variable', 'query($k: Int) { etchings(limit: $k) { limit } }', { k: HEADER_KEY }],
    ['an unterminated document', `{ bitcoinNode(path: "rest/chaininfo.json", apiKey: "${SAMPLE_PLATFORM_KEY}") `, undefined],
    ['an unknown argument', `{ bitcoinNode(path: "rest/chaininfo.json", key: "${SAMPLE_PLATFORM_KEY}") }`, undefined],
  ])('%s: the same errors as over HTTP, keys scrubbed, no internal extensions', async (_name, query, variables) => {
    const headers = { 'x-api-key': HEADER_KEY };
    const overHttp = await graphql(query, variables, headers);
    const overWs = await overWebSocket(stack.gatewayUrl, { query, variables }, headers);
    bodies.push(JSON.stringify(overWs));
    expect(overHttp.errors?.length).toBeGreaterThan(0);
    expect(overWs).toEqual(overHttp);
  });
});
