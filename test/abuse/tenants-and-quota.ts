/**
 * Abuse classes 2, 3, 4 and 11 (issue 8): one platform tenant cannot lock out or slow another; one
 * request cannot hold unbounded upstream bytes; no upstream answer can block a service for longer
 * than MAX_UPSTREAM_WAIT_MS (in memory and in Redis); one client cannot spend everybody's quota.
 * Real gateway over HTTP, the sample upstream's request log as the truth about upstream calls.
 */
import type { ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { sampleData } from '../../src/sample/data.js';
import { SAMPLE_PLATFORM_KEY } from '../../src/sample/server.js';
import { signalKeys, type SignalKeys } from '../../src/upstream/shared-state.js';
import { freePort, rest, startStack, type GraphQLBody, type Stack } from '../harness.js';
import { startRedis, stopRedis } from '../redis.js';
import { expectNoSecrets, fieldError } from '../support.js';

const A = SAMPLE_PLATFORM_KEY;
const B = 'b7e1c9d04f2a4e6b8c1d3f5a7e9b0c2d';
const CHAININFO = 'rest/chaininfo.json';
const nodeQuery = (key: string, path = CHAININFO) => `{ bitcoinNode(path: "${path}", apiKey: "${key}") }`;
const nodePath = (key: string, path = CHAININFO) => `/v1/ext/${key}/bitcoin-node/${path}`;
const NODE_DATA = { bitcoinNode: sampleData.bitcoinNode.chainInfo };
/** Keys one client may make up: the platform accepts them, their devnets hang. */
const MORE_KEYS = ['c1', 'c2', 'c3', 'c4'].map((prefix) => prefix.repeat(16));
const from = (address: string) => ({ 'x-forwarded-for': address });
const ordi = sampleData.brc20Tokens.find((t) => t.token.ticker === 'ordi')!;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function metricLines(stack: Stack, prefix: string): Promise<string[]> {
  const text = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
  return text.split('\n').filter((line) => line.startsWith(prefix));
}

describe('abuse: one platform tenant cannot lock out or slow another', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(
      {
        BREAKER_THRESHOLD: '3',
        BREAKER_COOLDOWN_MS: '60000',
        UPSTREAM_MAX_CONNECTIONS: '4',
        // Long enough that B is answered before A's calls run out of it, even on a loaded machine.
        UPSTREAM_TIMEOUT_MS: '6000',
        TRUST_PROXY: 'on',
      },
      { platformApiKeys: [A, B, ...MORE_KEYS] },
    );
  });
  afterAll(() => stack.close());
  afterEach(() => stack.sample.reset());

  test.each([
    ['answers 503', { status: 503, body: 'devnet down' }, 'UPSTREAM_ERROR'],
    ['resets the connection', { reset: true }, 'UPSTREAM_UNAVAILABLE'],
  ])("tenant A's devnet %s: A's breaker opens, B is served, /readyz and metrics count tenants", async (_name, fault, code) => {
    // Its own stack (and key) per variant: a breaker opened by the previous one stays open.
    const a = `${A.slice(0, -4)}${code.length}aaa`;
    const local = await startStack({ BREAKER_THRESHOLD: '3', BREAKER_COOLDOWN_MS: '60000' }, { platformApiKeys: [a, B] });
    try {
      local.sample.inject({ path: `/v1/ext/${a}/*`, ...fault });
      for (let i = 0; i < 3; i++) {
        const failed = await local.graphql(nodeQuery(a));
        expect(failed.body.errors?.map((e) => e.extensions?.code)).toEqual([code]);
      }
      local.sample.clearLog();
      // A fails fast, without calling; B, asked in the same request, is served with its own call.
      const both = await local.graphql(
        `{ a: bitcoinNode(path: "${CHAININFO}", apiKey: "${a}") b: bitcoinNode(path: "${CHAININFO}", apiKey: "${B}") }`,
      );
      expect(both.body).toEqual({
        data: { a: null, b: sampleData.bitcoinNode.chainInfo },
        errors: [
          fieldError(['a'], {
            code: 'UPSTREAM_UNAVAILABLE',
            service: 'platform',
            retryAfter: expect.toSatisfy((s: number) => s > 50 && s <= 60),
          }),
        ],
      });
      const restA = await rest(`${local.gatewayUrl}${nodePath(a)}`);
      const restB = await rest(`${local.gatewayUrl}${nodePath(B)}`);
      expect([restA.status, restB.status, restB.body]).toEqual([502, 200, sampleData.bitcoinNode.chainInfo]);
      expect(local.upstreamCalls()).toEqual([`GET ${nodePath(B)}`, `GET ${nodePath(B)}`]);

      const ready = await rest(`${local.gatewayUrl}/readyz`);
      expect((ready.body as { services: Record<string, unknown> }).services.platform).toEqual({
        breaker: 'per-tenant',
        tenants: 2,
        openBreakers: 1,
        quotaBlockedTenants: 0,
        lastOutcome: '200',
        lastOutcomeAt: expect.any(String),
      });
      expect(await metricLines(local, 'satgate_upstream_tenants')).toEqual([
        'satgate_upstream_tenants{service="platform",state="known"} 2',
        'satgate_upstream_tenants{service="platform",state="breaker_open"} 1',
        'satgate_upstream_tenants{service="platform",state="quota_blocked"} 0',
      ]);
      // The platform has no service-wide breaker to report: no gauge pretends one tenant's is it.
      expect(await metricLines(local, 'satgate_upstream_breaker_state{service="platform"}')).toEqual([]);
      expectNoSecrets([...local.logs, JSON.stringify(ready.body)].join('\n'), [a, B]);
    } finally {
      await local.close();
    }
  });

  test.each([
    ['a 429 with Retry-After', { status: 429, headers: { 'retry-after': '30' }, body: { message: 'slow down' } }, 30],
    [
      'ratelimit-remaining 0 with a reset',
      { status: 200, headers: { 'ratelimit-remaining': '0', 'ratelimit-reset': '40' }, body: { chain: 'regtest' } },
      40,
    ],
  ])("A's spent quota (%s) blocks A only", async (_name, fault, seconds) => {
    const a = `${A.slice(0, -4)}${seconds}${seconds}`;
    const local = await startStack({}, { platformApiKeys: [a, B] });
    try {
      local.sample.inject({ path: `/v1/ext/${a}/*`, times: 1, ...fault });
      await local.graphql(nodeQuery(a));
      local.sample.clearLog();
      const blocked = await local.graphql(nodeQuery(a, 'rest/mempool/info.json'));
      expect(blocked.body).toEqual({
        data: { bitcoinNode: null },
        errors: [
          fieldError(['bitcoinNode'], {
            code: 'RATE_LIMITED',
            service: 'platform',
            httpStatus: 429,
            retryAfter: expect.toSatisfy((s: number) => s > seconds - 5 && s <= seconds),
          }),
        ],
      });
      expect(await local.graphql(nodeQuery(B))).toEqual({ status: 200, body: { data: NODE_DATA } });
      expect(local.upstreamCalls()).toEqual([`GET ${nodePath(B)}`]);
      const ready = await rest(`${local.gatewayUrl}/readyz`);
      expect((ready.body as { services: Record<string, unknown> }).services.platform).toMatchObject({
        breaker: 'per-tenant',
        tenants: 2,
        openBreakers: 0,
        quotaBlockedTenants: 1,
      });
    } finally {
      await local.close();
    }
  });

  test("A's devnet hangs: A holds at most a quarter of the pool, B is answered while A still waits", async () => {
    stack.sample.inject({ path: `/v1/ext/${A}/*`, hang: true });
    let settled = 0;
    const hung = Array.from({ length: 6 }, (_, i) =>
      stack.graphql(nodeQuery(A, `${CHAININFO}?n=${i}`), undefined, from('203.0.113.4')).finally(() => settled++),
    );
    // A's first request is on the wire; the others wait for A's share, not for the pool.
    const callsOfA = () => stack.upstreamCalls().filter((call) => call.startsWith(`GET /v1/ext/${A}/`));
    while (callsOfA().length === 0) await pause(10);
    const b = await stack.graphql(nodeQuery(B), undefined, from('198.51.100.4'));
    // B was answered while all six of A's requests still waited, only one of them at A's devnet.
    expect([b, settled, callsOfA().length]).toEqual([{ status: 200, body: { data: NODE_DATA } }, 0, 1]);
    const answers = await Promise.all(hung);
    expect(new Set(answers.map((a) => JSON.stringify(a.body.errors?.map((e) => e.extensions?.code))))).toEqual(
      new Set([JSON.stringify(['UPSTREAM_TIMEOUT'])]),
    );
  });

  test('one client asking with many keys whose devnets hang holds a quarter of the pool, not a quarter per key', async () => {
    stack.sample.clearLog();
    for (const key of MORE_KEYS) stack.sample.inject({ path: `/v1/ext/${key}/*`, hang: true });
    const attacker = from('203.0.113.5');
    let settled = 0;
    const hung = MORE_KEYS.map((key) => stack.graphql(nodeQuery(key), undefined, attacker).finally(() => settled++));
    // These keys' calls only: the case before's waiting calls, granted a slot at their deadline,
    // may still reach the upstream after this case cleared the log, on a loaded machine.
    const callsOfHung = () => stack.upstreamCalls().filter((call) => MORE_KEYS.some((key) => call.startsWith(`GET /v1/ext/${key}/`)));
    while (callsOfHung().length === 0) await pause(10);
    // Four keys, one connection of the pool of four: B's tenant, asked by another client, is answered at once.
    const b = await stack.graphql(nodeQuery(B), undefined, from('198.51.100.5'));
    expect([b, settled, callsOfHung().length]).toEqual([{ status: 200, body: { data: NODE_DATA } }, 0, 1]);
    const answers = await Promise.all(hung);
    expect(answers.map((a) => a.body.errors?.map((e) => e.extensions?.code))).toEqual(MORE_KEYS.map(() => ['UPSTREAM_TIMEOUT']));
  });
});

describe('abuse: a wait learnt from an upstream is capped (MAX_UPSTREAM_WAIT_MS)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ UPSTREAM_RETRIES: '2' });
  });
  afterAll(() => stack.close());
  afterEach(() => stack.sample.reset());

  const TEN_YEARS = String(10 * 365 * 86_400);
  const YEAR_2100 = 'Fri, 01 Jan 2100 00:00:00 GMT';

  test.each([
    ['Retry-After of ten years', '/ordinals/*', '{ brc20Token(ticker: "ordi") { token { ticker } } }', 'brc20Token', TEN_YEARS],
    ['Retry-After as an HTTP date in 2100', '/metadata/*', '{ status { status } }', 'status', YEAR_2100],
  ])('%s: clients are told 900 s at most, and the service is blocked that long, not longer', async (_n, path, query, field, value) => {
    stack.sample.inject({ path, times: 1, status: 429, headers: { 'retry-after': value }, body: {} });
    const limited = await stack.graphql(query);
    const service = path.slice(1, -2);
    // Not retried after its Retry-After either: 900 s is far past the deadline.
    expect(stack.upstreamCalls()).toHaveLength(1);
    const error = { code: 'RATE_LIMITED', service, httpStatus: 429, retryAfter: 900 };
    expect(limited.body.errors).toEqual([fieldError([field], error)]);
    stack.sample.clearLog();
    const blocked = await stack.graphql(query);
    expect(blocked.body.errors).toEqual([
      fieldError([field], { ...error, retryAfter: expect.toSatisfy((s: number) => s > 890 && s <= 900) }),
    ]);
    expect(stack.upstreamCalls()).toEqual([]);
  });

  test('ratelimit-reset far in the future with nothing remaining: blocked for 900 s at most', async () => {
    stack.sample.inject({
      path: '/runes/*',
      times: 1,
      status: 200,
      headers: { 'ratelimit-remaining': '0', 'ratelimit-reset': String(Date.parse(YEAR_2100) / 1000) },
      body: { limit: 1, offset: 0, total: 0, results: [] },
    });
    expect((await stack.graphql('{ etchings(limit: 1) { total } }')).body).toEqual({ data: { etchings: { total: 0 } } });
    const restAnswer = await fetch(`${stack.gatewayUrl}/runes/v1/etchings?limit=2`);
    const retryAfter = Number(restAnswer.headers.get('retry-after'));
    expect([restAnswer.status, await restAnswer.json(), retryAfter > 890 && retryAfter <= 900]).toEqual([
      429,
      { statusCode: 429, error: 'Too Many Requests', message: 'Rate limit exceeded: retry later' },
      true,
    ]);
    const ready = await rest(`${stack.gatewayUrl}/readyz`);
    expect((ready.body as { services: { runes: { quotaWaitSeconds: number } } }).services.runes.quotaWaitSeconds).toBeLessThanOrEqual(900);
  });

  test("a mirrored 429 (REST, platform) carries the capped Retry-After, not the upstream's", async () => {
    stack.sample.inject({
      path: `/v1/ext/${A}/*`,
      times: 1,
      status: 429,
      headers: { 'retry-after': TEN_YEARS },
      body: { message: 'slow' },
    });
    const answer = await fetch(`${stack.gatewayUrl}${nodePath(A)}`);
    expect([answer.status, answer.headers.get('retry-after'), await answer.json()]).toEqual([429, '900', { message: 'slow' }]);
  });

  test('MAX_UPSTREAM_WAIT_MS=1000: a ten-year Retry-After blocks for one second, then calls go again', async () => {
    const short = await startStack({ MAX_UPSTREAM_WAIT_MS: '1000' });
    try {
      short.sample.inject({ path: '/ordinals/*', times: 1, status: 429, headers: { 'retry-after': TEN_YEARS }, body: {} });
      const limited = await short.graphql('{ brc20Token(ticker: "ordi") { token { ticker } } }');
      expect(limited.body.errors).toEqual([
        fieldError(['brc20Token'], { code: 'RATE_LIMITED', service: 'ordinals', httpStatus: 429, retryAfter: 1 }),
      ]);
      await pause(1100);
      short.sample.clearLog();
      expect((await short.graphql('{ brc20Token(ticker: "ordi") { token { ticker } } }')).body).toEqual({
        data: { brc20Token: { token: { ticker: 'ordi' } } },
      });
      expect(short.upstreamCalls()).toEqual(['GET /ordinals/v1/brc-20/tokens?ticker=ordi&offset=0&limit=60']);
    } finally {
      await short.close();
    }
  });
});

describe("abuse: one client's slow inputs open no breaker on the other replicas (REDIS_URL)", () => {
  let redis: ChildProcess;
  let a: Stack;
  let b: Stack;
  beforeAll(async () => {
    const port = await freePort();
    redis = await startRedis(port);
    const env = {
      REDIS_URL: `redis://127.0.0.1:${port}`,
      TRUST_PROXY: '1',
      UPSTREAM_TIMEOUT_MS: '300',
      BREAKER_THRESHOLD: '3',
      BREAKER_COOLDOWN_MS: '60000',
    };
    // Two replicas of one deployment: one upstream.
    b = await startStack(env);
    a = await startStack(env, { upstream: b.sample });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    if (redis) await stopRedis(redis);
  });

  const breakers = async (stack: Stack) => {
    const { services } = (await rest(`${stack.gatewayUrl}/readyz`)).body as { services: Record<string, { breaker: string }> };
    return { ordinals: services.ordinals!.breaker, runes: services.runes!.breaker };
  };
  const timedOut = (field: string, service: string) => ({
    data: { [field]: null },
    errors: [fieldError([field], { code: 'UPSTREAM_TIMEOUT', service })],
  });

  test('alone on a replica, a client opens its breaker there only; two clients failing open it on every replica', async () => {
    // Offset 777 takes the runes upstream 10 s, far past the deadline; one client asks it on b alone.
    b.sample.inject({ path: '/runes/v1/etchings', query: /offset=777/, delayMs: 10_000 });
    for (let i = 0; i < 3; i++) {
      const slow = await b.graphql('{ etchings(offset: 777, limit: 1) { total } }', undefined, from('203.0.113.66'));
      expect(slow.body).toEqual(timedOut('etchings', 'runes'));
    }
    // Two of the share's ticks (500 ms): a has not followed.
    await pause(1200);
    // Open on b for that client only: to every other, half-open.
    expect([await breakers(b), await breakers(a)]).toEqual([
      { ordinals: 'closed', runes: 'half-open' },
      { ordinals: 'closed', runes: 'closed' },
    ]);
    expect((await a.graphql('{ etchings(limit: 1) { limit } }', undefined, from('198.51.100.66'))).body).toEqual({
      data: { etchings: { limit: 1 } },
    });

    // The ordinals service down for two clients of b (three tickers: three calls, none joined): the
    // service, not an input. a follows.
    b.sample.inject({ path: '/ordinals/*', delayMs: 10_000 });
    const failed = await Promise.all(
      [
        ['ordi', '203.0.113.66'],
        ['pepe', '198.51.100.67'],
        ['sats', '203.0.113.66'],
      ].map(([ticker, address]) => b.graphql(`{ brc20Token(ticker: "${ticker}") { token { ticker } } }`, undefined, from(address!))),
    );
    // (Which of them timed out and which found the breaker open depends on how their calls interleave.)
    expect(failed.map((answer) => answer.body.data)).toEqual(Array.from({ length: 3 }, () => ({ brc20Token: null })));
    expect(await breakers(b)).toEqual({ ordinals: 'open', runes: 'half-open' });
    let followed = await breakers(a);
    for (let i = 0; i < 20 && followed.ordinals !== 'open'; i++) {
      await pause(100);
      followed = await breakers(a);
    }
    expect(followed).toEqual({ ordinals: 'open', runes: 'closed' });
  });
});

describe('abuse: a replica of another upstream opens no breaker here (REDIS_URL)', () => {
  let redis: ChildProcess;
  let staging: Stack;
  let production: Stack;
  beforeAll(async () => {
    const port = await freePort();
    redis = await startRedis(port);
    const env = { REDIS_URL: `redis://127.0.0.1:${port}`, TRUST_PROXY: '1', UPSTREAM_TIMEOUT_MS: '300', BREAKER_THRESHOLD: '3' };
    // Each stack has its own sample upstream: two deployments sharing one Redis.
    [staging, production] = await Promise.all([startStack(env), startStack(env)]);
  });
  afterAll(async () => {
    await Promise.all([staging?.close(), production?.close()]);
    if (redis) await stopRedis(redis);
  });

  test("staging's ordinals down for its clients leaves production's breaker closed", async () => {
    // Far past the 300 ms deadline: a stalled machine cannot see the answer arrive in time.
    staging.sample.inject({ path: '/ordinals/*', delayMs: 10_000 });
    await Promise.all(
      ['ordi', 'pepe', 'sats'].map((ticker, i) =>
        staging.graphql(`{ brc20Token(ticker: "${ticker}") { token { ticker } } }`, undefined, from(`203.0.113.${70 + (i % 2)}`)),
      ),
    );
    const states = async (stack: Stack) =>
      ((await rest(`${stack.gatewayUrl}/readyz`)).body as { services: Record<string, { breaker: string }> }).services.ordinals!.breaker;
    expect(await states(staging)).toBe('open');
    // Two of the shared state's ticks (500 ms).
    await pause(1200);
    expect(await states(production)).toBe('closed');
    expect((await production.graphql('{ brc20Token(ticker: "ordi") { token { ticker } } }')).body).toEqual({
      data: { brc20Token: { token: { ticker: 'ordi' } } },
    });
  });
});

describe('abuse: a wait shared through Redis is capped too', () => {
  let redis: ChildProcess;
  let client: Redis;
  let stack: Stack;
  let keys: Record<'ordinals' | 'runes' | 'metadata', SignalKeys>;
  beforeAll(async () => {
    const port = await freePort();
    redis = await startRedis(port);
    client = new Redis({ port, host: '127.0.0.1' });
    stack = await startStack({ REDIS_URL: `redis://127.0.0.1:${port}`, BREAKER_COOLDOWN_MS: '20000' });
    const { config } = stack.gateway;
    keys = {
      ordinals: signalKeys('ordinals', config.ordinalsUrl, config.hiroApiKey),
      runes: signalKeys('runes', config.runesUrl, config.hiroApiKey),
      metadata: signalKeys('metadata', config.metadataUrl, config.hiroApiKey),
    };
    // A block an older gateway (or anyone with access to Redis) left: ten years, for runes.
    const tenYears = Date.now() + 10 * 365 * 86_400_000;
    await client.set(keys.runes.quota, String(tenYears), 'PX', 10 * 365 * 86_400_000);
    await client.set(keys.metadata.breaker, String(tenYears), 'PX', 10 * 365 * 86_400_000);
  });
  afterAll(async () => {
    await stack?.close();
    client?.disconnect();
    if (redis) await stopRedis(redis);
  });

  test('a ten-year Retry-After is stored with a 900 s TTL, and its value is at most 900 s away', async () => {
    stack.sample.inject({ path: '/ordinals/*', times: 1, status: 429, headers: { 'retry-after': String(10 * 365 * 86_400) }, body: {} });
    const limited = await stack.graphql('{ brc20Token(ticker: "ordi") { token { ticker } } }');
    expect(limited.body.errors?.map((e) => e.extensions)).toEqual([
      { code: 'RATE_LIMITED', service: 'ordinals', httpStatus: 429, retryAfter: 900 },
    ]);
    let ttl = -2;
    for (let i = 0; i < 50 && ttl < 0; i++) {
      ttl = await client.pttl(keys.ordinals.quota);
      if (ttl < 0) await pause(50);
    }
    const value = Number(await client.get(keys.ordinals.quota));
    expect([ttl > 0 && ttl <= 900_000, value - Date.now() <= 900_000]).toEqual([true, true]);
  });

  test('values read back from Redis are cut: the quota to 900 s, the breaker to one cooldown, and Redis is corrected', async () => {
    // The poll (every 500 ms) applies what it reads, cut to the caps, then publishes the cut value.
    let ttl = Infinity;
    for (let i = 0; i < 60 && ttl > 900_000; i++) {
      await pause(100);
      ttl = await client.pttl(keys.runes.quota);
    }
    expect(ttl).toBeLessThanOrEqual(900_000);
    expect(Number(await client.get(keys.runes.quota)) - Date.now()).toBeLessThanOrEqual(900_000);
    stack.sample.clearLog();
    const ready = (await rest(`${stack.gatewayUrl}/readyz`)).body as {
      services: Record<string, { breaker: string; quotaWaitSeconds: number }>;
    };
    expect(ready.services.runes!.quotaWaitSeconds).toBeLessThanOrEqual(900);
    const runes = await stack.graphql('{ etchings(limit: 1) { total } }');
    expect(runes.body.errors?.map((e) => [e.extensions?.code, (e.extensions?.retryAfter as number) <= 900])).toEqual([
      ['RATE_LIMITED', true],
    ]);
    const metadata = await stack.graphql('{ status { status } }');
    expect(metadata.body.errors?.map((e) => [e.extensions?.code, (e.extensions?.retryAfter as number) <= 20])).toEqual([
      ['UPSTREAM_UNAVAILABLE', true],
    ]);
    expect(stack.upstreamCalls()).toEqual([]);
  });
});

describe('abuse: one request cannot hold unbounded upstream bytes (MAX_RESPONSE_BYTES_PER_REQUEST)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(
      // One lookup at a time, so which field meets the full budget is the document's order.
      { MAX_RESPONSE_BYTES_PER_REQUEST: '1024', MAX_CONCURRENT_UPSTREAM_CALLS_PER_REQUEST: '1', CACHE_TTL_MS: '60000' },
    );
  });
  afterAll(() => stack.close());
  afterEach(() => stack.sample.reset());

  /** An answer of `bytes` bytes: `{"blob":"xxx…"}`. */
  const blob = (bytes: number) => ({ blob: 'x'.repeat(bytes - 11) });

  test('30 aliases of one bitcoinNode answer cost one upstream call, but each copy in the response counts against the budget', async () => {
    stack.sample.inject({ path: nodePath(A, 'rest/big.json'), status: 200, body: blob(300) });
    const aliases = Array.from({ length: 30 }, (_, i) => `n${i}: bitcoinNode(path: "rest/big.json", apiKey: "${A}")`);
    const answer = await stack.graphql(`{ ${aliases.join(' ')} }`);
    // 3 × 300 bytes fit in 1024; the response would repeat the answer 30 times, so the rest fail.
    const over = { code: 'RESPONSE_BUDGET_EXCEEDED', service: 'platform', limit: 1024 };
    expect(answer.body).toEqual({
      data: Object.fromEntries(aliases.map((_, i) => [`n${i}`, i < 3 ? blob(300) : null])),
      errors: aliases.slice(3).map((_, i) => fieldError([`n${i + 3}`], over)),
    });
    expect(stack.upstreamCalls()).toEqual([`GET ${nodePath(A, 'rest/big.json')}`]);
  });

  test('distinct answers past the budget fail with RESPONSE_BUDGET_EXCEEDED; earlier fields keep their data', async () => {
    for (const name of ['a', 'b', 'c', 'd']) stack.sample.inject({ path: nodePath(A, `rest/${name}.json`), status: 200, body: blob(400) });
    const answer = await stack.graphql(
      `{ ${['a', 'b', 'c', 'd'].map((name) => `${name}: bitcoinNode(path: "rest/${name}.json", apiKey: "${A}")`).join(' ')} }`,
    );
    const over = { code: 'RESPONSE_BUDGET_EXCEEDED', service: 'platform', limit: 1024 };
    expect(answer.body).toEqual({
      data: { a: blob(400), b: blob(400), c: null, d: null },
      errors: [fieldError(['c'], over), fieldError(['d'], over)],
    });
    expectNoSecrets(JSON.stringify(answer.body), [A]);
  });

  test('cached answers count too: the same request over the cache fails the same way, without upstream calls', async () => {
    const query = `{ ordi: brc20Token(ticker: "ordi") { supply { holders } } pepe: brc20Token(ticker: "pepe") { supply { holders } } }`;
    const expected = {
      data: { ordi: { supply: { holders: ordi.supply.holders } }, pepe: null },
      errors: [fieldError(['pepe'], { code: 'RESPONSE_BUDGET_EXCEEDED', service: 'ordinals', limit: 1024 })],
    };
    expect((await stack.graphql(query)).body).toEqual(expected);
    stack.sample.clearLog();
    expect((await stack.graphql(query)).body).toEqual(expected);
    expect(stack.upstreamCalls()).toEqual([]);
  });
});

/** A GraphQL POST from a chosen local address (all of 127/8 is loopback on Linux). */
function graphqlFrom(
  localAddress: string,
  gatewayUrl: string,
  query: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: GraphQLBody }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify({ query });
    const req = httpRequest(
      `${gatewayUrl}/graphql`,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) as GraphQLBody }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe("abuse: one client cannot spend everybody's upstream quota (CLIENT_UPSTREAM_CALLS_PER_MINUTE)", () => {
  // Holders asked: one detail lookup (one upstream call) per ticker.
  const token = (ticker: string) => `{ brc20Token(ticker: "${ticker}") { token { ticker } supply { holders } } }`;
  const tokens = sampleData.brc20Tokens.filter((t) => /^[a-z0-9]+$/.test(t.token.ticker));
  const tickers = tokens.map((t) => t.token.ticker);
  const served = (ticker: string) => ({
    data: { brc20Token: { token: { ticker }, supply: { holders: tokens.find((t) => t.token.ticker === ticker)!.supply.holders } } },
  });
  const limited = (retryAfter: unknown = expect.toSatisfy((s: number) => s >= 1 && s <= 60)) =>
    fieldError(['brc20Token'], { code: 'RATE_LIMITED', service: 'ordinals', retryAfter, limit: 3 });

  describe('behind a trusted proxy (TRUST_PROXY=1): clients are X-Forwarded-For addresses', () => {
    let stack: Stack;
    beforeAll(async () => {
      stack = await startStack({ CLIENT_UPSTREAM_CALLS_PER_MINUTE: '3', TRUST_PROXY: '1', CACHE_TTL_MS: '60000', UPSTREAM_RETRIES: '2' });
    });
    afterAll(() => stack.close());
    afterEach(() => stack.sample.reset());
    const as = (address: string) => ({ 'x-forwarded-for': `198.51.100.1, ${address}` });

    test('past its share a client gets RATE_LIMITED (the field alone); another client and cache hits are still served', async () => {
      const x = as('203.0.113.7');
      for (const ticker of tickers.slice(0, 3)) {
        expect((await stack.graphql(token(ticker), undefined, x)).body).toEqual(served(ticker));
      }
      stack.sample.clearLog();
      const over = await stack.graphql(
        `{ brc20Token(ticker: "${tickers[3]}") { token { ticker } supply { holders } } status { status } }`,
        undefined,
        x,
      );
      expect(over.body).toEqual({ data: { brc20Token: null, status: { status: 'ready' } }, errors: [limited()] });
      // A cached answer costs nothing: still served to the limited client.
      expect((await stack.graphql(token(tickers[0]!), undefined, x)).body).toEqual(served(tickers[0]!));
      // Another client (the entry left of the trusted proxy's is the client's own claim: ignored).
      const y = await stack.graphql(token(tickers[3]!), undefined, { 'x-forwarded-for': `203.0.113.7, 203.0.113.8` });
      expect(y.body).toEqual(served(tickers[3]!));
      expect(stack.upstreamCalls()).toEqual(['GET /metadata/v1', `GET /ordinals/v1/brc-20/tokens/${tickers[3]}`]);
      expectNoSecrets(stack.logs.join('\n'), ['203.0.113.7', '203.0.113.8']);
    });

    test("REST: 429 in the upstream's error format with Retry-After and the RateLimit headers", async () => {
      const z = as('203.0.113.9');
      for (const ticker of tickers.slice(4, 7)) {
        expect((await rest(`${stack.gatewayUrl}/ordinals/v1/brc-20/tokens/${ticker}`, { headers: z })).status).toBe(200);
      }
      stack.sample.clearLog();
      const answer = await fetch(`${stack.gatewayUrl}/ordinals/v1/brc-20/tokens/${tickers[7]}`, { headers: z });
      const retryAfter = answer.headers.get('retry-after');
      expect({
        status: answer.status,
        body: await answer.json(),
        limit: answer.headers.get('ratelimit-limit'),
        remaining: answer.headers.get('ratelimit-remaining'),
        reset: answer.headers.get('ratelimit-reset'),
      }).toEqual({
        status: 429,
        body: { statusCode: 429, error: 'Too Many Requests', message: expect.stringContaining('3 calls a minute') },
        limit: '3',
        remaining: '0',
        reset: retryAfter,
      });
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
      // GraphQL answers the same client alike, and another client is served.
      expect((await stack.graphql(token(tickers[7]!), undefined, z)).body.errors).toEqual([limited()]);
      expect((await rest(`${stack.gatewayUrl}/ordinals/v1/brc-20/tokens/${tickers[7]}`, { headers: as('203.0.113.10') })).status).toBe(200);
      expect(stack.upstreamCalls()).toEqual([`GET /ordinals/v1/brc-20/tokens/${tickers[7]}`]);
    });

    test('retries count: a 503 retried is two calls of the share', async () => {
      const w = as('203.0.113.11');
      stack.sample.inject({ path: `/ordinals/v1/brc-20/tokens/${tickers[8]}`, times: 1, status: 503, body: 'busy' });
      expect((await stack.graphql(token(tickers[8]!), undefined, w)).body.errors).toBeUndefined();
      expect((await stack.graphql(token(tickers[9]!), undefined, w)).body.errors).toBeUndefined();
      stack.sample.clearLog();
      expect((await stack.graphql(token(tickers[10]!), undefined, w)).body.errors).toEqual([limited()]);
      expect(stack.upstreamCalls()).toEqual([]);
    });

    test('IPv6 clients count per /64: rotating addresses inside one block is one client', async () => {
      const inBlock = ['2001:db8:1:2::a', '2001:DB8:1:2:ffff::b', '2001:db8:1:2:0:0:0:c'];
      for (const [i, address] of inBlock.entries()) {
        expect((await stack.graphql(token(tickers[16 + i]!), undefined, as(address))).body).toEqual(served(tickers[16 + i]!));
      }
      stack.sample.clearLog();
      expect((await stack.graphql(token(tickers[19]!), undefined, as('2001:db8:1:2::d'))).body.errors).toEqual([limited()]);
      expect((await stack.graphql(token(tickers[19]!), undefined, as('2001:db8:1:3::a'))).body).toEqual(served(tickers[19]!));
      expect(stack.upstreamCalls()).toEqual([`GET /ordinals/v1/brc-20/tokens/${tickers[19]}`]);
    });

    test('joining an identical call in flight costs nothing', async () => {
      const path = `/ordinals/v1/brc-20/tokens/${tickers[11]}`;
      stack.sample.inject({ path, times: 1, delayMs: 300 });
      const leader = stack.graphql(token(tickers[11]!), undefined, as('203.0.113.12'));
      while (!stack.upstreamCalls().includes(`GET ${path}`)) await pause(10);
      const v = as('203.0.113.13');
      const joined = await stack.graphql(token(tickers[11]!), undefined, v);
      expect([joined.body, (await leader).body]).toEqual([served(tickers[11]!), served(tickers[11]!)]);
      expect(stack.upstreamCalls()).toEqual([`GET ${path}`]);
      // v still has its whole share: three calls of its own.
      for (const ticker of tickers.slice(12, 15)) {
        expect((await stack.graphql(token(ticker), undefined, v)).body).toEqual(served(ticker));
      }
      expect((await stack.graphql(token(tickers[15]!), undefined, v)).body.errors).toEqual([limited()]);
    });
  });

  test('without TRUST_PROXY, X-Forwarded-For is ignored: the socket address is the client', async () => {
    const stack = await startStack({ CLIENT_UPSTREAM_CALLS_PER_MINUTE: '3', CACHE_TTL_MS: '60000' });
    try {
      for (const [i, ticker] of tickers.slice(0, 3).entries()) {
        const spoofed = { 'x-forwarded-for': `192.0.2.${i}` };
        expect((await graphqlFrom('127.0.0.1', stack.gatewayUrl, token(ticker), spoofed)).body.errors).toBeUndefined();
      }
      stack.sample.clearLog();
      const over = await graphqlFrom('127.0.0.1', stack.gatewayUrl, token(tickers[3]!), { 'x-forwarded-for': '192.0.2.99' });
      expect(over.body).toEqual({ data: { brc20Token: null }, errors: [limited()] });
      const other = await graphqlFrom('127.0.0.2', stack.gatewayUrl, token(tickers[3]!));
      expect(other.body).toEqual(served(tickers[3]!));
      expect(stack.upstreamCalls()).toEqual([`GET /ordinals/v1/brc-20/tokens/${tickers[3]}`]);
      expectNoSecrets(stack.logs.join('\n'), ['127.0.0.2', '192.0.2.99']);
    } finally {
      await stack.close();
    }
  });

  test('the default share is 20% of the quota the upstream advertises; none advertised, no limit', async () => {
    const stack = await startStack({ TRUST_PROXY: 'on', CACHE_TTL_MS: '60000' });
    try {
      const p = { 'x-forwarded-for': '203.0.113.20' };
      // The sample advertises no quota: one client may make many calls.
      for (let limit = 1; limit <= 8; limit++) {
        expect((await stack.graphql(`{ etchings(limit: ${limit}) { limit } }`, undefined, p)).body).toEqual({
          data: { etchings: { limit } },
        });
      }
      // Now the upstream says 10 a minute: a client's share is 2.
      stack.sample.inject({
        path: '/runes/*',
        times: 1,
        status: 200,
        headers: { 'x-ratelimit-limit-bitcoin-minute': '10', 'x-ratelimit-remaining-bitcoin-minute': '9' },
        body: { limit: 9, offset: 0, total: 0, results: [] },
      });
      await stack.graphql('{ etchings(limit: 9) { limit } }', undefined, p);
      for (const limit of [10, 11]) {
        expect((await stack.graphql(`{ etchings(limit: ${limit}) { limit } }`, undefined, p)).body.errors).toBeUndefined();
      }
      stack.sample.clearLog();
      const over = await stack.graphql('{ etchings(limit: 12) { limit } }', undefined, p);
      expect(over.body).toEqual({
        data: { etchings: null },
        errors: [fieldError(['etchings'], { code: 'RATE_LIMITED', service: 'runes', retryAfter: expect.any(Number), limit: 2 })],
      });
      expect(stack.upstreamCalls()).toEqual([]);
    } finally {
      await stack.close();
    }
  });
});
