/**
 * REDIS_URL: two gateway instances share one cache in a real redis-server (installed by .ci/run),
 * and keep answering correctly, without stalling, while Redis is stopped and after it returns.
 */
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSampleUpstream, type SampleUpstream } from '../../src/sample/server.js';
import { sampleData } from '../../src/sample/data.js';
import { freePort, startStack, type Stack } from '../harness.js';
import { newPage, startRedis, stopRedis, untilStoring } from '../redis.js';

const QUERY = '{ ordi: brc20Token(ticker: "ordi") { token { ticker mintLimit } supply { holders } } }';
const ordi = sampleData.brc20Tokens.find((t) => t.token.ticker === 'ordi')!;
const ORDI_DATA = {
  ordi: { token: { ticker: 'ordi', mintLimit: ordi.token.mint_limit }, supply: { holders: ordi.supply.holders } },
};

let redisPort: number;
let redis: ChildProcess;
let sample: SampleUpstream;
let a: Stack;
let b: Stack;

beforeAll(async () => {
  redisPort = await freePort();
  redis = await startRedis(redisPort);
  sample = await startSampleUpstream();
  // Both gateways use the one sample upstream, so its log counts the calls of both.
  const env = {
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    CACHE_TTL_MS: '60000',
    HIRO_API_URL: sample.url,
    HIRO_PLATFORM_URL: sample.url,
  };
  a = await startStack(env);
  b = await startStack(env);
  const client = new Redis({ port: redisPort, host: '127.0.0.1', maxRetriesPerRequest: 0 });
  try {
    await untilStoring(client, (n) => a.graphql(newPage(n)));
    await untilStoring(client, (n) => b.graphql(newPage(1000 + n)));
  } finally {
    client.disconnect();
  }
  sample.clearLog();
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await sample?.close();
  if (redis && redis.exitCode === null) await stopRedis(redis);
});

test('an answer cached by one gateway instance is served by another without an upstream call', async () => {
  const first = await a.graphql(QUERY);
  const second = await b.graphql(QUERY);
  expect([first, second]).toEqual([
    { status: 200, body: { data: ORDI_DATA } },
    { status: 200, body: { data: ORDI_DATA } },
  ]);
  expect(sample.requests.map((r) => r.url)).toEqual(['/ordinals/v1/brc-20/tokens/ordi']);
});

test("a quota block one instance learns stops the other's upstream calls too", async () => {
  sample.inject({ path: '/runes/*', times: 1, status: 429, headers: { 'retry-after': '30' }, body: {} });
  const limited = await a.graphql('{ etchings { total } }');
  expect(limited.body.errors?.map((e) => [e.extensions?.code, e.extensions?.retryAfter])).toEqual([['RATE_LIMITED', 30]]);
  sample.clearLog();
  // B learns of it through Redis (polled every 500 ms), then answers without asking.
  let blocked = false;
  for (let attempt = 0; attempt < 30 && !blocked; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    // A new page each time: a cached answer would not need the upstream, so would not be refused.
    const answer = await b.graphql(`{ etchings(limit: ${3 + attempt}) { total } }`);
    blocked = answer.body.errors?.[0]?.extensions?.code === 'RATE_LIMITED';
    if (!blocked) sample.clearLog();
  }
  expect(blocked).toBe(true);
  expect(sample.requests).toEqual([]);
});

test('with Redis stopped, answers are correct: what the instance holds in process needs neither Redis nor the upstream, the rest comes from the upstream, and the outage is logged once', async () => {
  await stopRedis(redis);
  sample.clearLog();
  const held = [];
  for (let i = 0; i < 3; i++) held.push(await b.graphql(QUERY));
  expect(held).toEqual(Array.from({ length: 3 }, () => ({ status: 200, body: { data: ORDI_DATA } })));
  expect(sample.requests).toEqual([]);
  // Never asked by B: from the upstream once, then from B's in-process tier.
  const pepe = sampleData.brc20Tokens.find((t) => t.token.ticker === 'pepe')!;
  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(await b.graphql('{ pepe: brc20Token(ticker: "pepe") { token { ticker } supply { holders } } }'));
  const data = { pepe: { token: { ticker: pepe.token.ticker }, supply: { holders: pepe.supply.holders } } };
  expect(answers).toEqual(Array.from({ length: 3 }, () => ({ status: 200, body: { data } })));
  expect(sample.requests.map((r) => r.url)).toEqual(['/ordinals/v1/brc-20/tokens/pepe']);
  const outageLines = b.logs.filter((line) => line.includes('Redis cache unavailable'));
  expect(outageLines).toHaveLength(1);
});

test('when Redis comes back, the shared cache works again', async () => {
  redis = await startRedis(redisPort);
  // ioredis reconnects with backoff (up to 2 s between tries): wait until an answer gateway A
  // stores reaches B through Redis.
  let shared = false;
  const deadline = Date.now() + 15_000;
  // A page neither instance holds in process each time: B can only have it from Redis.
  for (let offset = 0; !shared && Date.now() < deadline; offset++) {
    const query = newPage(2000 + offset);
    await a.graphql(query);
    sample.clearLog();
    await b.graphql(query);
    shared = sample.requests.length === 0;
    if (!shared) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(shared).toBe(true);
  expect(b.logs.filter((line) => line.includes('Redis cache available again'))).toHaveLength(1);
});
