/**
 * With REDIS_URL, each resource's lease follows that resource's own poll interval: a ticker one
 * client watches alone keeps a short lease, and the 29 tickers another client shares its part of
 * the plan between keep long ones. One interval for the process (the last any poller led with)
 * gave the 29 the short lease, renewed every 200 ms, and could give the short one a lease that
 * outlives a dead replica by seconds. The leases' TTLs are read from Redis itself.
 */
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort, startStack, type Stack } from '../harness.js';
import { TOKEN_SUBSCRIPTION, disposeAll, sse, until, ws, wsClient } from '../live-clients.js';
import { startRedis, stopRedis } from '../redis.js';

const OTHERS = Array.from({ length: 29 }, (_, i) => `zi${String(i).padStart(2, '0')}`);
let redis: ChildProcess;
let admin: Redis;
let stack: Stack;

beforeAll(async () => {
  const port = await freePort();
  redis = await startRedis(port);
  admin = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0 });
  stack = await startStack({
    TRUST_PROXY: '1',
    REDIS_URL: `redis://127.0.0.1:${port}`,
    LIVE_POLL_INTERVAL_MS: '600',
    // A plan of 300 polls a minute. The 29 others alone: every 5.8 s (a lease of 2.9 s). Then half
    // each client's: ordi every 600 ms (a lease of 300 ms), each of the others, with what ordi
    // leaves of its half, every 8.7 s (a lease of 4.35 s).
    LIVE_RATE_LIMIT_PER_MINUTE: '600',
    LIVE_QUOTA_SHARE: '0.5',
    CLIENT_UPSTREAM_CALLS_PER_MINUTE: '0',
  });
});

afterAll(async () => {
  await disposeAll();
  await stack?.close();
  admin?.disconnect();
  if (redis) await stopRedis(redis);
});

test("each resource's lease lasts half its own poll interval", async () => {
  const many = wsClient(stack.gatewayUrl, '198.51.100.2');
  const others = OTHERS.map((ticker) => ws(many, TOKEN_SUBSCRIPTION(ticker)));
  await until(() => others.every((w) => w.results.length > 0), "the others' first values");
  // Past the first ticker's first polls, made while the others were still joining (at 600 ms then).
  await sleep(1000);
  const one = sse(stack.gatewayUrl, TOKEN_SUBSCRIPTION('ordi'), '198.51.100.1');
  await until(() => one.results.length > 0, "ordi's first value");
  // Several of ordi's polls and the leases' renewals since.
  await sleep(1000);

  const leases = async () => {
    const keys = await admin.keys('satgate:v1:live:*:lease:*');
    const counts = { short: 0, long: 0 };
    for (const ttl of await Promise.all(keys.map((key) => admin.pttl(key)))) counts[ttl > 300 ? 'long' : 'short']++;
    return counts;
  };
  // ordi's lease is renewed every 200 ms for 300: a stall of the loaded machine may let it lapse
  // for a moment before the next renewal takes it again. Only then (a lease missing) is it read
  // again, a few times.
  let counts = await leases();
  for (let i = 0; i < 10 && counts.short + counts.long < OTHERS.length + 1; i++) {
    await sleep(50);
    counts = await leases();
  }
  expect(counts).toEqual({ short: 1, long: 29 });
  expect([one.results, others.map((w) => w.results)]).toEqual([
    [{ data: { brc20Token: { token: { ticker: 'ordi' } } } }],
    OTHERS.map(() => [{ data: { brc20Token: null } }]),
  ]);
}, 30_000);
