/**
 * With REDIS_URL, a replica whose polling pauses (its breaker open, as when it cannot reach the
 * upstream) hands its lease on: another replica, which the upstream answers, polls for both, and
 * every subscriber keeps hearing changes.
 */
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { findBrc20Token } from '../../src/sample/data.js';
import { startSampleUpstream, type SampleUpstream } from '../../src/sample/server.js';
import { freePort, startStack, type Stack } from '../harness.js';
import { disposeAll, sse, until } from '../live-clients.js';
import { startRedis, stopRedis } from '../redis.js';
import { toBrc20 } from '../support.js';

const QUERY = 'subscription { brc20Token(ticker: "pepe") { token { ticker txCount } } }';
let redis: ChildProcess;
let client: Redis;
let sample: SampleUpstream;
let a: Stack;
let b: Stack;

beforeAll(async () => {
  const port = await freePort();
  redis = await startRedis(port);
  client = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0 });
  sample = await startSampleUpstream();
  const env = {
    REDIS_URL: `redis://127.0.0.1:${port}`,
    LIVE_POLL_INTERVAL_MS: '200',
    LIVE_RATE_LIMIT_PER_MINUTE: '0',
    // Open for the whole test once opened: A cannot poll for as long as it lasts.
    BREAKER_THRESHOLD: '2',
    BREAKER_COOLDOWN_MS: '60000',
    TRUST_PROXY: 'on',
  };
  a = await startStack(env, { upstream: sample });
  b = await startStack(env, { upstream: sample });
});

afterAll(async () => {
  await disposeAll();
  client.disconnect();
  await a.close();
  await b.close();
  await sample.close();
  await stopRedis(redis);
});

const event = (details: ReturnType<typeof findBrc20Token>) => {
  const { token } = toBrc20(details!);
  return { data: { brc20Token: { token: { ticker: token.ticker, txCount: token.txCount } } } };
};
const breaker = async (stack: Stack) =>
  ((await (await fetch(`${stack.gatewayUrl}/readyz`)).json()) as { services: { ordinals: { breaker: string } } }).services.ordinals.breaker;

test('a replica that cannot poll hands its lease on, and subscribers on both replicas hear the next change', async () => {
  const initial = event(findBrc20Token('pepe'));
  const onA = sse(a.gatewayUrl, QUERY, '203.0.113.1');
  await until(() => onA.results.length === 1, 'the first value on A');
  // A holds the lease: the only replica watching.
  while ((await client.keys('satgate:v1:live:*:lease:*')).length === 0) await sleep(20);
  const onB = sse(b.gatewayUrl, QUERY, '203.0.113.2');
  await until(() => onB.results.length === 1, 'the first value on B');

  // A's clients and its polls all fail: A's breaker opens. B has served its client since, and
  // keeps its own closed.
  sample.inject({ path: '/ordinals/*', status: 503 });
  await a.graphql('{ brc20Token(ticker: "ordi") { token { ticker } } }', undefined, { 'x-forwarded-for': '203.0.113.1' });
  await a.graphql('{ brc20Token(ticker: "ordi") { token { ticker } } }', undefined, { 'x-forwarded-for': '203.0.113.3' });
  while ((await breaker(a)) !== 'open') await sleep(20);
  sample.clearFaults();

  // The upstream answers B: B polls now, and both replicas' subscribers hear the mint.
  const minted = sample.activity.mint('pepe');
  await until(() => onA.results.length === 2 && onB.results.length === 2, 'the change on both replicas');
  expect([onA.results, onB.results]).toEqual([
    [initial, event(minted)],
    [initial, event(minted)],
  ]);
  expect([await breaker(a), await breaker(b)]).toEqual(['open', 'closed']);
}, 20_000);
