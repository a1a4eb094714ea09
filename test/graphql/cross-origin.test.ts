/**
 * What a browser on another origin needs (docs/security.md): preflights allow the headers common
 * clients add (CORS_ALLOWED_HEADERS); GETs run without a CSRF-prevention header (urql's default
 * GETs, EventSource), also from the response fast path; a request a browser sends cross-site
 * without a preflight (a form, multipart or text POST) still needs one, and never reaches the upstream.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_CORS_ALLOWED_HEADERS } from '../../src/config.js';
import { DELETABLE_CHAINHOOK_UUIDS } from '../../src/sample/data.js';
import { SAMPLE_PLATFORM_KEY } from '../../src/sample/server.js';
import { RESPONSE_CACHE_OFF, startStack, type Stack } from '../harness.js';

const APP = 'https://app.example';

/** A preflight's status and CORS headers. */
async function preflight(stack: Stack, path: string, origin: string, method: string, headers: string) {
  const answer = await fetch(`${stack.gatewayUrl}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
  await answer.arrayBuffer();
  const cors: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (name.startsWith('access-control-') || name === 'vary') cors[name] = value;
  });
  return { status: answer.status, cors };
}

const EXPOSED = 'etag, x-request-id, retry-after, age, warning, ratelimit-limit, ratelimit-remaining, ratelimit-reset, x-data-source';
/** What Apollo Client (client awareness), Sentry (tracing) and an app's fetch wrapper add. */
const CLIENT_HEADERS = 'apollographql-client-name,apollographql-client-version,authorization,baggage,content-type,sentry-trace';

describe('preflights', () => {
  let stack: Stack;
  let custom: Stack;
  beforeAll(async () => {
    [stack, custom] = await Promise.all([
      startStack({ CORS_ORIGINS: APP }),
      startStack({ CORS_ORIGINS: '*', CORS_ALLOWED_HEADERS: 'content-type, X-Tenant' }),
    ]);
  });
  afterAll(() => Promise.all([stack.close(), custom.close()]));

  test("the default allows Apollo's, Sentry's and Authorization headers, on GraphQL and REST paths alike", async () => {
    const expected = {
      status: 204,
      cors: {
        'access-control-allow-origin': APP,
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers': DEFAULT_CORS_ALLOWED_HEADERS.join(', '),
        'access-control-expose-headers': EXPOSED,
        vary: 'Origin',
      },
    };
    expect(await preflight(stack, '/graphql', APP, 'POST', CLIENT_HEADERS)).toEqual(expected);
    expect(await preflight(stack, '/graphql', APP, 'GET', 'authorization,sentry-trace,baggage')).toEqual(expected);
    expect(await preflight(stack, '/runes/v1/etchings', APP, 'GET', 'authorization')).toEqual(expected);
    for (const name of CLIENT_HEADERS.split(',')) expect(DEFAULT_CORS_ALLOWED_HEADERS).toContain(name);
    // What clients written for Hiro's hosted APIs send with their key (the upstream allows any header).
    expect(await preflight(stack, '/ordinals/v1/brc-20/tokens/ordi', APP, 'GET', 'x-hiro-api-key')).toEqual(expected);
    expect(DEFAULT_CORS_ALLOWED_HEADERS).toContain('x-hiro-api-key');
    // An origin not listed gets nothing to allow anything with.
    expect(await preflight(stack, '/graphql', 'https://evil.example', 'POST', CLIENT_HEADERS)).toEqual({
      status: 204,
      cors: { vary: 'Origin' },
    });
    expect(stack.upstreamCalls()).toEqual([]);
  });

  test('CORS_ALLOWED_HEADERS replaces the list', async () => {
    expect(await preflight(custom, '/graphql', APP, 'POST', 'content-type,x-tenant')).toEqual({
      status: 204,
      cors: {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers': 'content-type, x-tenant',
        'access-control-expose-headers': EXPOSED,
      },
    });
  });
});

describe('CSRF prevention', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ CORS_ORIGINS: APP, CACHE_TTL_MS: '60000' });
  });
  afterAll(() => stack.close());

  const TOKEN = '{ brc20Token(ticker: "ordi") { token { ticker } } }';

  test.skipIf(RESPONSE_CACHE_OFF)(
    'a GET query with no custom header runs, and its repeat comes from the fast path without an upstream call',
    async () => {
      const url = `${stack.gatewayUrl}/graphql?query=${encodeURIComponent(TOKEN)}`;
      const headers = { origin: APP, accept: 'application/graphql-response+json, application/json' };
      const first = await fetch(url, { headers });
      expect([first.status, first.headers.get('access-control-allow-origin'), await first.json()]).toEqual([
        200,
        APP,
        { data: { brc20Token: { token: { ticker: 'ordi' } } } },
      ]);
      stack.sample.clearLog();
      const second = await fetch(url, { headers });
      expect([second.status, await second.json()]).toEqual([200, { data: { brc20Token: { token: { ticker: 'ordi' } } } }]);
      expect(stack.upstreamCalls()).toEqual([]);
      const metrics = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
      expect(metrics).toMatch(/^satgate_response_cache_events_total\{event="hit"\} 1$/m);
    },
  );

  const MUTATION = `mutation { deleteChainhook(uuid: "${DELETABLE_CHAINHOOK_UUIDS[0]}", apiKey: "${SAMPLE_PLATFORM_KEY}") { status } }`;
  const refused = {
    errors: [{ message: 'Required CSRF header(s) not present', extensions: { code: 'CSRF_HEADER_REQUIRED' } }],
  };

  test.each<[string, () => RequestInit]>([
    [
      'a form POST',
      () => ({
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ query: MUTATION }).toString(),
      }),
    ],
    [
      'a multipart form POST',
      () => {
        const form = new FormData();
        form.set('operations', JSON.stringify({ query: MUTATION }));
        form.set('map', '{}');
        return { body: form };
      },
    ],
    ['a text/plain POST', () => ({ headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ query: MUTATION }) })],
  ])('%s of a mutation without a custom header is refused before any upstream call', async (_name, init) => {
    stack.sample.clearLog();
    const answer = await fetch(`${stack.gatewayUrl}/graphql`, { method: 'POST', ...init(), headers: { origin: APP, ...init().headers } });
    expect([answer.status, await answer.json()]).toEqual([403, refused]);
    expect(stack.upstreamCalls()).toEqual([]);
  });

  test('a GET mutation is 405 without a custom header, before any upstream call', async () => {
    stack.sample.clearLog();
    const answer = await fetch(`${stack.gatewayUrl}/graphql?query=${encodeURIComponent(MUTATION)}`, { headers: { origin: APP } });
    expect(answer.status).toBe(405);
    await answer.arrayBuffer();
    expect(stack.upstreamCalls()).toEqual([]);
  });

  test('a JSON POST (which a browser preflights) needs no custom header', async () => {
    stack.sample.clearLog();
    const { status, body } = await stack.graphql(MUTATION, undefined, { origin: APP });
    expect([status, body]).toEqual([200, { data: { deleteChainhook: { status: 'success' } } }]);
    expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${DELETABLE_CHAINHOOK_UUIDS[0]}`]);
  });

  test('(last: its poller outlives it briefly) a GET subscription as EventSource sends it (accept: text/event-stream, no custom header) streams', async () => {
    const controller = new AbortController();
    const query = encodeURIComponent('subscription { status { status } }');
    const answer = await fetch(`${stack.gatewayUrl}/graphql?query=${query}`, {
      headers: { origin: APP, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect([answer.status, answer.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const event = () => text.indexOf('event: next');
    while (event() < 0 || !text.includes('\n\n', event())) text += (await reader.read()).value ?? '';
    expect(text).toContain('event: next\ndata: {"data":{"status":{"status":"ready"}}}\n\n');
    controller.abort();
  });
});
