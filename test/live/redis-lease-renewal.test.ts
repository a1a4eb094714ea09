/**
 * With REDIS_URL, the lease of a watched resource is renewed as often as its current poll interval
 * asks: when the interval shrinks (a replica stops watching most of its resources), the lease's
 * shorter TTL does not lapse between renewals kept at the old interval's pace, so no second
 * replica takes it while the first still polls. Each replica asks with its own API key, so the
 * sample upstream's request log says which one polled.
 */
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSampleUpstream, type SampleUpstream } from '../../src/sample/server.js';
import { freePort, startStack, type Stack } from '../harness.js';
import { TOKEN_SUBSCRIPTION, disposeAll, tokenPath, until, ws, wsClient } from '../live-clients.js';
import { startRedis, stopRedis } from '../redis.js';

const KEY_A = 'replica-a-key-5d1f0c';
const KEY_B = 'replica-b-key-93e7aa';
/**
 * Resources A watches besides pepe: with them, A's interval is 30 × 200 ms, its lease's renewal
 * every 2 s. Alone, 600 ms: a TTL of 300 ms renewed every 200 ms, which a loaded machine's stalls
 * of up to 100 ms do not lapse.
 */
const OTHERS = Array.from({ length: 29 }, (_, i) => `zl${String(i).padStart(2, '0')}`);
let redis: ChildProcess;
let sample: SampleUpstream;
let a: Stack;
let b: Stack;

beforeAll(async () => {
  const port = await freePort();
  redis = await startRedis(port);
  sample = await startSampleUpstream();
  const env = {
    REDIS_URL: `redis://127.0.0.1:${port}`,
    LIVE_POLL_INTERVAL_MS: '600',
    // A plan of 300 polls a minute: each watched resource stretches the interval by 200 ms.
    LIVE_RATE_LIMIT_PER_MINUTE: '600',
    LIVE_QUOTA_SHARE: '0.5',
    CLIENT_UPSTREAM_CALLS_PER_MINUTE: '0',
  };
  a = await startStack({ ...env, HIRO_API_KEY: KEY_A }, { upstream: sample });
  b = await startStack({ ...env, HIRO_API_KEY: KEY_B }, { upstream: sample });
});

afterAll(async () => {
  await disposeAll();
  await a?.close();
  await b?.close();
  await sample?.close();
  if (redis) await stopRedis(redis);
});

/** Which replica sent each poll of pepe since `from` (an index in the request log), in order. */
const pepePollers = (from: number) =>
  sample.requests
    .slice(from)
    .filter((r) => r.path === tokenPath('pepe'))
    .map((r) => (r.headers['x-api-key'] === KEY_A ? 'A' : 'B'));

test('a replica whose interval shrinks keeps its lease: the other replica does not poll beside it', async () => {
  const clientA = wsClient(a.gatewayUrl, '198.51.100.1');
  const others = OTHERS.map((ticker) => ws(clientA, TOKEN_SUBSCRIPTION(ticker)));
  await until(() => others.every((w) => w.results.length > 0), "the others' first values");
  // A watches pepe last, its interval long: it takes the lease, renewed at that interval's pace.
  const onA = ws(clientA, TOKEN_SUBSCRIPTION('pepe'));
  await until(() => onA.results.length > 0, 'the first value on A');
  const onB = ws(wsClient(b.gatewayUrl, '198.51.100.2'), TOKEN_SUBSCRIPTION('pepe'));
  await until(() => onB.results.length > 0, 'the first value on B');

  // A stops watching the others: its interval shrinks to 600 ms, and with it the lease's TTL.
  const from = sample.requests.length;
  for (const watch of others) watch.stop();
  await until(() => a.gateway.live.watched === 1, 'A to watch pepe alone');
  await until(() => pepePollers(from).length > 0, "A's first poll at the short interval", 8000);
  // Three renewal periods of the long interval: the lease lapsed in each, before the next renewal.
  await sleep(6500);

  // Before: A's lease lapsed between renewals, B took it while A still believed it held it, and
  // both polled pepe (A, B, A, B, ...) until A's next renewal. Now A keeps it; a lease that passes
  // on (a timer late on a loaded machine) passes once.
  const pollers = pepePollers(from);
  const turns = pollers.filter((poller, i) => i === 0 || pollers[i - 1] !== poller);
  expect(turns.length).toBeLessThanOrEqual(2);
  expect(pollers.length).toBeGreaterThanOrEqual(8);
  expect([onA.results, onB.results]).toEqual([
    [{ data: { brc20Token: { token: { ticker: 'pepe' } } } }],
    [{ data: { brc20Token: { token: { ticker: 'pepe' } } } }],
  ]);
}, 40_000);
