/**
 * Subscriptions across replicas sharing a real redis-server: one replica polls each watched
 * resource (a lease), changes reach the other replica's subscribers through pub/sub, and when the
 * polling replica is killed the other takes its lease over within an interval.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createClient } from 'graphql-sse';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSampleUpstream, type SampleUpstream } from '../../src/sample/server.js';
import { findBrc20Token } from '../../src/sample/data.js';
import { freePort, startStack, type Stack } from '../harness.js';
import { startRedis, stopRedis } from '../redis.js';
import { toBrc20 } from '../support.js';

const INTERVAL_MS = 200;
const QUERY = 'subscription { brc20Token(ticker: "pepe") { token { ticker mintedSupply txCount } } }';
const TOKEN_PATH = '/ordinals/v1/brc-20/tokens/pepe';

let redisPort: number;
let redis: ChildProcess;
let sample: SampleUpstream;
let gatewayA: ChildProcess;
let portA: number;
let b: Stack;
/** Both replicas' settings: one Redis, one upstream, polls every INTERVAL_MS. */
let env: Record<string, string>;
const clients: Array<{ dispose(): void }> = [];

beforeAll(async () => {
  redisPort = await freePort();
  redis = await startRedis(redisPort);
  sample = await startSampleUpstream();
  env = {
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    HIRO_API_URL: sample.url,
    HIRO_PLATFORM_URL: sample.url,
    LIVE_POLL_INTERVAL_MS: String(INTERVAL_MS),
    LIVE_RATE_LIMIT_PER_MINUTE: '0',
    CACHE_TTL_MS: '0',
    UPSTREAM_RETRIES: '0',
  };
  // Replica A in its own process, so that it can die without saying goodbye.
  portA = await freePort();
  const main = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
  gatewayA = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, ...env, PORT: String(portA), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  b = await startStack(env);
  for (let attempt = 0; attempt < 100; attempt++) {
    if (
      await fetch(`http://127.0.0.1:${portA}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await sleep(100);
  }
}, 30_000);

afterAll(async () => {
  clients.forEach((c) => c.dispose());
  gatewayA.kill('SIGKILL');
  await b.close();
  await sample.close();
  await stopRedis(redis);
});

function watch(url: string) {
  const client = createClient({ url: `${url}/graphql`, retryAttempts: 0 });
  clients.push(client);
  const results: unknown[] = [];
  const iterator = client.iterate({ query: QUERY });
  void (async () => {
    try {
      for await (const result of iterator) results.push(result);
    } catch {
      // the replica died
    }
  })();
  return results;
}

async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const polls = () => sample.requests.filter((r) => r.path === TOKEN_PATH).length;
const event = (details: ReturnType<typeof findBrc20Token>) => {
  const { token } = toBrc20(details!);
  return { data: { brc20Token: { token: { ticker: token.ticker, mintedSupply: token.mintedSupply, txCount: token.txCount } } } };
};

test('two replicas poll once between them, both hear every change, and a dead poller is replaced within an interval', async () => {
  const onA = watch(`http://127.0.0.1:${portA}`);
  await until(() => onA.length === 1, 'the first event on A');
  await sleep(3 * INTERVAL_MS); // A holds the lease
  const onB = watch(b.gatewayUrl);
  await until(() => onB.length === 1, 'the first event on B');
  expect([onA, onB]).toEqual([[event(findBrc20Token('pepe'))], [event(findBrc20Token('pepe'))]]);

  // Both replicas watch the token: the upstream is polled about once an interval, not twice.
  const before = polls();
  const started = Date.now();
  await sleep(10 * INTERVAL_MS);
  const ticks = (Date.now() - started) / INTERVAL_MS;
  expect(polls() - before).toBeLessThanOrEqual(Math.ceil(ticks) + 2);
  expect(polls() - before).toBeGreaterThanOrEqual(3);

  // A change reaches the subscribers of both replicas.
  const minted = sample.activity.mint('pepe');
  await until(() => onA.length === 2 && onB.length === 2, 'the change on both replicas');
  expect([onA[1], onB[1]]).toEqual([event(minted), event(minted)]);

  // A dies holding the lease: B takes over within an interval and keeps its subscriber informed.
  gatewayA.kill('SIGKILL');
  const killed = Date.now();
  const atDeath = polls();
  await until(() => polls() > atDeath + 1, 'polling by B', 3000);
  expect(Date.now() - killed).toBeLessThan(3 * INTERVAL_MS + 500);
  const again = sample.activity.mint('pepe');
  await until(() => onB.length === 3, 'the next change on B');
  expect(onB[2]).toEqual(event(again));
}, 30_000);

test('a replica that takes its data elsewhere neither hears the others nor leaves its polling to them', async () => {
  // B (still up) watches pepe at `sample`; C asks another upstream, through the same Redis.
  const onB = watch(b.gatewayUrl);
  await until(() => onB.length === 1, 'the first event on B');
  const elsewhere = await startSampleUpstream();
  const c = await startStack({
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    HIRO_API_URL: elsewhere.url,
    LIVE_POLL_INTERVAL_MS: String(INTERVAL_MS),
    LIVE_RATE_LIMIT_PER_MINUTE: '0',
    CACHE_TTL_MS: '0',
    UPSTREAM_RETRIES: '0',
  });
  try {
    const onC = watch(c.gatewayUrl);
    await until(() => onC.length === 1, 'the first event on C');
    const pollsOfC = () => elsewhere.requests.filter((r) => r.path === TOKEN_PATH).length;
    const before = pollsOfC();
    sample.activity.mint('pepe');
    await until(() => onB.length === 2, 'the change on B');
    await sleep(10 * INTERVAL_MS);
    // C polled its own upstream all along, and heard nothing of `sample`'s mint.
    expect(pollsOfC() - before).toBeGreaterThanOrEqual(3);
    expect(onC).toHaveLength(1);
    const minted = elsewhere.activity.mint('pepe');
    await until(() => onC.length === 2, 'the change on C');
    expect(onC[1]).toEqual(event(minted));
  } finally {
    await c.close();
    await elsewhere.close();
  }
}, 30_000);

test('etchingAdded on a replica without the lease starts from its own poll after the join', async () => {
  const env = {
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    HIRO_API_URL: sample.url,
    HIRO_PLATFORM_URL: sample.url,
    // Polls far apart: the polling replica's last answer is well older than a join.
    LIVE_POLL_INTERVAL_MS: '1000',
    LIVE_RATE_LIMIT_PER_MINUTE: '0',
    CACHE_TTL_MS: '0',
    UPSTREAM_RETRIES: '0',
  };
  const x = await startStack(env, { upstream: sample });
  const y = await startStack(env, { upstream: sample });
  const query = 'subscription { etchingAdded { runeId name } }';
  const etchingsWatch = (stack: Stack) => {
    const client = createClient({ url: `${stack.gatewayUrl}/graphql`, retryAttempts: 0 });
    clients.push(client);
    const results: unknown[] = [];
    void (async () => {
      try {
        for await (const result of client.iterate({ query })) results.push(result);
      } catch {
        // the replica closed
      }
    })();
    return results;
  };
  /** How many etchings polls `stack` answered with `outcome` (changed, unchanged). */
  const answered = async (stack: Stack, outcome: string) => {
    const metrics = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
    const line = new RegExp(`^satgate_live_polls_total\\{resource="etchings",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(metrics);
    return Number(line?.[1] ?? 0);
  };
  const untilAnswered = async (stack: Stack, outcome: string, count: number) => {
    for (let tries = 0; (await answered(stack, outcome)) < count; tries++) {
      if (tries > 500) throw new Error(`timed out waiting for ${count} ${outcome} polls`);
      await sleep(10);
    }
  };
  try {
    // X watches first and takes the lease; Y asks only for its first value.
    const onX = etchingsWatch(x);
    await untilAnswered(x, 'changed', 1);
    const onY = etchingsWatch(y);
    await untilAnswered(y, 'changed', 1);
    // Right after one of X's polls, an etching, then a second subscriber on Y.
    const polled = await answered(x, 'unchanged');
    await untilAnswered(x, 'unchanged', polled + 1);
    const [before] = sample.activity.etch(1);
    const late = etchingsWatch(y);
    await until(() => onX.length === 1 && onY.length === 1, 'the earlier etching, on both replicas');
    const [after] = sample.activity.etch(1);
    await until(() => onX.length === 2 && onY.length === 2 && late.length >= 1, 'the later etching, to everyone');
    const event = (etching: typeof before) => ({ data: { etchingAdded: { runeId: etching!.id, name: etching!.name } } });
    expect([onX, onY, late]).toEqual([[event(before), event(after)], [event(before), event(after)], [event(after)]]);
  } finally {
    await x.close();
    await y.close();
    sample.activity.reset();
  }
}, 30_000);

test('a replica whose pub/sub connection is cut polls alone, so its subscribers still get the change it could not hear', async () => {
  const x = await startStack(env, { upstream: sample });
  const y = await startStack(env, { upstream: sample });
  const admin = new Redis({ port: redisPort, host: '127.0.0.1', maxRetriesPerRequest: 0 });
  try {
    const onX = watch(x.gatewayUrl);
    await until(() => onX.length === 1, 'the first event on X');
    await sleep(3 * INTERVAL_MS); // X holds the lease
    const onY = watch(y.gatewayUrl);
    await until(() => onY.length === 1, 'the first event on Y');
    // Redis now refuses SUBSCRIBE and drops both subscriber connections: no replica hears X's
    // change through pub/sub, whether it is published before or after they reconnect.
    await admin.call('ACL', 'SETUSER', 'default', '-subscribe');
    await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    const minted = sample.activity.mint('pepe');
    await until(() => onX.length === 2 && onY.length === 2, 'the change on both replicas');
    expect([onX, onY]).toEqual([
      [event(findBrc20Token('pepe')), event(minted)],
      [event(findBrc20Token('pepe')), event(minted)],
    ]);
  } finally {
    await admin.call('ACL', 'SETUSER', 'default', '+subscribe');
    admin.disconnect();
    await x.close();
    await y.close();
  }
}, 30_000);
