/**
 * Breaker openings shared through a real redis-server by two replicas over one upstream: an
 * opening by several clients' failures reaches the replica that served nobody since, which then
 * fails fast without calling; one client's opening stays where it happened; and both close again
 * once the service is back.
 */
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSampleUpstream, type SampleUpstream } from '../../src/sample/server.js';
import { freePort, startStack, type Stack } from '../harness.js';
import { startRedis, stopRedis } from '../redis.js';
import { fieldError } from '../support.js';

let redis: ChildProcess;
let sample: SampleUpstream;
let a: Stack;
let b: Stack;

beforeAll(async () => {
  const port = await freePort();
  redis = await startRedis(port);
  sample = await startSampleUpstream();
  // A cooldown well past the shared state's half-second tick: B takes the opening before it ends.
  const env = { REDIS_URL: `redis://127.0.0.1:${port}`, BREAKER_THRESHOLD: '2', BREAKER_COOLDOWN_MS: '5000', TRUST_PROXY: 'on' };
  a = await startStack(env, { upstream: sample });
  b = await startStack(env, { upstream: sample });
});

afterAll(async () => {
  await a.close();
  await b.close();
  await sample.close();
  await stopRedis(redis);
});

const ask = (stack: Stack, field: string, address: string) =>
  stack.graphql(`{ ${field} { __typename } }`, undefined, { 'x-forwarded-for': address }).then(({ body }) => body);
const TOKEN = 'brc20Token(ticker: "ordi")';
const ETCHINGS = 'etchings(limit: 1)';
const breakers = async (stack: Stack) => {
  const { services } = (await (await fetch(`${stack.gatewayUrl}/readyz`)).json()) as { services: Record<string, { breaker: string }> };
  return { ordinals: services.ordinals!.breaker, runes: services.runes!.breaker };
};
async function until(stack: Stack, done: (states: { ordinals: string; runes: string }) => boolean) {
  while (!done(await breakers(stack))) await sleep(50);
}

test("one client's opening stays on its replica; several clients' reaches the other, which fails fast until the service is back", async () => {
  sample.inject({ path: '/runes/*', status: 503 });
  sample.inject({ path: '/ordinals/*', status: 503 });
  // One client alone fails twice at runes on A: A's breaker, for that client, not B's.
  await ask(a, ETCHINGS, '203.0.113.1');
  await ask(a, ETCHINGS, '203.0.113.1');
  // Two clients fail at ordinals on A: the service is down for everyone A serves.
  await ask(a, TOKEN, '203.0.113.1');
  await ask(a, TOKEN, '203.0.113.2');
  // A's runes breaker refuses that one client only: to every other it reads half-open.
  expect(await breakers(a)).toEqual({ ordinals: 'open', runes: 'half-open' });
  await until(b, (states) => states.ordinals === 'open');
  expect(await breakers(b)).toEqual({ ordinals: 'open', runes: 'closed' });

  // B refuses a client of its own at once, without calling the service.
  sample.clearLog();
  expect(await ask(b, TOKEN, '198.51.100.7')).toEqual({
    data: { brc20Token: null },
    errors: [fieldError(['brc20Token'], { code: 'UPSTREAM_UNAVAILABLE', service: 'ordinals', retryAfter: expect.any(Number) })],
  });
  expect(sample.requests).toEqual([]);

  // Back up: once the cooldown has passed, the next request on each replica probes, and is served.
  sample.clearFaults();
  await until(a, (states) => states.ordinals === 'half-open');
  await until(b, (states) => states.ordinals === 'half-open');
  const served = { data: { brc20Token: { __typename: 'Brc20TokenDetails' } } };
  expect([await ask(a, TOKEN, '198.51.100.7'), await ask(b, TOKEN, '198.51.100.8')]).toEqual([served, served]);
  expect([(await breakers(a)).ordinals, (await breakers(b)).ordinals]).toEqual(['closed', 'closed']);
}, 20_000);
