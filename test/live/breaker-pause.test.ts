/**
 * Polling pauses while a service's breaker is open, and resumes once its cooldown has passed:
 * a gateway whose only traffic is subscriptions has no query to send the probe.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { findBrc20Token } from '../../src/sample/data.js';
import { startStack, type Stack } from '../harness.js';
import { disposeAll, sse, tokenPath, until } from '../live-clients.js';
import { toBrc20 } from '../support.js';

const QUERY = 'subscription { brc20Token(ticker: "pepe") { token { ticker mintedSupply } } }';
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    LIVE_POLL_INTERVAL_MS: '100',
    LIVE_RATE_LIMIT_PER_MINUTE: '0',
    BREAKER_THRESHOLD: '2',
    BREAKER_COOLDOWN_MS: '300',
    TRUST_PROXY: '1',
  });
});

afterAll(async () => {
  await disposeAll();
  await stack.close();
});

const event = (details: ReturnType<typeof findBrc20Token>) => {
  const { token } = toBrc20(details!);
  return { data: { brc20Token: { token: { ticker: token.ticker, mintedSupply: token.mintedSupply } } } };
};
const breaker = async () =>
  ((await (await fetch(`${stack.gatewayUrl}/readyz`)).json()) as { services: { ordinals: { breaker: string } } }).services.ordinals.breaker;

test('a subscription whose polls opened the breaker gets its value once the upstream is back', async () => {
  // The upstream is down for the first two polls: the breaker opens.
  stack.sample.inject({ path: tokenPath('pepe'), status: 503, times: 2 });
  const watch = sse(stack.gatewayUrl, QUERY, '203.0.113.7');
  await until(() => stack.logs.some((line) => line.includes('"state":"open"')), 'the breaker open');
  // Back up: after the cooldown a poll probes it, and the subscriber gets the value.
  await until(() => watch.results.length === 1, 'the first value', 5000);
  expect(watch.results).toEqual([event(findBrc20Token('pepe'))]);
  expect(await breaker()).toBe('closed');
});
