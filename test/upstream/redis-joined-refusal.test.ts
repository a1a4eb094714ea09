/**
 * A client joining a call that the breaker refuses for the call's starter alone (its own failures
 * opened it) asks again as itself, as it does when the starter's share is spent. Redis is paused
 * (CLIENT PAUSE) while the starter's cache lookup waits on it, so the second client joins that
 * call for certain; the sample upstream's log shows what was sent.
 */
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort, startStack, type Stack } from '../harness.js';
import { startRedis, stopRedis } from '../redis.js';
import { fieldError } from '../support.js';

let redis: ChildProcess;
let admin: Redis;
let stack: Stack;

beforeAll(async () => {
  const port = await freePort();
  redis = await startRedis(port);
  admin = new Redis({ port, host: '127.0.0.1' });
  stack = await startStack({
    REDIS_URL: `redis://127.0.0.1:${port}`,
    BREAKER_THRESHOLD: '3',
    BREAKER_COOLDOWN_MS: '60000',
    UPSTREAM_RETRIES: '0',
    TRUST_PROXY: 'on',
  });
});

afterAll(async () => {
  await stack?.close();
  admin?.disconnect();
  if (redis) await stopRedis(redis);
});

const page = (offset: number, address: string) =>
  stack.graphql(`{ etchings(offset: ${offset}, limit: 1) { offset } }`, undefined, { 'x-forwarded-for': address });

test('a client joining the call of one the breaker refuses alone is answered as itself', async () => {
  // The upstream's proxy times out on one deep offset, which a lone client asks for: its breaker,
  // for that client alone.
  stack.sample.inject({ path: '/runes/v1/etchings', query: /offset=7777/, status: 504 });
  const [starter, joiner] = ['203.0.113.9', '198.51.100.7'];
  for (let i = 0; i < 3; i++) await page(7777, starter);
  stack.sample.clearLog();
  // Redis holds every command for 300 ms: the starter's lookup of page 1 waits in the cache while
  // the other client's request for the same page joins it.
  await admin.call('CLIENT', 'PAUSE', '300', 'ALL');
  const first = page(1, starter);
  await sleep(100);
  const second = page(1, joiner);
  expect([await first, await second]).toEqual([
    {
      status: 200,
      body: {
        data: { etchings: null },
        errors: [fieldError(['etchings'], { code: 'UPSTREAM_UNAVAILABLE', service: 'runes', retryAfter: expect.any(Number) })],
      },
    },
    { status: 200, body: { data: { etchings: { offset: 1 } } } },
  ]);
  expect(stack.upstreamCalls()).toEqual(['GET /runes/v1/etchings?offset=1&limit=1']);
});
