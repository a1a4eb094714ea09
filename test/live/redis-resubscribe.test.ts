/**
 * With REDIS_URL, a replica whose SUBSCRIBE Redis refused (an ACL without `+subscribe`) subscribes
 * again once Redis allows it: the refusal leaves its connections up, so no reconnection would ask
 * again, and the replica would poll alone and ask every upstream alone until restarted.
 */
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort, startStack, type Stack } from '../harness.js';
import { startRedis, stopRedis } from '../redis.js';

let redis: ChildProcess;
let admin: Redis;
let stack: Stack;

beforeAll(async () => {
  const port = await freePort();
  redis = await startRedis(port);
  admin = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0 });
  stack = await startStack({ REDIS_URL: `redis://127.0.0.1:${port}` });
});

afterAll(async () => {
  await stack.close();
  admin.disconnect();
  await stopRedis(redis);
});

/** The gateway's subscriptions: its live changes' channel and the flight board's. */
async function subscribers(): Promise<{ live: number; flights: number }> {
  const channels = (await admin.call('PUBSUB', 'CHANNELS', 'satgate:*')) as string[];
  const counts = channels.length ? ((await admin.call('PUBSUB', 'NUMSUB', ...channels)) as Array<string | number>) : [];
  const of = (match: RegExp) => {
    let total = 0;
    for (let i = 0; i < counts.length; i += 2) if (match.test(String(counts[i]))) total += Number(counts[i + 1]);
    return total;
  };
  return { live: of(/^satgate:v1:live:.*:changes$/), flights: of(/^satgate:v1:flights:landed$/) };
}

async function waitFor(done: () => Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; !(await done()); tries++) {
    if (tries > 500) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

const refusals = async () => Number(/errorstat_NOPERM:count=(\d+)/.exec(await admin.info('errorstats'))?.[1] ?? 0);

test('a replica refused SUBSCRIBE subscribes again once Redis allows it', async () => {
  await waitFor(async () => (await subscribers()).live === 1 && (await subscribers()).flights === 1, 'the first subscriptions');
  const before = await refusals();
  await admin.call('ACL', 'SETUSER', 'default', '-subscribe');
  try {
    await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    // Both connections reconnect and are refused.
    await waitFor(async () => (await refusals()) >= before + 2, 'both subscriptions refused');
    expect(await subscribers()).toEqual({ live: 0, flights: 0 });
  } finally {
    await admin.call('ACL', 'SETUSER', 'default', '+subscribe');
  }
  await waitFor(async () => (await subscribers()).live === 1 && (await subscribers()).flights === 1, 'the subscriptions back');
  expect(await subscribers()).toEqual({ live: 1, flights: 1 });
}, 20_000);
