/**
 * UNISAT_RATE_LIMIT_PER_SECOND: satgate never sends UniSat more calls than the limit in any sliding
 * one-second window, queues a call within its deadline, refuses one that cannot fit (RATE_LIMITED
 * with retryAfter, nothing sent), and with REDIS_URL keeps one budget for every replica, whose
 * identical calls in flight are joined (src/upstream/shared-flights.ts).
 * Timing assertions are lower bounds only (load can only spread calls further apart).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import { start } from '../../src/main.js';
import { sampleData } from '../../src/sample/data.js';
import type { SampleUpstream } from '../../src/sample/server.js';
import { Redis } from 'ioredis';
import { UpstreamError } from '../../src/errors.js';
import { cacheKey } from '../../src/upstream/cache.js';
import { RedisWindow, createCallBudget } from '../../src/sources/unisat/call-budget.js';
import { LocalWindow } from '../../src/sources/unisat/local-window.js';
import { freePort, startStack, startUnisatStack, type Stack } from '../harness.js';
import { pauseRedis, resumeRedis, startRedis, stopRedis } from '../redis.js';
import { fieldError } from '../support.js';
import { BRC20_HEIGHT } from '../../src/sample/unisat.js';

const tickers = sampleData.brc20Tokens.map((t) => t.token.ticker).filter((t) => /^[a-z0-9]+$/.test(t));
const lookups = (list: string[]) => `{ ${list.map((t, i) => `t${i}: brc20Token(ticker: "${t}") { token { id } }`).join(' ')} }`;

/** Arrival times at the sample's UniSat routes, in order. */
const unisatTimes = (sample: SampleUpstream) =>
  sample.requests
    .filter((r) => r.path.startsWith('/v1/indexer/'))
    .map((r) => r.at)
    .sort((a, b) => a - b);

/**
 * Has the gateway at `url` ask UniSat's BRC-20 height (src/sources/unisat/heights.ts: at most every
 * 30 s a process), then waits for the budget's window to empty: the calls a test then counts are
 * its lookups' alone.
 */
async function heightAsked(url: string) {
  const answer = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: lookups([tickers.at(-1)!]) }),
  });
  expect(answer.status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 1100));
}

/** In any `limit + 1` consecutive calls, the first and the last are a second apart (the margin covers jitter). */
function expectSliding(times: number[], limit: number) {
  for (let i = 0; i + limit < times.length; i++) expect(times[i + limit]! - times[i]!).toBeGreaterThanOrEqual(1000);
}

describe('the window itself', () => {
  test('admits `limit` calls in any (t - 1050 ms, t]: a second and a margin for jitter', () => {
    const window = new LocalWindow(2);
    expect([window.take(0), window.take(10), window.take(20), window.take(1000)]).toEqual([0, 0, 1030, 50]);
    // At 1050 the call of 0 has left the window; the one of 10 leaves at 1060.
    expect([window.take(1050), window.take(1055), window.take(1060), window.take(1061)]).toEqual([0, 5, 0, 1039]);
  });
});

describe('the budget without Redis', () => {
  test('each of WORKERS processes keeps its share; a wait past the deadline is refused at once', async () => {
    const take = createCallBudget({ perSecond: 5, workers: 2, service: 'unisat' });
    const signal = new AbortController().signal;
    const soon = () => Date.now() + 200;
    await take(signal, soon());
    await take(signal, soon());
    const refused = await take(signal, soon()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UpstreamError);
    // The window is 1,050 ms wide: a full one frees its first place in just over a second.
    expect(refused).toMatchObject({ service: 'unisat', kind: 'quota', retryAfter: 2, limit: 5 });
  });

  test('Redis that cannot answer leaves the decision to the local share', async () => {
    const port = await freePort();
    const redis = new Redis({
      port,
      host: '127.0.0.1',
      lazyConnect: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => {});
    try {
      // Each decision the local share makes is counted (satgate_redis_fallbacks_total).
      const uses: string[] = [];
      const window = new RedisWindow(redis, 'satgate:test:window', 5, new LocalWindow(1), undefined, {
        redisFallback: (use) => uses.push(use),
      });
      expect([await window.take(), (await window.take()) > 0, uses]).toEqual([0, true, ['call_window', 'call_window']]);
    } finally {
      redis.disconnect();
    }
  });
});

describe('the budget while Redis hangs and comes back', () => {
  let server: ChildProcess;
  let redis: Redis;
  beforeAll(async () => {
    const port = await freePort();
    server = await startRedis(port);
    redis = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0 });
    redis.on('error', () => {});
  });
  afterAll(async () => {
    resumeRedis(server);
    redis.disconnect();
    await stopRedis(server);
  });

  test('the local window knows the calls Redis admitted this second', async () => {
    const window = new RedisWindow(redis, 'satgate:test:hang', 2, new LocalWindow(2));
    expect([await window.take(), await window.take()]).toEqual([0, 0]);
    pauseRedis(server);
    try {
      // Redis does not answer: the local window decides, and it is full.
      expect((await window.take()) > 0).toBe(true);
    } finally {
      resumeRedis(server);
    }
  });

  test('back on Redis, a call must fit the calls the local window admitted this second too', async () => {
    const window = new RedisWindow(redis, 'satgate:test:back', 2, new LocalWindow(2), 300);
    pauseRedis(server);
    // Redis does not answer: the local window admits two calls, for 300 ms.
    expect(await window.take()).toBe(0);
    resumeRedis(server);
    expect(await window.take()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 350));
    // Redis decides again; it knows one of the two.
    expect((await window.take()) > 0).toBe(true);
  });
});

describe('one gateway', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startUnisatStack({ UNISAT_RATE_LIMIT_PER_SECOND: '2', UPSTREAM_TIMEOUT_MS: '10000' });
  });
  afterAll(() => stack.close());

  test('seven lookups at once are queued two a second, and all answered', async () => {
    await heightAsked(stack.gatewayUrl);
    stack.sample.reset();
    const { body } = await stack.graphql(lookups(tickers.slice(0, 7)));
    expect(body.errors).toBeUndefined();
    expect(Object.keys(body.data!)).toHaveLength(7);
    const times = unisatTimes(stack.sample);
    expect(times).toHaveLength(7);
    expectSliding(times, 2);
    expect(times[6]! - times[0]!).toBeGreaterThanOrEqual(2700);
  });
});

describe('one connection, and a slow first answer', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startUnisatStack({ UNISAT_RATE_LIMIT_PER_SECOND: '2', UPSTREAM_TIMEOUT_MS: '10000', UPSTREAM_MAX_CONNECTIONS: '1' });
  });
  afterAll(() => stack.close());

  test('calls admitted while the connection was busy do not leave together when it frees', async () => {
    await heightAsked(stack.gatewayUrl);
    stack.sample.reset();
    // Admitted at 0, 0, 1000, 1000, 2000, 2000 but all behind the first answer, they would all
    // reach UniSat within a few ms of 2500.
    stack.sample.inject({ path: '/v1/indexer/*', delayMs: 2500, times: 1 });
    const { body } = await stack.graphql(lookups(tickers.slice(0, 6)));
    expect(body.errors).toBeUndefined();
    const times = unisatTimes(stack.sample);
    expect(times).toHaveLength(6);
    expectSliding(times, 2);
  });
});

describe('a call that cannot fit its deadline', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startUnisatStack({ UNISAT_RATE_LIMIT_PER_SECOND: '1', UPSTREAM_TIMEOUT_MS: '1500' });
  });
  afterAll(() => stack.close());

  test('is RATE_LIMITED with retryAfter, naming the service and the source, and is never sent', async () => {
    await heightAsked(stack.gatewayUrl);
    stack.sample.reset();
    const { body } = await stack.graphql(lookups(tickers.slice(0, 4)));
    const answered = Object.values(body.data!).filter((v) => v !== null);
    expect(answered).toHaveLength(2);
    expect(body.errors).toHaveLength(2);
    for (const error of body.errors!) {
      expect(error).toEqual(
        fieldError([error.path![0]!], { code: 'RATE_LIMITED', service: 'ordinals', source: 'unisat', retryAfter: 2, limit: 1 }),
      );
    }
    expect(unisatTimes(stack.sample)).toHaveLength(2);
  });
});

describe('two replicas sharing REDIS_URL', () => {
  let redis: ChildProcess;
  let stack: Stack;
  let replica: Awaited<ReturnType<typeof start>>;
  let board: Redis;
  beforeAll(async () => {
    const port = await freePort();
    redis = await startRedis(port);
    board = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0 });
    const env = (sample: SampleUpstream) => ({
      BRC20_SOURCE: 'unisat',
      UNISAT_API_URL: sample.baseUrl,
      UNISAT_RATE_LIMIT_PER_SECOND: '2',
      UPSTREAM_TIMEOUT_MS: '10000',
      REDIS_URL: `redis://127.0.0.1:${port}`,
    });
    stack = await startStack(env, { sources: { unisat: {} } });
    replica = await start(
      {
        PORT: '0',
        HOST: '127.0.0.1',
        HIRO_API_URL: stack.sample.baseUrl,
        LOG_LEVEL: 'silent',
        CACHE_TTL_MS: '0',
        UPSTREAM_RETRIES: '0',
        ...env(stack.sample),
      },
      { logDestination: new Writable({ write: (_chunk, _encoding, done) => done() }) },
    );
  });
  afterAll(async () => {
    board?.disconnect();
    await replica?.stop();
    await stack?.close();
    if (redis) await stopRedis(redis);
  });

  test('spend one budget: six calls from both take three seconds’ windows, not one', async () => {
    await Promise.all([heightAsked(stack.gatewayUrl), heightAsked(`http://127.0.0.1:${replica.port}`)]);
    stack.sample.reset();
    const ask = (url: string, list: string[]) =>
      fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: lookups(list) }),
      }).then((r) => r.json() as Promise<{ errors?: unknown }>);
    const answers = await Promise.all([
      ask(stack.gatewayUrl, tickers.slice(0, 3)),
      ask(`http://127.0.0.1:${replica.port}`, tickers.slice(3, 6)),
    ]);
    expect(answers.map((a) => a.errors)).toEqual([undefined, undefined]);
    const times = unisatTimes(stack.sample);
    expect(times).toHaveLength(6);
    expectSliding(times, 2);
    // Each replica alone would have sent its three within one second.
    expect(times[5]! - times[0]!).toBeGreaterThanOrEqual(1800);
  });

  const ask = (url: string, query: string) =>
    fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    }).then((r) => r.json() as Promise<{ data?: unknown; errors?: Array<{ extensions?: { code?: string } }> }>);
  const infoPath = (ticker: string) => `/v1/indexer/brc20/${ticker}/info`;
  const answered = {
    data: { t0: { token: { id: expect.any(String) } } },
    extensions: { sources: [{ source: 'unisat', height: BRC20_HEIGHT, unavailable: [] }] },
  };
  const callsTo = (path: string) => stack.sample.requests.filter((r) => r.path === path).length;

  test('join one call when both ask the same thing at once', async () => {
    stack.sample.reset();
    const [ticker] = tickers.slice(6, 7) as [string];
    // Slow enough that the second replica asks while the first one's call is in the air.
    stack.sample.inject({ path: infoPath(ticker), delayMs: 300 });
    const query = lookups([ticker]);
    const started = Date.now();
    const answers = await Promise.all([ask(stack.gatewayUrl, query), ask(`http://127.0.0.1:${replica.port}`, query)]);
    // Woken by the landing, not by the lock lapsing (UPSTREAM_TIMEOUT_MS, 10 s).
    expect(Date.now() - started).toBeLessThan(5000);
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toEqual(answered);
    expect(callsTo(infoPath(ticker))).toBe(1);
  });

  test('a call that failed is asked again by the replica that waited for it', async () => {
    stack.sample.reset();
    const [ticker] = tickers.slice(7, 8) as [string];
    stack.sample.inject({ path: infoPath(ticker), status: 500, body: { code: -1, msg: 'boom' }, times: 1, delayMs: 300 });
    const query = lookups([ticker]);
    const answers = await Promise.all([ask(stack.gatewayUrl, query), ask(`http://127.0.0.1:${replica.port}`, query)]);
    const codes = answers.map((a) => a.errors?.[0]?.extensions?.code ?? 'answered').sort();
    expect(codes).toEqual(['UPSTREAM_ERROR', 'answered']);
    expect(callsTo(infoPath(ticker))).toBe(2);
  });

  test('a flight whose process died is waited for until its lock lapses, then asked', async () => {
    stack.sample.reset();
    const [ticker] = tickers.slice(8, 9) as [string];
    await board.set(
      `${cacheKey('unisat', new URL(stack.sample.baseUrl).href, infoPath(ticker), '')}:flight`,
      'a replica that died',
      'PX',
      600,
    );
    const started = Date.now();
    const answer = await ask(`http://127.0.0.1:${replica.port}`, lookups([ticker]));
    expect(answer).toEqual(answered);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(callsTo(infoPath(ticker))).toBe(1);
  });
});
