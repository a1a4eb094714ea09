/** Operating satgate: /metrics, /readyz, request ids, and graceful shutdown. */
import { Agent, request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SAMPLE_PLATFORM_KEY } from '../../src/sample/server.js';
import { ORD_HEIGHT } from '../../src/sample/sources-data.js';
import { HIRO_KEY, rest, startStack, type Stack } from '../harness.js';
import { disposeAll, until, ws, wsClient } from '../live-clients.js';
import { expectNoSecrets } from '../support.js';
import { BRC20_HEIGHT } from '../../src/sample/unisat.js';

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

  test('HEAD answers as GET, without the body, wherever GET is served (RFC 9110 9.3.2)', async () => {
    const csrf = { 'x-graphql-yoga-csrf': '1', accept: 'application/json' };
    const answers = [];
    for (const [path, headers] of [
      ['/healthz', {}],
      ['/readyz', {}],
      ['/metrics', {}],
      ['/graphiql/init.js', {}],
      [`/graphql?query=${encodeURIComponent('{ status { status } }')}`, csrf],
    ] as const) {
      const head = await fetch(stack.gatewayUrl + path, { method: 'HEAD', headers });
      const get = await fetch(stack.gatewayUrl + path, { headers });
      await get.arrayBuffer();
      answers.push({
        path,
        head: [head.status, head.headers.get('content-type'), await head.text()],
        get: [get.status, get.headers.get('content-type'), ''],
      });
    }
    expect(answers.map(({ path, head }) => [path, head[0]])).toEqual([
      ['/healthz', 200],
      ['/readyz', 200],
      ['/metrics', 200],
      ['/graphiql/init.js', 200],
      [answers[4]!.path, 200],
    ]);
    for (const { head, get } of answers) expect(head).toEqual(get);
  });

  test('HEAD of a subscription answers its head at once, and holds no subscription', async () => {
    const path = `/graphql?query=${encodeURIComponent('subscription { status { status } }')}`;
    const answers = [];
    for (const accept of ['text/event-stream', 'multipart/mixed;subscriptionSpec=1.0']) {
      const head = await fetch(stack.gatewayUrl + path, { method: 'HEAD', headers: { accept }, signal: AbortSignal.timeout(5000) });
      answers.push([head.status, head.headers.get('content-type')?.split(';')[0], await head.text()]);
    }
    expect(answers).toEqual([
      [200, 'text/event-stream', ''],
      [200, 'multipart/mixed', ''],
    ]);
    await until(() => stack.gateway.live.active === 0 && stack.gateway.live.watched === 0, 'the cancelled subscriptions to end');
  });
});

describe('readiness and metrics per data source', () => {
  const UNISAT_KEY = 'unisat-ops-key-6f1d20';
  const ORD_AUTH = 'satgate:ord-ops-password-3c';
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(
      (sample) => ({
        BRC20_SOURCE: 'unisat',
        TRANSFERS_SOURCE: 'unisat',
        ETCHINGS_SOURCE: 'ord',
        UNISAT_API_URL: sample.baseUrl,
        UNISAT_API_KEY: UNISAT_KEY,
        UNISAT_RATE_LIMIT_PER_SECOND: '1000',
        ORD_API_URL: sample.baseUrl,
        ORD_API_AUTH: ORD_AUTH,
      }),
      { sources: { unisat: { apiKey: UNISAT_KEY }, ord: { auth: ORD_AUTH } } },
    );
  });
  afterAll(() => stack.close());

  const sourceService = (lastOutcome: string | null) => ({
    breaker: 'closed',
    quotaWaitSeconds: 0,
    lastOutcome,
    lastOutcomeAt: lastOutcome === null ? null : expect.any(String),
  });

  test('/readyz lists each source: what it serves, its pool and the indexed height it last reported', async () => {
    const before = await rest(`${stack.gatewayUrl}/readyz`);
    expect(before.body).toMatchObject({
      status: 'ready',
      services: { unisat: sourceService(null), ord: sourceService(null) },
      sources: {
        unisat: { serves: ['brc20', 'transfers'], height: null, heightAt: null },
        ord: { serves: ['etchings'], height: null, heightAt: null },
      },
    });
    await stack.graphql('{ brc20Token(ticker: "ordi") { token { id } } etchings(limit: 1) { total } }');
    const after = await rest(`${stack.gatewayUrl}/readyz`);
    expect(after.status).toBe(200);
    expect((after.body as { services: object }).services).toMatchObject({ unisat: sourceService('200'), ord: sourceService('200') });
    // UniSat's from its BRC-20 index's own route (asked beside the lookup); ord's comes with its pages.
    expect((after.body as { sources: object }).sources).toEqual({
      unisat: { serves: ['brc20', 'transfers'], height: BRC20_HEIGHT, heightAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      ord: { serves: ['etchings'], height: ORD_HEIGHT, heightAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    });
    expectNoSecrets(JSON.stringify(after.body), [UNISAT_KEY, ORD_AUTH]);
  });

  test('/metrics counts each source operation by source, operation and outcome; no key in any label', async () => {
    await stack.graphql('{ brc20Token(ticker: "pepe") { token { id } } transfers(block: 775700) { total } }');
    stack.sample.inject({ path: '/v1/indexer/brc20/sats/info', status: 500, body: 'down', times: 1 });
    await stack.graphql('{ brc20Token(ticker: "sats") { token { id } } }');
    const text = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
    const series = text.split('\n').filter((line) => line.startsWith('satgate_source_operation_duration_seconds_count'));
    expect(series.map((line) => line.replace(/ \d+$/, '')).sort()).toEqual(
      [
        'satgate_source_operation_duration_seconds_count{source="ord",operation="etchings",outcome="ok"}',
        'satgate_source_operation_duration_seconds_count{source="unisat",operation="brc20",outcome="ok"}',
        'satgate_source_operation_duration_seconds_count{source="unisat",operation="brc20",outcome="status"}',
        'satgate_source_operation_duration_seconds_count{source="unisat",operation="transfers",outcome="ok"}',
      ].sort(),
    );
    expect(series).toContain('satgate_source_operation_duration_seconds_count{source="unisat",operation="brc20",outcome="status"} 1');
    expect(series).toContain('satgate_source_operation_duration_seconds_count{source="unisat",operation="transfers",outcome="ok"} 1');
    expectNoSecrets(text, [UNISAT_KEY, ORD_AUTH, Buffer.from(ORD_AUTH).toString('base64')]);
  });
});

describe('access log lines', () => {
  test('name the operation, count the upstream calls the request caused, and give its worst cache outcome', async () => {
    // Answers revalidate every time (TTL 0), a 404 stays fresh, and a failing upstream's answer may be served stale.
    const stack = await startStack({ CACHE_TTL_MS: '0', CACHE_NOT_FOUND_TTL_MS: '600000', STALE_IF_ERROR_MS: '600000' });
    try {
      // `holders` comes from each token's own route: one lookup per ticker.
      const pair =
        'query Pair { a: brc20Token(ticker: "ordi") { supply { holders } } b: brc20Token(ticker: "no-such-token") { supply { holders } } }';
      const withId = (id: string) => ({ 'x-request-id': id });
      await stack.graphql(pair, undefined, withId('first'));
      await stack.graphql(pair, undefined, withId('again'));
      stack.sample.inject({ path: '/ordinals/v1/brc-20/tokens/ordi', times: 1, status: 500 });
      await rest(`${stack.gatewayUrl}/ordinals/v1/brc-20/tokens/ordi`, { headers: withId('stale') });
      await stack.graphql(`{ bitcoinNode(path: "rest/chaininfo.json", apiKey: "${SAMPLE_PLATFORM_KEY}") }`, undefined, withId('uncached'));
      await rest(`${stack.gatewayUrl}/healthz`, { headers: withId('health') });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const lines = stack.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request');
      const line = (requestId: string) => {
        const { time, pid, ms, ...rest } = lines.find((l) => l.requestId === requestId) ?? {};
        return [typeof time, typeof pid, typeof ms, rest];
      };
      const common = (requestId: string, method: string, path: string) => ({
        level: 'info',
        app: 'satgate',
        msg: 'request',
        requestId,
        method,
        path,
        status: 200,
      });
      expect(['first', 'again', 'stale', 'uncached', 'health'].map(line)).toEqual([
        // ordi fetched, the unknown token fetched (404)
        ['string', 'number', 'number', { ...common('first', 'POST', '/graphql'), operationName: 'Pair', upstreamCalls: 2, cache: 'miss' }],
        // ordi confirmed by a 304, the 404 still fresh: no call for it
        [
          'string',
          'number',
          'number',
          { ...common('again', 'POST', '/graphql'), operationName: 'Pair', upstreamCalls: 1, cache: 'revalidated' },
        ],
        // the upstream answered 500: the stored answer was served
        ['string', 'number', 'number', { ...common('stale', 'GET', '/ordinals/v1/brc-20/tokens/ordi'), upstreamCalls: 1, cache: 'stale' }],
        // platform answers are never cached: no cache outcome
        ['string', 'number', 'number', { ...common('uncached', 'POST', '/graphql'), upstreamCalls: 1 }],
        ['string', 'number', 'number', { ...common('health', 'GET', '/healthz'), upstreamCalls: 0 }],
      ]);
      // JSON lines carry level names and ISO times, for machines.
      expect(lines[0]!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    } finally {
      await stack.close();
    }
  });

  test('LOG_FORMAT=pretty writes one human line per request', async () => {
    const stack = await startStack({ LOG_FORMAT: 'pretty' });
    try {
      await stack.graphql('query Status { status { status } }', undefined, { 'x-request-id': 'pretty-1' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      // ANSI colours only on a terminal; the line: time, level, pid, message, then the fields.
      const line = stack.logs.map((l) => l.replace(/\u001b\[[0-9;]*m/g, '')).find((l) => l.includes('pretty-1'));
      expect(line).toMatch(
        /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(\d+\): request \{"requestId":"pretty-1","method":"POST","path":"\/graphql","status":200,"ms":[\d.]+,"operationName":"Status","upstreamCalls":1,"cache":"miss"\}$/,
      );
    } finally {
      await stack.close();
    }
  });
});

/**
 * One request over node:http through `agent` (false: a connection of its own), a POST of `body`
 * when given: its status, Connection header and JSON body, and when its connection closed.
 */
function ask(url: string, agent: Agent | false, body?: string) {
  return new Promise<{ answer: { status: number; connection: string | undefined; body: unknown }; closed: Promise<void> }>(
    (resolve, reject) => {
      const req = httpRequest(url, { agent, method: body ? 'POST' : 'GET', headers: { 'content-type': 'application/json' } }, (res) => {
        const closed = new Promise<void>((done) => res.socket.once('close', () => done()));
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          resolve({
            answer: { status: res.statusCode ?? 0, connection: res.headers.connection, body: text ? (JSON.parse(text) as unknown) : text },
            closed,
          }),
        );
      });
      req.on('error', reject);
      req.end(body);
    },
  );
}

describe('graceful shutdown', () => {
  test('requests in flight finish; meanwhile /readyz is 503, health checks are served and new requests get 503 + Connection: close; then the port closes', async () => {
    const stack = await startStack({ SHUTDOWN_TIMEOUT_MS: '5000' });
    stack.sample.inject({ path: '/runes/v1/etchings', delayMs: 600 });
    const inFlight = stack.graphql('{ etchings(limit: 1) { total } }');
    const inFlightRest = rest(`${stack.gatewayUrl}/runes/etchings?limit=1`);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const stopped = stack.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // A fresh connection for each, as a load balancer's checks and new clients would open.
    const fresh = (path: string, body?: string) => ask(`${stack.gatewayUrl}${path}`, false, body).then(({ answer }) => answer);
    const during = await Promise.all([
      fresh('/readyz'),
      fresh('/healthz'),
      fresh('/graphql', JSON.stringify({ query: '{ status { status } }' })),
      fresh('/runes/v1/etchings?limit=1'),
    ]);
    const [graphql, restAnswer] = await Promise.all([inFlight, inFlightRest]);
    await stopped;
    const after = await new Promise<string>((resolve) => {
      const req = httpRequest(`${stack.gatewayUrl}/healthz`, { agent: false }, (res) => resolve(`answered ${res.statusCode}`));
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      req.end();
    });
    expect(during).toEqual([
      { status: 503, connection: 'close', body: { status: 'draining', services: expect.any(Object) } },
      { status: 200, connection: 'close', body: '' },
      {
        status: 503,
        connection: 'close',
        body: { errors: [{ message: 'The gateway is shutting down', extensions: { code: 'SHUTTING_DOWN' } }] },
      },
      {
        status: 503,
        connection: 'close',
        body: { statusCode: 503, error: 'Service Unavailable', message: 'The gateway is shutting down' },
      },
    ]);
    expect(graphql).toEqual({ status: 200, body: { data: { etchings: { total: expect.any(Number) } } } });
    expect(restAnswer.status).toBe(200);
    expect(after).toBe('ECONNREFUSED');
    expect(stack.logs.filter((line) => /shutting down|stopped/.test(line))).toHaveLength(2);
  });

  test('answers in flight when shutdown begins say Connection: close, and their keep-alive connections close after them', async () => {
    const stack = await startStack({ SHUTDOWN_TIMEOUT_MS: '5000' });
    const agent = new Agent({ keepAlive: true });
    const reusing = (path: string, body?: string) => ask(`${stack.gatewayUrl}${path}`, agent, body);
    try {
      const graphqlBody = JSON.stringify({ query: '{ etchings(limit: 1) { total } }' });
      // Before shutdown the same requests keep their connections open.
      const before = await Promise.all([reusing('/graphql', graphqlBody), reusing('/runes/v1/etchings?limit=1')]);
      expect(before.map(({ answer: { status, connection } }) => ({ status, connection }))).toEqual([
        { status: 200, connection: 'keep-alive' },
        { status: 200, connection: 'keep-alive' },
      ]);
      stack.sample.inject({ path: '/runes/v1/etchings', delayMs: 500 });
      const inFlight = Promise.all([reusing('/graphql', graphqlBody), reusing('/runes/v1/etchings?limit=1')]);
      await new Promise((resolve) => setTimeout(resolve, 150));
      const stopped = stack.close();
      const [graphql, restAnswer] = await inFlight;
      expect(graphql.answer).toEqual({ status: 200, connection: 'close', body: { data: { etchings: { total: expect.any(Number) } } } });
      expect(restAnswer.answer).toEqual({ status: 200, connection: 'close', body: before[1]!.answer.body });
      await Promise.all([graphql.closed, restAnswer.closed, stopped]);
    } finally {
      agent.destroy();
    }
  });
});

describe('graceful shutdown with SHUTDOWN_DELAY_MS', () => {
  test('first /readyz turns 503 while requests are still served, each closing its connection; then the drain', async () => {
    // Long enough that the requests below, sent once the first line is out, land inside it.
    const stack = await startStack({ SHUTDOWN_DELAY_MS: '5000', SHUTDOWN_TIMEOUT_MS: '5000' });
    const fresh = (path: string, body?: string) => ask(`${stack.gatewayUrl}${path}`, false, body).then(({ answer }) => answer);
    const query = JSON.stringify({ query: '{ etchings(limit: 1) { total } }' });
    const stopped = stack.close();
    await until(() => stack.logs.some((line) => line.includes('still serving for SHUTDOWN_DELAY_MS')), 'the delay to begin');
    const during = await Promise.all([fresh('/readyz'), fresh('/graphql', query), fresh('/runes/v1/etchings?limit=1')]);
    await stopped;
    expect(during.map(({ status, connection }) => ({ status, connection }))).toEqual([
      { status: 503, connection: 'close' },
      { status: 200, connection: 'close' },
      { status: 200, connection: 'close' },
    ]);
    expect(during[0]!.body).toEqual({ status: 'draining', services: expect.any(Object) });
    expect(during[1]!.body).toEqual({ data: { etchings: { total: expect.any(Number) } } });
    // Then the drain of the earlier tests: with nothing in flight, the port closes at once.
    expect(
      stack.logs.filter((line) => /shutting down|stopped/.test(line)).map((line) => (JSON.parse(line) as { msg: string }).msg),
    ).toEqual([
      'shutting down: /readyz is 503, still serving for SHUTDOWN_DELAY_MS',
      'shutting down: draining in-flight requests',
      'stopped',
    ]);
  });
});

describe('graceful shutdown over graphql-ws', () => {
  test('a query in flight gets the time an HTTP request gets; one still running is cut with SHUTTING_DOWN before the close; a new one is refused', async () => {
    const stack = await startStack({ SHUTDOWN_TIMEOUT_MS: '2500', UPSTREAM_TIMEOUT_MS: '20000' });
    try {
      // Longer than the second the sockets used to get, shorter than SHUTDOWN_TIMEOUT_MS.
      stack.sample.inject({ path: '/runes/v1/etchings', delayMs: 1500 });
      // Longer than SHUTDOWN_TIMEOUT_MS.
      stack.sample.inject({ path: '/ordinals/v1/brc-20/*', delayMs: 10_000 });
      const client = wsClient(stack.gatewayUrl, '203.0.113.7');
      const finishing = ws(client, '{ etchings(limit: 1) { total } }');
      const cut = ws(client, '{ brc20Token(ticker: "ordi") { token { ticker } } status { status } }');
      await until(() => stack.sample.requests.length >= 3, 'the upstream calls');
      const stopped = stack.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const late = ws(client, '{ status { status } }');
      await Promise.all([finishing.done, cut.done, late.done, stopped]);
      expect([finishing.results, finishing.completed]).toEqual([[{ data: { etchings: { total: expect.any(Number) } } }], true]);
      expect([cut.results, cut.completed]).toEqual([
        [
          {
            data: { brc20Token: null, status: { status: 'ready' } },
            errors: [
              {
                message: 'The gateway is shutting down',
                locations: [{ line: 1, column: 3 }],
                path: ['brc20Token'],
                extensions: { code: 'SHUTTING_DOWN' },
              },
            ],
          },
        ],
        true,
      ]);
      expect([late.results, late.failure]).toEqual([
        [],
        [{ message: 'The gateway is shutting down', extensions: { code: 'SHUTTING_DOWN' } }],
      ]);
    } finally {
      await disposeAll();
    }
  });
});

describe('READYZ_REQUIRE_UPSTREAM', () => {
  test("/readyz is 503 while a named service's breaker is open; other services do not count", async () => {
    const stack = await startStack({
      READYZ_REQUIRE_UPSTREAM: 'ordinals',
      BREAKER_THRESHOLD: '1',
      BREAKER_COOLDOWN_MS: '60000',
      TRUST_PROXY: 'on',
    });
    try {
      // Two clients fail: the service is down for everyone (one client's failures would refuse it alone).
      const twoClients = async (query: string) => {
        for (const address of ['203.0.113.1', '203.0.113.2']) await stack.graphql(query, undefined, { 'x-forwarded-for': address });
      };
      const ready = async () => {
        const answer = await rest(`${stack.gatewayUrl}/readyz`);
        const { services, ...others } = answer.body as { services: Record<string, { breaker: string }> };
        return [answer.status, others, Object.fromEntries(Object.entries(services).map(([name, s]) => [name, s.breaker]))];
      };
      const closed = { metadata: 'closed', ordinals: 'closed', runes: 'closed', platform: 'per-tenant' };
      expect(await ready()).toEqual([200, { status: 'ready' }, closed]);
      stack.sample.inject({ path: '/metadata/v1', status: 503 });
      await twoClients('{ status { status } }');
      expect(await ready()).toEqual([200, { status: 'ready' }, { ...closed, metadata: 'open' }]);
      stack.sample.inject({ path: '/ordinals/*', status: 503 });
      await twoClients('{ brc20Token(ticker: "ordi") { token { ticker } } }');
      expect(await ready()).toEqual([
        503,
        { status: 'unready', unavailable: ['ordinals'] },
        { ...closed, metadata: 'open', ordinals: 'open' },
      ]);
    } finally {
      await stack.close();
    }
  });

  test('/readyz is 200 again once the breaker has cooled down, without a request to probe it', async () => {
    const stack = await startStack({
      READYZ_REQUIRE_UPSTREAM: 'ordinals',
      BREAKER_THRESHOLD: '1',
      // Long enough that /readyz is asked before it ends, however busy the machine.
      BREAKER_COOLDOWN_MS: '2000',
      TRUST_PROXY: 'on',
    });
    try {
      const ready = async () => {
        const answer = await rest(`${stack.gatewayUrl}/readyz`);
        const { services, ...others } = answer.body as { services: Record<string, { breaker: string }> };
        return [answer.status, others, services.ordinals?.breaker];
      };
      // Down for two clients: for everyone.
      stack.sample.inject({ path: '/ordinals/*', status: 503, times: 2 });
      for (const address of ['203.0.113.1', '203.0.113.2']) {
        await stack.graphql('{ brc20Token(ticker: "ordi") { token { ticker } } }', undefined, { 'x-forwarded-for': address });
      }
      expect(await ready()).toEqual([503, { status: 'unready', unavailable: ['ordinals'] }, 'open']);
      // Out of the load balancer, this replica gets no request: its readiness alone lets one in.
      let answer = await ready();
      while (answer[0] !== 200) {
        await sleep(20);
        answer = await ready();
      }
      expect(answer).toEqual([200, { status: 'ready' }, 'half-open']);
      // That request's call is the probe: the service is back.
      await stack.graphql('{ brc20Token(ticker: "ordi") { token { ticker } } }');
      expect(await ready()).toEqual([200, { status: 'ready' }, 'closed']);
    } finally {
      await stack.close();
    }
  });
});

describe("READYZ_REQUIRE_UPSTREAM and one client's failures", () => {
  test('a breaker opened by one client alone leaves /readyz 200; a second client failing too makes it 503', async () => {
    const stack = await startStack({
      READYZ_REQUIRE_UPSTREAM: 'runes',
      BREAKER_THRESHOLD: '3',
      BREAKER_COOLDOWN_MS: '60000',
      TRUST_PROXY: 'on',
    });
    try {
      const ready = async () => {
        const answer = await rest(`${stack.gatewayUrl}/readyz`);
        const { services, ...others } = answer.body as { services: Record<string, { breaker: string }> };
        return [answer.status, others, services.runes?.breaker];
      };
      const page = (address: string) =>
        stack.graphql('{ etchings(offset: 7777, limit: 1) { offset } }', undefined, { 'x-forwarded-for': address });
      // The upstream's proxy times out on one deep offset only, which a lone client asks for.
      stack.sample.inject({ path: '/runes/v1/etchings', query: /offset=7777/, status: 504 });
      for (let i = 0; i < 3; i++) await page('203.0.113.9');
      // Every other client's request is still sent: the replica serves them, and must stay in rotation.
      expect(await ready()).toEqual([200, { status: 'ready' }, 'half-open']);
      // Another client's request fails too: the service is down for everyone.
      await page('198.51.100.7');
      expect(await ready()).toEqual([503, { status: 'unready', unavailable: ['runes'] }, 'open']);
    } finally {
      await stack.close();
    }
  });
});

describe('READYZ_REQUIRE_UPSTREAM naming a data source', () => {
  test("/readyz is 503 while UniSat's breaker is open, and names it", async () => {
    const stack = await startStack(
      (sample) => ({
        BRC20_SOURCE: 'unisat',
        UNISAT_API_URL: sample.baseUrl,
        UNISAT_RATE_LIMIT_PER_SECOND: '1000',
        READYZ_REQUIRE_UPSTREAM: 'unisat',
        BREAKER_THRESHOLD: '1',
        BREAKER_COOLDOWN_MS: '60000',
      }),
      { sources: { unisat: {} } },
    );
    try {
      const ready = async () => {
        const answer = await rest(`${stack.gatewayUrl}/readyz`);
        const {
          services,
          sources: _sources,
          ...others
        } = answer.body as { services: Record<string, { breaker: string }>; sources: unknown };
        return [answer.status, others, services.unisat?.breaker];
      };
      expect(await ready()).toEqual([200, { status: 'ready' }, 'closed']);
      stack.sample.inject({ path: '/v1/indexer/*', status: 503 });
      await stack.graphql('{ brc20Token(ticker: "ordi") { token { ticker } } }');
      expect(await ready()).toEqual([503, { status: 'unready', unavailable: ['unisat'] }, 'open']);
    } finally {
      await stack.close();
    }
  });
});

/** Whether the gateway counted one cancelled upstream call to the etchings route, within `waitMs`. */
async function etchingsCallAborted(stack: Stack, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const metrics = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
    if (
      /^satgate_upstream_request_duration_seconds_count\{service="runes",route="\/runes\/v1\/etchings",outcome="aborted"\} 1$/m.test(
        metrics,
      )
    )
      return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a GraphQL client that leaves', () => {
  test('cancels its upstream call (counted as aborted), and the gateway goes on serving', async () => {
    const stack = await startStack({ UPSTREAM_TIMEOUT_MS: '30000' });
    try {
      stack.sample.inject({ path: '/runes/v1/etchings', hang: true });
      const client = new AbortController();
      const asked = fetch(`${stack.gatewayUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query: '{ etchings { total } }' }),
        signal: client.signal,
      }).catch(() => 'left');
      while (!stack.upstreamCalls().some((call) => call.startsWith('GET /runes/v1/etchings'))) await new Promise((r) => setTimeout(r, 10));
      expect(await etchingsCallAborted(stack, 0)).toBe(false);
      client.abort();
      expect(await asked).toBe('left');
      // The hung call is cancelled once the gateway sees the client go (long before UPSTREAM_TIMEOUT_MS).
      expect(await etchingsCallAborted(stack, 2000)).toBe(true);
      // Logged as the metrics count it: 499, no answer sent.
      const logged = stack.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.path === '/graphql');
      expect(logged.map(({ method, status, upstreamCalls }) => ({ method, status, upstreamCalls }))).toEqual([
        { method: 'POST', status: 499, upstreamCalls: 1 },
      ]);
      expect((await stack.graphql('{ status { status } }')).body).toEqual({ data: { status: { status: 'ready' } } });
    } finally {
      await stack.close();
    }
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
          errors: [{ message: 'The request took longer than 1000 ms', extensions: { code: 'REQUEST_TIMEOUT', limit: 1000 } }],
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

  test("a REST request past the deadline gets the upstream's 504 and its upstream call is cancelled", async () => {
    const stack = await startStack({ REQUEST_TIMEOUT_MS: '1000', UPSTREAM_TIMEOUT_MS: '8000' });
    try {
      stack.sample.inject({ path: '/runes/v1/etchings', hang: true });
      const started = Date.now();
      const answer = await rest(`${stack.gatewayUrl}/runes/v1/etchings`);
      expect(Date.now() - started).toBeLessThan(3000);
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 504,
        body: { statusCode: 504, error: 'Gateway Timeout', message: 'The request took longer than 1000 ms' },
      });
      expect(await etchingsCallAborted(stack, 2000)).toBe(true);
    } finally {
      await stack.close();
    }
  });
});
