/** Operating satgate: /metrics, /readyz, request ids, and graceful shutdown. */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SAMPLE_PLATFORM_KEY } from '../src/sample/server.js';
import { HIRO_KEY, rest, startStack, type Stack } from './harness.js';

describe('metrics, readiness and request ids', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  test('/metrics names route templates, services and codes, never a key, a ticker or a raw path', async () => {
    await stack.graphql('{ brc20Token(ticker: "secret-ticker-zz") { supply { holders } } etchings(limit: 0) { total } }');
    await rest(`${stack.gatewayUrl}/ordinals/v1/brc-20/tokens/another-ticker-yy`);
    await rest(`${stack.gatewayUrl}/v1/ext/${SAMPLE_PLATFORM_KEY}/bitcoin-node/rest/chaininfo.json`);
    await stack.graphql(`{ bitcoinNode(path: "rest/chaininfo.json", apiKey: "${SAMPLE_PLATFORM_KEY}") }`);
    const response = await fetch(`${stack.gatewayUrl}/metrics`);
    const text = await response.text();
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const series = text.split('\n').filter((line) => line && !line.startsWith('#'));
    for (const expected of [
      'satgate_graphql_operations_total{operation="query"} 2',
      'satgate_graphql_errors_total{code="BAD_USER_INPUT"} 1',
      // Error results are counted by code, never as an operation of their own.
      'satgate_graphql_duration_seconds_count{operation="query"} 2',
      'satgate_upstream_request_duration_seconds_count{service="ordinals",route="/ordinals/v1/brc-20/tokens/:ticker",outcome="404"} 2',
      'satgate_upstream_request_duration_seconds_count{service="platform",route="/v1/ext/:apiKey/bitcoin-node/*",outcome="200"} 2',
      'satgate_rest_request_duration_seconds_count{route="/ordinals/v1/brc-20/tokens/:ticker",status="404"} 1',
      'satgate_rest_request_duration_seconds_count{route="/v1/ext/:apiKey/bitcoin-node/*",status="200"} 1',
      'satgate_cache_events_total{service="ordinals",event="miss"} 2',
      'satgate_upstream_breaker_state{service="ordinals"} 0',
    ]) {
      expect(series).toContain(expected);
    }
    expect(text).not.toContain('operation="errors"');
    for (const secret of [SAMPLE_PLATFORM_KEY, HIRO_KEY, 'secret-ticker-zz', 'another-ticker-yy', 'chaininfo']) {
      expect(text).not.toContain(secret);
    }
  });

  test('/readyz reports each upstream service', async () => {
    await stack.graphql(
      `{ status { status } brc20Token(ticker: "ordi") { token { id } } etchings { total } bitcoinNode(path: "rest/chaininfo.json", apiKey: "${SAMPLE_PLATFORM_KEY}") }`,
    );
    const ready = await rest(`${stack.gatewayUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      services: Object.fromEntries(
        ['metadata', 'ordinals', 'runes', 'platform'].map((name) => [
          name,
          {
            // The platform's breakers and quotas are per tenant (API key): counted, never one tenant's.
            ...(name === 'platform'
              ? { breaker: 'per-tenant', tenants: 1, openBreakers: 0, quotaBlockedTenants: 0 }
              : { breaker: 'closed', quotaWaitSeconds: 0 }),
            // 304 where the answer was cached by an earlier test and revalidated.
            lastOutcome: expect.stringMatching(/^(200|304)$/),
            lastOutcomeAt: expect.any(String),
          },
        ]),
      ),
    });
  });

  test("a request id is echoed (the client's when sane, else a fresh one) and passed upstream", async () => {
    stack.sample.clearLog();
    const given = await fetch(`${stack.gatewayUrl}/ordinals/v1/brc-20/tokens/ordi`, { headers: { 'x-request-id': 'trace-42.a' } });
    await given.text();
    const insane = await fetch(`${stack.gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'no spaces allowed\t!' },
      body: JSON.stringify({ query: '{ status { status } }' }),
    });
    await insane.text();
    const generated = insane.headers.get('x-request-id') ?? '';
    expect([given.headers.get('x-request-id'), /^[0-9a-f-]{36}$/.test(generated)]).toEqual(['trace-42.a', true]);
    expect(stack.sample.requests.map((r) => [r.path, r.headers['x-request-id']])).toEqual([
      ['/ordinals/v1/brc-20/tokens/ordi', 'trace-42.a'],
      ['/metadata/v1', generated],
    ]);
    expect(stack.logs.some((line) => line.includes('"requestId":"trace-42.a"'))).toBe(true);
  });
});

describe('graceful shutdown', () => {
  test('accepted requests finish, new connections are refused, then the process can exit', async () => {
    const stack = await startStack({ SHUTDOWN_TIMEOUT_MS: '5000' });
    stack.sample.inject({ path: '/runes/v1/etchings', delayMs: 400 });
    const inFlight = stack.graphql('{ etchings(limit: 1) { total } }');
    const inFlightRest = rest(`${stack.gatewayUrl}/runes/etchings?limit=1`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopped = stack.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const refused = await new Promise<string>((resolve) => {
      const req = httpRequest(`${stack.gatewayUrl}/healthz`, { agent: false }, (res) => resolve(`answered ${res.statusCode}`));
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      req.end();
    });
    const [graphql, restAnswer] = await Promise.all([inFlight, inFlightRest]);
    await stopped;
    expect(refused).toBe('ECONNREFUSED');
    expect(graphql).toEqual({ status: 200, body: { data: { etchings: { total: expect.any(Number) } } } });
    expect(restAnswer.status).toBe(200);
    expect(stack.logs.filter((line) => /shutting down|stopped/.test(line))).toHaveLength(2);
  });
});

describe('REQUEST_TIMEOUT_MS', () => {
  test('a GraphQL request past the deadline gets a clear 504 and its upstream wait is cancelled', async () => {
    const stack = await startStack({ REQUEST_TIMEOUT_MS: '1000', UPSTREAM_TIMEOUT_MS: '8000' });
    try {
      stack.sample.inject({ path: '/runes/v1/etchings', hang: true });
      const started = Date.now();
      const answer = await stack.graphql('{ etchings { total } }');
      expect(Date.now() - started).toBeLessThan(3000);
      expect(answer).toEqual({
        status: 504,
        body: {
          errors: [
            { message: 'The request took longer than 1000 ms', extensions: { code: 'REQUEST_TIMEOUT', limit: 1000 } },
          ],
        },
      });
      // The process goes on serving.
      expect((await stack.graphql('{ status { status } }')).body).toEqual({ data: { status: { status: 'ready' } } });
      // The hung upstream call was cancelled with its only client: shutdown does not wait for it.
      const closing = Date.now();
      await stack.close();
      expect(Date.now() - closing).toBeLessThan(2000);
    } catch (error) {
      await stack.close();
      throw error;
    }
  });
});
