// The polling plan's fair shares on their own: each client gives each resource it watches a weight
// of 1 / the number it watches, a resource weighs the most its watchers give it, the plan is split
// by weight, and what resources at LIVE_POLL_INTERVAL_MS leave unused goes to the others.
import { expect, test } from 'vitest';
import { BOOST_EVERY_MS, PollShares } from '../../src/live/poll-shares.js';

/** LIVE_POLL_INTERVAL_MS 5000, and 100 polls a minute (LIVE_QUOTA_SHARE 0.2 of 500): at most 12 a minute each. */
const shares = () => new PollShares(5000, 100);
const tickers = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
/** A clock that moves on by BOOST_EVERY_MS at each reading: every interval asked sees the boost worked out. */
let clock = 0;
const later = () => (clock += BOOST_EVERY_MS);

test('one client: its resources share the whole plan, at most one poll an interval each', () => {
  const intervals = [1, 8, 9, 50].map((count) => {
    const plan = shares();
    for (const key of tickers('t', count)) plan.join('a', key);
    return plan.interval('t0', later());
  });
  // Up to 8 resources every 5 s, then each one less often.
  expect(intervals).toEqual([5000, 5000, 5400, 30000]);
});

test("one client's many resources stretch only its own: another client's keep their interval", () => {
  const plan = shares();
  plan.join('victim', 'ordi');
  for (const key of tickers('zz', 50)) plan.join('many', key);
  // Before: one interval for the 51 resources, 30.6 s. Now ordi weighs 1, the 50 others 1/50
  // each: 50 a minute for ordi, which takes 12; the 38 it leaves go to the 50 others, 1.76 a
  // minute each (not 1).
  expect([plan.interval('ordi', later()), plan.interval('zz0', later())]).toEqual([5000, 34091]);
  // Subscribers that cannot be told apart are one client together, giving pepe and sats ½ each: 33,
  // 16.7 and 0.67 a minute; ordi, pepe and sats take 12 each, and the 50 others 1.28 (46,875 ms).
  plan.join(undefined, 'pepe');
  plan.join(undefined, 'sats');
  expect([plan.interval('ordi', later()), plan.interval('pepe', later()), plan.interval('zz0', later())]).toEqual([5000, 5000, 46875]);
});

test('a resource many clients watch weighs what its most generous watcher gives it', () => {
  const plan = shares();
  for (const key of tickers('a', 20)) plan.join('a', key);
  for (const key of tickers('b', 19)) plan.join('b', key);
  plan.join('b', 'a0');
  // 39 resources of 1/20 each: the plan split evenly, 2.56 a minute each, a0 as the others.
  expect([plan.interval('a0', later()), plan.interval('a1', later()), plan.interval('b0', later())]).toEqual([23400, 23400, 23400]);
});

test('a resource one client of many watches is not starved by a popular one (a plan of 10 a minute)', () => {
  const plan = new PollShares(5000, 10);
  for (let i = 0; i < 100; i++) plan.join(`c${i}`, 'ordi');
  plan.join('niche', 'pepe');
  plan.join('niche', 'sats');
  // ordi weighs 1, pepe and sats ½ each: 5, 2.5 and 2.5 a minute. Summing its watchers' parts
  // gave ordi 9.9 a minute, and pepe and sats one poll every 20 minutes.
  expect([plan.interval('ordi', later()), plan.interval('pepe', later()), plan.interval('sats', later())]).toEqual([12000, 24000, 24000]);
});

test('leaving gives the share back; more subscriptions to one resource are one watcher', () => {
  const plan = shares();
  plan.join('victim', 'ordi');
  plan.join('victim', 'ordi');
  for (const key of tickers('zz', 50)) plan.join('many', key);
  expect(plan.interval('zz0', later())).toBe(34091);
  plan.leave('victim', 'ordi');
  expect(plan.interval('zz0', later())).toBe(34091);
  plan.leave('victim', 'ordi');
  expect(plan.interval('zz0', later())).toBe(30000);
  for (const key of tickers('zz', 49)) plan.leave('many', key);
  expect(plan.interval('zz49', later())).toBe(5000);
});

test('a boost worked out before a join is not used: intervals are the unboosted ones until it is again', () => {
  const plan = shares();
  plan.join('victim', 'ordi');
  const at = later();
  expect(plan.interval('ordi', at)).toBe(5000);
  for (const key of tickers('zz', 50)) plan.join('many', key);
  // The boost of ordi alone (every resource at 12 a minute) would poll the 50 every 5 s. Meanwhile
  // the total weight is ordi's alone: the 50 at 2 a minute each, which the plan holds to its minute.
  expect(plan.interval('zz0', at + BOOST_EVERY_MS - 1)).toBe(30000);
  expect(plan.interval('zz0', at + BOOST_EVERY_MS)).toBe(34091);
});

test('without a known rate limit every interval is the configured one', () => {
  const plan = new PollShares(5000, Infinity);
  for (const key of tickers('zz', 50)) plan.join('many', key);
  expect(plan.interval('zz0', later())).toBe(5000);
});
