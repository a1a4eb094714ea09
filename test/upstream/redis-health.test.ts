/**
 * REDIS_URL: whether Redis is in use shows in /readyz (`redis`) and /metrics (satgate_redis_up)
 * against a real redis-server that is killed, brought back on its port, and frozen. /readyz stays
 * 200 throughout: the gateway serves from local state while Redis is away.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort, startStack, type Stack } from '../harness.js';
import { newPage, pauseRedis, resumeRedis, startRedis, stopRedis } from '../redis.js';

/** ioredis reconnects with up to 2 s between tries; the cache probes a frozen Redis every 2 s. */
const POLL = { timeout: 15_000, interval: 100 };

let redisPort: number;
let redis: ChildProcess;
let stack: Stack;

beforeAll(async () => {
  redisPort = await freePort();
  redis = await startRedis(redisPort);
  // A limit of its own: each client's calls are counted (in Redis, or locally while it is away).
  stack = await startStack({ REDIS_URL: `redis://127.0.0.1:${redisPort}`, CLIENT_UPSTREAM_CALLS_PER_MINUTE: '1000' });
});

afterAll(async () => {
  await stack?.close();
  if (redis) {
    resumeRedis(redis);
    if (redis.exitCode === null && redis.signalCode === null) await stopRedis(redis);
  }
});

/** /readyz's status, its readiness and its `redis`, and its body's text (searched for the URL). */
async function readyz() {
  const response = await fetch(`${stack.gatewayUrl}/readyz`);
  const text = await response.text();
  const body = JSON.parse(text) as { status: string; redis?: unknown };
  expect(text).not.toContain(String(redisPort));
  return { status: response.status, readiness: body.status, redis: body.redis };
}

async function redisUp(): Promise<string[]> {
  const text = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
  return text.split('\n').filter((line) => line.startsWith('satgate_redis_up'));
}

/** satgate_redis_fallbacks_total by use. */
async function fallbacks(): Promise<Record<string, number>> {
  const text = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
  return Object.fromEntries(
    [...text.matchAll(/^satgate_redis_fallbacks_total\{use="(\w+)"\} (\d+)$/gm)].map(([, use, n]) => [use!, Number(n)]),
  );
}

const ready = { status: 200, readiness: 'ready', redis: { status: 'ready' } };

test('with Redis up: ready, and satgate_redis_up 1', async () => {
  await expect.poll(readyz, POLL).toEqual(ready);
  expect(await redisUp()).toEqual(['satgate_redis_up 1']);
});

test('Redis killed: unavailable (disconnected), satgate_redis_up 0, and /readyz still 200', async () => {
  await stopRedis(redis);
  await expect.poll(readyz, POLL).toEqual({ status: 200, readiness: 'ready', redis: { status: 'unavailable', reason: 'disconnected' } });
  expect(await redisUp()).toEqual(['satgate_redis_up 0']);
  // Still serving, from the upstream: its cache read and its client's call count decided locally.
  const before = await fallbacks();
  expect((await stack.graphql(newPage(1))).status).toBe(200);
  expect(await fallbacks()).toEqual({ cache: (before.cache ?? 0) + 1, client_calls: (before.client_calls ?? 0) + 1 });
});

test('Redis back on its port: ready again once ioredis reconnects', async () => {
  redis = await startRedis(redisPort);
  await expect.poll(readyz, POLL).toEqual(ready);
  expect(await redisUp()).toEqual(['satgate_redis_up 1']);
});

test('Redis frozen: unavailable (failing) once a command times out; ready after it answers a probe', async () => {
  pauseRedis(redis);
  // A page not held in process: its cache read goes to Redis, and times out.
  expect((await stack.graphql(newPage(2))).status).toBe(200);
  await expect.poll(readyz, POLL).toEqual({ status: 200, readiness: 'ready', redis: { status: 'unavailable', reason: 'failing' } });
  expect(await redisUp()).toEqual(['satgate_redis_up 0']);
  resumeRedis(redis);
  await expect.poll(readyz, POLL).toEqual(ready);
  expect(await redisUp()).toEqual(['satgate_redis_up 1']);
});

test('without REDIS_URL: no `redis` in /readyz, no satgate_redis_up', async () => {
  const plain = await startStack();
  try {
    const body = (await (await fetch(`${plain.gatewayUrl}/readyz`)).json()) as Record<string, unknown>;
    const metrics = await (await fetch(`${plain.gatewayUrl}/metrics`)).text();
    expect([Object.keys(body), metrics.includes('satgate_redis_up')]).toEqual([['status', 'services'], false]);
  } finally {
    await plain.close();
  }
});
