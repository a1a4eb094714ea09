/**
 * REDIS_URL: a hung Redis (redis-server frozen with SIGSTOP: its connection stays open, no command
 * is answered) costs one command timeout (500 ms), once. Then the store is skipped, and probed in
 * the background; no request waits on a Redis write. Once Redis answers again it is used again.
 */
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { sampleData } from '../../src/sample/data.js';
import { cacheKey } from '../../src/upstream/cache.js';
import { freePort, startStack, type Stack } from '../harness.js';
import { newPage, pauseRedis, resumeRedis, startRedis, stopRedis, untilStoring } from '../redis.js';

let redisServer: ChildProcess;
let redis: Redis;
let stack: Stack;

beforeAll(async () => {
  const port = await freePort();
  redisServer = await startRedis(port);
  redis = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0 });
  redis.on('error', () => {});
  stack = await startStack({ REDIS_URL: `redis://127.0.0.1:${port}`, CACHE_TTL_MS: '60000' });
  // Redis in use: the gateway stores its answers there.
  await untilStoring(redis, (n) => stack.graphql(newPage(n)));
  stack.sample.clearLog();
});

afterEach(() => resumeRedis(redisServer));

afterAll(async () => {
  redis?.disconnect();
  await stack?.close();
  if (redisServer && redisServer.exitCode === null) await stopRedis(redisServer);
});

const tickers = sampleData.brc20Tokens.map((t) => t.token.ticker).filter((t) => /^[a-z]{4}$/.test(t));
const tokenPath = (ticker: string) => `/ordinals/v1/brc-20/tokens/${ticker}`;
const keyOf = (ticker: string) => cacheKey('ordinals', new URL(stack.sample.baseUrl).href, tokenPath(ticker), '');

/** Asks the gateway for `ticker` (never asked before: a cache miss); answers the body and how long it took. */
async function ask(ticker: string) {
  const started = performance.now();
  // `holders` is read from the token's own route (the list route carries none).
  const answer = await stack.graphql(`{ t: brc20Token(ticker: ${JSON.stringify(ticker)}) { token { ticker } supply { holders } } }`);
  return { answer, ms: performance.now() - started };
}
function answerFor(ticker: string) {
  const { supply } = sampleData.brc20Tokens.find((t) => t.token.ticker === ticker)!;
  return { status: 200, body: { data: { t: { token: { ticker }, supply: { holders: supply.holders } } } } };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

/** How many times Redis ran each command since the last RESETSTAT. */
async function commandCalls(commands: string[]): Promise<Record<string, number>> {
  const info = await redis.info('commandstats');
  return Object.fromEntries(commands.map((c) => [c, Number(new RegExp(`^cmdstat_${c}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0)]));
}

const logged = (text: string) => stack.logs.filter((line) => line.includes(text)).length;

test('a hung Redis costs one command timeout once; then misses do not wait for it; after it answers a probe, it is used again', async () => {
  const [first, ...rest] = tickers;
  const later = rest.slice(0, 3);
  const [afterwards, readBack] = rest.slice(3);

  // Count what the gateway asks Redis while it hangs: the commands wait in the socket and are
  // counted once it runs again.
  await redis.config('RESETSTAT');
  pauseRedis(redisServer);
  try {
    // The first miss waits for one read to time out (500 ms), not for a write too: two timeouts
    // take 1,000 ms at least, whatever the load.
    const firstMiss = await ask(first!);
    expect(firstMiss.answer).toEqual(answerFor(first!));
    expect(firstMiss.ms).toBeLessThan(1000);
    // Then Redis is skipped: a miss costs the upstream call only. Three took 3,030 ms; a generous
    // bound for all three, as one may be slowed by the machine's load.
    let laterMs = 0;
    for (const ticker of later) {
      const miss = await ask(ticker);
      expect(miss.answer).toEqual(answerFor(ticker));
      laterMs += miss.ms;
    }
    expect(laterMs).toBeLessThan(1000);
    expect(stack.upstreamCalls()).toEqual([first!, ...later].map((t) => `GET ${tokenPath(t)}`));
    expect(logged('Redis cache unavailable')).toBe(1);
  } finally {
    resumeRedis(redisServer);
  }
  // One read (the first miss's) and no write reached Redis while it hung: the other misses did
  // not ask it. (The test's own INFO comes after the gateway's waiting commands.)
  expect(await commandCalls(['get', 'set'])).toEqual({ get: 1, set: 0 });

  // A background probe finds Redis again (within a skip window of 2 s and a PING).
  expect(await until(() => logged('Redis cache available again') === 1, 10_000)).toBe(true);
  // Written to again...
  expect((await ask(afterwards!)).answer).toEqual(answerFor(afterwards!));
  expect(await until(async () => (await redis.exists(keyOf(afterwards!))) === 1, 2000)).toBe(true);
  // ...and read from again: an entry another replica stored is answered with no upstream call.
  const token = sampleData.brc20Tokens.find((t) => t.token.ticker === readBack)!;
  const head = JSON.stringify({ s: 200, h: { 'content-type': 'application/json' }, v: Date.now() });
  await redis.set(keyOf(readBack!), `${head}\n${JSON.stringify(token)}`, 'PX', 60_000);
  stack.sample.clearLog();
  expect((await ask(readBack!)).answer).toEqual(answerFor(readBack!));
  expect(stack.upstreamCalls()).toEqual([]);
  expect(logged('Redis cache unavailable')).toBe(1);
});
