/**
 * With REDIS_URL, a replica that was deaf to pub/sub owes each watched resource one poll of its
 * own once subscribed again: a change another replica published meanwhile reached nobody here.
 * When that poll cannot go (its quota spent, its breaker open), the replica still owes it, and
 * makes it once it may poll again: its subscribers get the change.
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
const QUOTA_WAIT_SECONDS = 10;
let redis: ChildProcess;
let admin: Redis;
let sample: SampleUpstream;
let x: Stack;
let y: Stack;

beforeAll(async () => {
  const port = await freePort();
  redis = await startRedis(port);
  admin = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0 });
  sample = await startSampleUpstream();
  const env = {
    REDIS_URL: `redis://127.0.0.1:${port}`,
    LIVE_POLL_INTERVAL_MS: '200',
    LIVE_RATE_LIMIT_PER_MINUTE: '0',
    CACHE_TTL_MS: '0',
    UPSTREAM_RETRIES: '0',
    TRUST_PROXY: 'on',
  };
  // Keys of their own: one's quota block is not the other's.
  x = await startStack({ ...env, HIRO_API_KEY: 'key-of-x' }, { upstream: sample });
  y = await startStack({ ...env, HIRO_API_KEY: 'key-of-y' }, { upstream: sample });
});

afterAll(async () => {
  await disposeAll();
  await admin.call('ACL', 'SETUSER', 'default', '+subscribe');
  admin.disconnect();
  await x.close();
  await y.close();
  await sample.close();
  await stopRedis(redis);
});

const event = (details: ReturnType<typeof findBrc20Token>) => {
  const { token } = toBrc20(details!);
  return { data: { brc20Token: { token: { ticker: token.ticker, txCount: token.txCount } } } };
};
const quotaWait = async (stack: Stack) =>
  ((await (await fetch(`${stack.gatewayUrl}/readyz`)).json()) as { services: { ordinals: { quotaWaitSeconds: number } } }).services.ordinals
    .quotaWaitSeconds;
const liveSubscribers = async () => {
  const channels = (await admin.call('PUBSUB', 'CHANNELS', 'satgate:v1:live:*')) as string[];
  if (channels.length !== 1) return 0;
  return Number(((await admin.call('PUBSUB', 'NUMSUB', channels[0]!)) as Array<string | number>)[1]);
};

test('a change published while a replica was deaf reaches its subscribers, though it could not poll when it subscribed again', async () => {
  const initial = event(findBrc20Token('pepe'));
  const onX = sse(x.gatewayUrl, QUERY, '203.0.113.1');
  const onY = sse(y.gatewayUrl, QUERY, '203.0.113.2');
  await until(() => onX.results.length === 1 && onY.results.length === 1, 'the first value on both replicas');
  while ((await liveSubscribers()) !== 2) await sleep(20);

  // Both replicas go deaf: Redis refuses their SUBSCRIBE.
  await admin.call('ACL', 'SETUSER', 'default', '-subscribe');
  await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
  // X's key has spent its quota: X's polls pause.
  sample.inject({
    // The token, by its own path or in the list (asked for its ticker alone).
    path: /^\/ordinals\/v1\/brc-20\/tokens(\/ordi)?$/,
    status: 429,
    headers: { 'retry-after': String(QUOTA_WAIT_SECONDS) },
    body: { message: 'API rate limit exceeded' },
    times: 1,
  });
  await x.graphql('{ brc20Token(ticker: "ordi") { token { ticker } } }', undefined, { 'x-forwarded-for': '203.0.113.3' });
  expect(await quotaWait(x)).toBeGreaterThan(0);

  // Y sees the mint and publishes it; X hears nothing.
  const minted = sample.activity.mint('pepe');
  await until(() => onY.results.length === 2, 'the change on Y');

  // Redis lets them subscribe again while X's quota is still spent.
  await admin.call('ACL', 'SETUSER', 'default', '+subscribe');
  while ((await liveSubscribers()) !== 2) await sleep(20);
  expect(await quotaWait(x)).toBeGreaterThan(0);

  await until(() => onX.results.length === 2, 'the change on X', QUOTA_WAIT_SECONDS * 1000 + 5000);
  expect([onX.results, onY.results]).toEqual([
    [initial, event(minted)],
    [initial, event(minted)],
  ]);
}, 40_000);
