// The polling plan's fair shares on their own: each client an equal share of the polls a minute,
// split over the resources it watches; a resource's interval follows the shares its watchers give it.
import { expect, test } from 'vitest';
import { PollShares } from '../../src/live/poll-shares.js';

/** LIVE_POLL_INTERVAL_MS 5000, and 100 polls a minute (LIVE_QUOTA_SHARE 0.2 of 500). */
const shares = () => new PollShares(5000, 100);
const tickers = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

test('one client: its resources share the whole plan, at most one poll an interval each', () => {
  const intervals = [1, 8, 9, 50].map((count) => {
    const plan = shares();
    for (const key of tickers('t', count)) plan.join('a', key);
    return plan.interval('t0');
  });
  // Up to 8 resources every 5 s, then each one less often.
  expect(intervals).toEqual([5000, 5000, 5400, 30000]);
});

test("one client's many resources stretch only its own: another client's keep their interval", () => {
  const plan = shares();
  plan.join('victim', 'ordi');
  for (const key of tickers('zz', 50)) plan.join('many', key);
  // Before: one interval for the 51 resources, 30.6 s. Now half the plan each: 50 and 1 a minute.
  expect([plan.interval('ordi'), plan.interval('zz0')]).toEqual([5000, 60000]);
  // Subscribers that cannot be told apart are one client together.
  plan.join(undefined, 'pepe');
  plan.join(undefined, 'sats');
  expect([plan.interval('ordi'), plan.interval('pepe'), plan.interval('zz0')]).toEqual([5000, 5000, 90000]);
});

test('a resource many clients watch is polled at the sum of their shares', () => {
  const plan = shares();
  for (const key of tickers('a', 20)) plan.join('a', key);
  for (const key of tickers('b', 19)) plan.join('b', key);
  plan.join('b', 'a0');
  // a0: 50/20 + 50/20 = 5 a minute; a1: 2.5 a minute.
  expect([plan.interval('a0'), plan.interval('a1'), plan.interval('b0')]).toEqual([12000, 24000, 24000]);
});

test('leaving gives the share back; more subscriptions to one resource are one watcher', () => {
  const plan = shares();
  plan.join('victim', 'ordi');
  plan.join('victim', 'ordi');
  for (const key of tickers('zz', 50)) plan.join('many', key);
  expect(plan.interval('zz0')).toBe(60000);
  plan.leave('victim', 'ordi');
  expect(plan.interval('zz0')).toBe(60000);
  plan.leave('victim', 'ordi');
  expect(plan.interval('zz0')).toBe(30000);
  for (const key of tickers('zz', 49)) plan.leave('many', key);
  expect(plan.interval('zz49')).toBe(5000);
});

test('without a known rate limit every interval is the configured one', () => {
  const plan = new PollShares(5000, Infinity);
  for (const key of tickers('zz', 50)) plan.join('many', key);
  expect(plan.interval('zz0')).toBe(5000);
});
