/**
 * REDIS_URL: what the gateway reads back from Redis is checked, not trusted. An entry rewritten in
 * Redis (a validation time in the future, a status or headers of the wrong type, bytes that are
 * not an entry) is dropped: the answer comes from the upstream, and when the upstream fails the
 * rewritten entry is not served as a stale answer either. Entries are written straight into a real
 * redis-server, in the store's own format: a JSON head line, a newline, the body bytes.
 */
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { sampleData } from '../../src/sample/data.js';
import { cacheKey } from '../../src/upstream/cache.js';
import { freePort, startStack, type Stack } from '../harness.js';
import { newPage, startRedis, stopRedis, untilStoring } from '../redis.js';

let redisServer: ChildProcess;
let redis: Redis;
let stack: Stack;

beforeAll(async () => {
  const port = await freePort();
  redisServer = await startRedis(port);
  redis = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0 });
  // Fresh for a minute: a stored entry that is taken is answered with no upstream call.
  stack = await startStack({ REDIS_URL: `redis://127.0.0.1:${port}`, CACHE_TTL_MS: '60000' });
  await untilStoring(redis, (n) => stack.graphql(newPage(n)));
});

afterAll(async () => {
  redis?.disconnect();
  await stack?.close();
  if (redisServer && redisServer.exitCode === null) await stopRedis(redisServer);
});

beforeEach(() => stack.sample.reset());

// Each test asks for a token of its own: the gateway keeps what it took in process.
const tickers = sampleData.brc20Tokens.map((t) => t.token.ticker).filter((t) => /^[a-z]{4}$/.test(t));
let nextTicker = 0;
const takeTicker = () => tickers[nextTicker++]!;

const tokenPath = (ticker: string) => `/ordinals/v1/brc-20/tokens/${ticker}`;
const query = (ticker: string) => `{ t: brc20Token(ticker: ${JSON.stringify(ticker)}) { token { ticker maxSupply } supply { holders } } }`;

/** What the upstream answers for `ticker`, as the query reads it. */
function upstreamData(ticker: string) {
  const token = sampleData.brc20Tokens.find((t) => t.token.ticker === ticker)!;
  return { t: { token: { ticker, maxSupply: token.token.max_supply }, supply: { holders: token.supply.holders } } };
}

/** The upstream's answer for `ticker` with its max supply rewritten to "1". */
function rewrittenBody(ticker: string): string {
  const token = sampleData.brc20Tokens.find((t) => t.token.ticker === ticker)!;
  return JSON.stringify({ ...token, token: { ...token.token, max_supply: '1' }, supply: { ...token.supply, max_supply: '1' } });
}
const REWRITTEN_DATA = (ticker: string) => ({
  t: { token: { ticker, maxSupply: '1' }, supply: { holders: upstreamData(ticker).t.supply.holders } },
});

const HEADERS = { 'content-type': 'application/json; charset=utf-8', etag: '"rewritten"' };

/** The key the gateway stores `ticker`'s answer under (upstream/cache.ts). */
const keyOf = (ticker: string) => cacheKey('ordinals', new URL(stack.sample.baseUrl).href, tokenPath(ticker), '');

/** Writes an entry for `ticker` straight into Redis: `head` is the JSON head line (or raw text). */
async function writeEntry(ticker: string, head: unknown, body = rewrittenBody(ticker)): Promise<void> {
  const line = typeof head === 'string' ? head : JSON.stringify(head);
  await redis.set(keyOf(ticker), Buffer.from(`${line}\n${body}`), 'PX', 60_000);
}

const storedEntry = (ticker: string) => redis.getBuffer(keyOf(ticker));

/** satgate_cache_events_total{service="ordinals",event="rejected"}, 0 when not yet counted. */
async function rejectedCount(): Promise<number> {
  const text = await stack.gateway.metrics.scrape();
  const line = text.split('\n').find((l) => l.startsWith('satgate_cache_events_total{service="ordinals",event="rejected"}'));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

async function until(condition: () => Promise<boolean>, timeoutMs = 2000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

test('a well-formed entry validated now is taken from Redis with no upstream call (the key the other tests write is the one the gateway reads)', async () => {
  const ticker = takeTicker();
  await writeEntry(ticker, { s: 200, h: HEADERS, v: Date.now() });
  expect(await stack.graphql(query(ticker))).toEqual({ status: 200, body: { data: REWRITTEN_DATA(ticker) } });
  expect(stack.upstreamCalls()).toEqual([]);
});

test('a validation time within the clock skew (a replica 500 ms ahead) is taken', async () => {
  const ticker = takeTicker();
  await writeEntry(ticker, { s: 200, h: HEADERS, v: Date.now() + 500 });
  expect(await stack.graphql(query(ticker))).toEqual({ status: 200, body: { data: REWRITTEN_DATA(ticker) } });
  expect(stack.upstreamCalls()).toEqual([]);
});

const UPSTREAM_503 = {
  data: { t: null },
  errors: [
    {
      message: 'The ordinals service answered with HTTP 503',
      locations: [{ line: 1, column: 3 }],
      path: ['t'],
      extensions: { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 503 },
    },
  ],
};

const valid = () => ({ s: 200, h: HEADERS, v: Date.now() });
const malformed: Array<[string, () => unknown]> = [
  ['a validation time an hour ahead (a rewritten entry)', () => ({ ...valid(), v: Date.now() + 3_600_000 })],
  ['a validation time 5 s ahead (a replica whose clock is fast)', () => ({ ...valid(), v: Date.now() + 5_000 })],
  ['a validation time that is a string', () => ({ ...valid(), v: String(Date.now()) })],
  ['no validation time', () => ({ s: 200, h: HEADERS })],
  ['a status that is a string', () => ({ ...valid(), s: '200' })],
  ['a status outside 100..599', () => ({ ...valid(), s: 999 })],
  ['a status that is not an integer', () => ({ ...valid(), s: 200.5 })],
  ['a header value that is a number', () => ({ ...valid(), h: { ...HEADERS, etag: 5 } })],
  ['a header value that is an object', () => ({ ...valid(), h: { ...HEADERS, 'content-type': { type: 'json' } } })],
  ['a header value with a line break', () => ({ ...valid(), h: { ...HEADERS, etag: '"a"\r\nset-cookie: x=1' } })],
  ['headers that are a list', () => ({ ...valid(), h: ['content-type', 'application/json'] })],
  ['an empty head', () => ({})],
  ['a head that is not JSON', () => 'not json {'],
];

test.each(malformed)(
  'an entry with %s is dropped: never served, even when the upstream fails, and answered from the upstream',
  async (_, head) => {
    const ticker = takeTicker();
    const rejectedBefore = await rejectedCount();

    // The upstream fails: the rewritten entry is not served as a stale answer either.
    await writeEntry(ticker, head());
    stack.sample.inject({ path: tokenPath(ticker), times: 1, status: 503, body: { error: 'unavailable' } });
    expect(await stack.graphql(query(ticker))).toEqual({ status: 200, body: UPSTREAM_503 });
    expect(stack.upstreamCalls()).toEqual([`GET ${tokenPath(ticker)}`]);
    // Dropped from Redis as well, so that no other replica reads it again.
    expect(await until(async () => (await storedEntry(ticker)) === null)).toBe(true);

    // The upstream answers: its data, not the rewritten entry's.
    stack.sample.clearLog();
    await writeEntry(ticker, head());
    expect(await stack.graphql(query(ticker))).toEqual({ status: 200, body: { data: upstreamData(ticker) } });
    expect(stack.upstreamCalls()).toEqual([`GET ${tokenPath(ticker)}`]);

    // Counted every time, logged once (with why) for the life of the process.
    expect((await rejectedCount()) - rejectedBefore).toBe(2);
    const lines = stack.logs.filter((line) => line.includes('Redis cache entry rejected'));
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      {
        level: 'warn',
        time: expect.any(String),
        app: 'satgate',
        pid: process.pid,
        component: 'cache',
        reason: expect.any(String),
        msg: 'Redis cache entry rejected: answered from the upstream; further rejections are only counted',
      },
    ]);
  },
);
