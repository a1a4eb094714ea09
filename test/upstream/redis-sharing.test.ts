/**
 * REDIS_URL, what gateways share and what they must not: the client hash secret stays one for the
 * group when Redis restarts empty or loses the key (a gateway that lived through the restart puts its secret back,
 * so one started after it counts the same client under the same key), gateways over different
 * upstreams never serve each other's stored answers, and what an operator reads when Redis is full
 * or refuses the credentials.
 */
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, expect, test } from 'vitest';
import { shareHashSecret } from '../../src/upstream/hash-secret.js';
import { freePort, startStack, type Stack } from '../harness.js';
import { listCall } from '../profiles.js';
import { newPage, startRedis, stopRedis, untilStoring } from '../redis.js';

const KEY = 'satgate:v1:hash-secret';
const stacks: Stack[] = [];
const servers: ChildProcess[] = [];
const clients: Redis[] = [];
let redis: ChildProcess | undefined;
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await Promise.all(stacks.map((stack) => stack.close()));
  for (const server of [...servers, redis]) if (server && server.exitCode === null) await stopRedis(server);
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read().catch(() => undefined as T);
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The shared secret, once it is in Redis again. */
const secretPutBack = (client: Redis) =>
  until(
    () => client.get(KEY),
    (value) => value !== null,
    'the secret put back',
  );

/** A redis-server of the test's own, and a client of it (disconnected after the suite). */
async function freshRedis(): Promise<{ url: string; client: Redis }> {
  const port = await freePort();
  servers.push(await startRedis(port));
  const client = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0 });
  client.on('error', () => {});
  clients.push(client);
  return { url: `redis://127.0.0.1:${port}`, client };
}

const token = (stack: Stack, ticker: string) =>
  stack.graphql(`{ brc20Token(ticker: "${ticker}") { token { ticker } } }`).then(({ body }) => body.errors?.[0]?.extensions?.code ?? 'ok');

test('a gateway started after Redis restarted empty counts a client with those that lived through it', async () => {
  const port = await freePort();
  const env = { REDIS_URL: `redis://127.0.0.1:${port}`, CLIENT_UPSTREAM_CALLS_PER_MINUTE: '3' };
  redis = await startRedis(port);
  const client = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0, lazyConnect: true });
  client.on('error', () => {});
  try {
    const first = await startStack(env);
    stacks.push(first);
    const secret = await until(() => client.get(KEY), Boolean, 'the shared secret');

    await stopRedis(redis);
    redis = await startRedis(port);
    // The surviving gateway reconnects and puts its secret back.
    expect(await secretPutBack(client)).toBe(secret);

    expect([await token(first, 'ordi'), await token(first, 'pepe'), await token(first, 'sats')]).toEqual(['ok', 'ok', 'ok']);
    const second = await startStack(env);
    stacks.push(second);
    expect(await token(second, 'rats')).toBe('RATE_LIMITED');
  } finally {
    client.disconnect();
  }
});

test('a secret Redis lost without a restart (FLUSHALL, an eviction) is put back by the processes that use it', async () => {
  const { url, client } = await freshRedis();
  const connection = new Redis(url, { maxRetriesPerRequest: 0 });
  connection.on('error', () => {});
  clients.push(connection);
  const shared = shareHashSecret(connection, pino({ level: 'silent' }), 100);
  try {
    await shared.ready;
    const secret = await until(() => client.get(KEY), Boolean, 'the shared secret');
    await client.flushall();
    expect(await secretPutBack(client)).toBe(secret);
  } finally {
    shared.close();
  }
});

test('gateways sharing a Redis but not an upstream each ask their own for the same path', async () => {
  const { url, client } = await freshRedis();
  // Each stack has an upstream of its own (staging beside production, or hiro beside an indexer).
  const env = { REDIS_URL: url, CACHE_TTL_MS: '60000' };
  const [one, other] = [await startStack(env), await startStack(env)];
  stacks.push(one, other);
  await untilStoring(client, (n) => one.graphql(newPage(n)));
  const stored = await client.dbsize();
  expect(await token(one, 'ordi')).toBe('ok');
  await until(
    () => client.dbsize(),
    (size) => size > stored,
    "the first gateway's answer in Redis",
  );
  other.sample.clearLog();
  expect(await token(other, 'ordi')).toBe('ok');
  expect(other.upstreamCalls()).toEqual([listCall(['ordi'])]);
});

test('a Redis out of memory is one outage, logged once, until it takes writes again', async () => {
  const { url, client } = await freshRedis();
  const stack = await startStack({ REDIS_URL: url, CACHE_TTL_MS: '60000' });
  stacks.push(stack);
  await untilStoring(client, (n) => stack.graphql(newPage(n)));
  const outageLines = () =>
    stack.logs
      .map((line) => (JSON.parse(line) as { msg: string }).msg)
      .filter((msg) => /^Redis cache (unavailable|available again)/.test(msg));
  // Full, and evicting nothing: every write is refused, while PING is still answered.
  await client.config('SET', 'maxmemory', '1024');
  for (let n = 0; n < 5; n++) {
    await stack.graphql(newPage(100 + n));
    await sleep(1_000);
  }
  expect(outageLines()).toEqual(['Redis cache unavailable: serving from the upstream']);
  await client.config('SET', 'maxmemory', '0');
  await until(
    async () => outageLines().length,
    (count) => count === 2,
    'the end of the outage',
  );
  expect(outageLines()).toEqual(['Redis cache unavailable: serving from the upstream', 'Redis cache available again']);
});

test('a REDIS_URL whose credentials Redis refuses is said once, as such, without the password; requests are served', async () => {
  const { url, client } = await freshRedis();
  await client.config('SET', 'requirepass', 'right-secret-7d1e');
  const stack = await startStack({ REDIS_URL: url.replace('//', '//:wrong-secret-9c2a@') });
  stacks.push(stack);
  expect(await token(stack, 'ordi')).toBe('ok');
  await sleep(1_000); // ioredis retries meanwhile: still one line
  const lines = stack.logs.map((line) => JSON.parse(line) as { msg: string });
  expect(lines.filter((line) => line.msg.startsWith('Redis refused'))).toEqual([
    {
      app: 'satgate',
      level: 'error',
      msg: 'Redis refused the credentials of REDIS_URL: serving without it',
      err: 'WRONGPASS invalid username-password pair or user is disabled.',
      pid: process.pid,
      time: expect.any(String),
    },
  ]);
  expect(stack.logs.filter((line) => line.includes('secret-'))).toEqual([]);
});
