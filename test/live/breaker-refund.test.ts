/**
 * A live poll the circuit breaker refuses after the polling plan admitted it (its half-open probe
 * in flight for another client's query) sends nothing upstream: its place in the plan, and in its
 * client's share of the plan, is given back, as for a poll refused by the client's call limit, and
 * the poll pauses as it would have before admission. One whose first attempt reached the upstream
 * and whose retry the breaker refused keeps its place. The sample upstream's request log says what
 * reached it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';
import { startStack, type Stack } from '../harness.js';
import { TOKEN_SUBSCRIPTION, disposeAll, from, sse, tokenPath, until } from '../live-clients.js';

const X = '198.51.100.1';
const QUERY = (ticker: string) => `{ brc20Token(ticker: ${JSON.stringify(ticker)}) { token { ticker } } }`;
const token = (ticker: string) => ({ data: { brc20Token: { token: { ticker } } } });
let stack: Stack;

/** A gateway whose plan admits 2 polls a minute, of which a client may hold 1; no re-polls during a test. */
const startPlanned = (env: Record<string, string>) =>
  startStack({
    LIVE_POLL_INTERVAL_MS: '600000',
    LIVE_RATE_LIMIT_PER_MINUTE: '4',
    LIVE_QUOTA_SHARE: '0.5',
    CLIENT_UPSTREAM_CALLS_PER_MINUTE: '0',
    TRUST_PROXY: '1',
    // brc20Token queries ask each token's own route, as the subscriptions do.
    BRC20_LIST_LOOKUPS: 'off',
    ...env,
  });

afterEach(async () => {
  await disposeAll();
  await stack.close();
});

const breaker = async () =>
  ((await (await fetch(`${stack.gatewayUrl}/readyz`)).json()) as { services: { ordinals: { breaker: string } } }).services.ordinals.breaker;
const polls = async (outcome: string) => {
  const metrics = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
  return Number(new RegExp(`^satgate_live_polls_total\\{resource="brc20",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
};
/** Polls that ended without an answer: paused (refused before any call) or failed. */
const unanswered = async () => (await polls('paused')) + (await polls('error'));
const paths = () => stack.sample.requests.map((r) => r.path);

it("a poll the breaker refuses after its admission gives its place back: the client's next first poll goes at once", async () => {
  stack = await startPlanned({ BREAKER_THRESHOLD: '2', BREAKER_COOLDOWN_MS: '300', UPSTREAM_TIMEOUT_MS: '5000' });
  // Two clients' queries fail: the breaker opens for everyone; after its cooldown the gateway probes it.
  stack.sample.inject({ path: tokenPath('ordi'), status: 503, times: 2 });
  await stack.graphql(QUERY('ordi'), undefined, from('203.0.113.1'));
  await stack.graphql(QUERY('ordi'), undefined, from('203.0.113.2'));
  await until(() => paths().length === 2, 'the two failures');
  let state = await breaker();
  while (state === 'open') {
    await sleep(10);
    state = await breaker();
  }
  expect(state).toBe('half-open');

  // A query has the gateway probe the service, which is slow to answer. Meanwhile X subscribes: its
  // first poll, admitted (a half-open breaker may let it through), meets the breaker busy with
  // another client's probe and sends nothing.
  stack.sample.inject({ path: tokenPath('ordi'), delayMs: 3000, times: 1 });
  const probe = stack.graphql(QUERY('sats'), undefined, from('203.0.113.3'));
  await until(() => paths().length === 3, 'the probe at the upstream');
  const pepe = sse(stack.gatewayUrl, TOKEN_SUBSCRIPTION('pepe'), X);
  while ((await unanswered()) === 0) await sleep(10);
  expect(await probe).toEqual({ status: 200, body: token('sats') });
  expect(await breaker()).toBe('closed');

  // X's next new resource: its share of the plan (1 poll a minute) was not spent by a poll that
  // sent nothing. Before: it waited for the refused poll's minute to pass.
  const ordi = sse(stack.gatewayUrl, TOKEN_SUBSCRIPTION('ordi'), X);
  await until(() => ordi.results.length > 0, "the first value of X's second resource");
  expect([ordi.results, pepe.results]).toEqual([[token('ordi')], []]);
  // The probe is ordi's lookup, the first BRC-20 token's.
  expect(paths()).toEqual([tokenPath('ordi'), tokenPath('ordi'), tokenPath('ordi'), tokenPath('sats'), tokenPath('ordi')]);
  expect([await polls('paused'), await polls('error')]).toEqual([1, 0]);
});

it('a poll whose retry the breaker refuses keeps its place: its first attempt reached the upstream', async () => {
  stack = await startPlanned({ UPSTREAM_RETRIES: '1', BREAKER_THRESHOLD: '1', BREAKER_COOLDOWN_MS: '60000' });
  // X's first poll: its attempt fails and opens the breaker (for X alone), which refuses its retry.
  stack.sample.inject({ path: tokenPath('pepe'), status: 503, times: 1 });
  const pepe = sse(stack.gatewayUrl, TOKEN_SUBSCRIPTION('pepe'), X);
  while ((await unanswered()) === 0) await sleep(10);
  // Another client's first poll takes the plan's second place (and closes the breaker); a third
  // client's waits for the minute's places to free.
  const ordi = sse(stack.gatewayUrl, TOKEN_SUBSCRIPTION('ordi'), '198.51.100.2');
  await until(() => ordi.results.length > 0, 'the first value of the second client');
  const sats = sse(stack.gatewayUrl, TOKEN_SUBSCRIPTION('sats'), '198.51.100.3');
  await sleep(500);
  expect([pepe.results, ordi.results, sats.results]).toEqual([[], [token('ordi')], []]);
  expect(paths()).toEqual([tokenPath('pepe'), tokenPath('ordi')]);
  expect([await polls('paused'), await polls('error')]).toEqual([0, 1]);
});
