// Poll intervals are fair by client: with a known rate limit each client gives each resource it
// watches a weight of 1 / the number it watches, and the plan is split by weight, so one client
// watching many tickers (unknown ones included) slows only its own subscriptions, not another's.
// Real graphql-sse and graphql-ws clients, told apart by X-Forwarded-For (TRUST_PROXY=1); the
// sample upstream's request log says what was polled.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startStack, type Stack } from '../harness.js';
import { TOKEN_SUBSCRIPTION, disposeAll, sse, tokenPath, until, ws, wsClient } from '../live-clients.js';

const VICTIM = '198.51.100.7';
const MANY = '203.0.113.9';
/** MAX_WATCHED_RESOURCES_PER_CLIENT's default: as many unknown tickers as one client may watch. */
const UNKNOWN = Array.from({ length: 50 }, (_, i) => `zf${String(i).padStart(2, '0')}`);
const WINDOW_MS = 3000;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    TRUST_PROXY: '1',
    LIVE_POLL_INTERVAL_MS: '500',
    // A plan of 600 polls a minute. Before, one interval for all 51 resources: 5.1 s. Now ordi
    // weighs 1 and the 50 others 1/50 each: half the plan is ordi's (at most every 500 ms), half
    // the others', with what ordi leaves: each ticker every 6.25 s.
    LIVE_RATE_LIMIT_PER_MINUTE: '3000',
    LIVE_QUOTA_SHARE: '0.2',
    CLIENT_UPSTREAM_CALLS_PER_MINUTE: '0',
  });
});

afterAll(async () => {
  await disposeAll();
  await stack?.close();
});

/** How many times each path was polled since `from` (an index in the request log). */
const pollsSince = (from: number) => {
  const counts: Record<string, number> = {};
  for (const { path } of stack.sample.requests.slice(from)) counts[path] = (counts[path] ?? 0) + 1;
  return counts;
};

test("one client watching 50 unknown tickers does not stretch another client's interval", async () => {
  const victim = sse(stack.gatewayUrl, TOKEN_SUBSCRIPTION('ordi'), VICTIM);
  await until(() => victim.results.length > 0, "the victim's first value");
  const many = wsClient(stack.gatewayUrl, MANY);
  const watches = UNKNOWN.map((ticker) => ws(many, TOKEN_SUBSCRIPTION(ticker)));
  await until(() => watches.every((w) => w.results.length > 0), "the other client's first values");

  const from = stack.sample.requests.length;
  await sleep(WINDOW_MS);
  const polls = pollsSince(from);
  const ordi = polls[tokenPath('ordi')] ?? 0;
  // Before: ordi every 5.1 s, at most once in the window. Now every 500 ms: 6 times, give or take
  // a loaded machine's late timers, and never more often than LIVE_POLL_INTERVAL_MS.
  expect(ordi).toBeGreaterThanOrEqual(3);
  expect(ordi).toBeLessThanOrEqual(WINDOW_MS / 500 + 1);
  // The other client's tickers share its half: each at most once in the window.
  expect(UNKNOWN.filter((ticker) => (polls[tokenPath(ticker)] ?? 0) > 1)).toEqual([]);
  expect([victim.results, victim.completed]).toEqual([[{ data: { brc20Token: { token: { ticker: 'ordi' } } } }], false]);
  expect(watches.map((w) => [w.results, w.completed])).toEqual(UNKNOWN.map(() => [[{ data: { brc20Token: null } }], false]));
}, 30_000);
