// The polling plan on its own, on a fake clock: at most its capacity of polls in any sliding
// minute, the rest admitted in order as the oldest slots age out, in turn by owner; refunds and aborts.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { PollPlan, type PollOwner } from '../../src/live/poll-plan.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Admits `count` polls and answers which of them were granted so far, by index. */
function ask(plan: PollPlan, count: number, signal = new AbortController().signal) {
  const granted: number[] = [];
  const slots = Array.from({ length: count }, (_, i) =>
    plan.admit(signal).then((slot) => {
      granted.push(i);
      return slot;
    }),
  );
  return { granted, slots };
}

test('a plan of 3 a minute: 3 at once, then each waits for the oldest slot to be a minute old', async () => {
  const plan = new PollPlan(3.7);
  const { granted } = ask(plan, 5);
  await vi.advanceTimersByTimeAsync(0);
  expect([granted, plan.queued]).toEqual([[0, 1, 2], 2]);
  await vi.advanceTimersByTimeAsync(59_999);
  expect(granted).toEqual([0, 1, 2]);
  await vi.advanceTimersByTimeAsync(2);
  expect([granted, plan.queued]).toEqual([[0, 1, 2, 3, 4], 0]);
});

test('slots admitted at different times free one by one', async () => {
  const plan = new PollPlan(2);
  ask(plan, 1);
  await vi.advanceTimersByTimeAsync(20_000);
  ask(plan, 1);
  const { granted } = ask(plan, 2);
  await vi.advanceTimersByTimeAsync(40_001);
  expect(granted).toEqual([0]);
  await vi.advanceTimersByTimeAsync(20_000);
  expect(granted).toEqual([0, 1]);
});

test('a refunded slot (the poll sent nothing) goes to the next poll at once, once', async () => {
  const plan = new PollPlan(1);
  const first = ask(plan, 1);
  const next = ask(plan, 2);
  await vi.advanceTimersByTimeAsync(0);
  const [slot] = await Promise.all(first.slots);
  slot!.refund();
  slot!.refund();
  await vi.advanceTimersByTimeAsync(0);
  expect([next.granted, plan.queued]).toEqual([[0], 1]);
});

test('a poll that stops while waiting leaves the queue; no plan admits everything', async () => {
  const plan = new PollPlan(1);
  ask(plan, 1);
  const controller = new AbortController();
  const waiting = ask(plan, 1, controller.signal);
  const after = ask(plan, 1);
  controller.abort(new Error('stopped'));
  await expect(waiting.slots[0]).rejects.toThrow('stopped');
  expect(plan.queued).toBe(1);
  await vi.advanceTimersByTimeAsync(60_001);
  expect(after.granted).toEqual([0]);

  const unlimited = new PollPlan(Infinity);
  const all = ask(unlimited, 1000);
  await vi.advanceTimersByTimeAsync(0);
  expect([all.granted.length, unlimited.capacity]).toEqual([1000, Infinity]);
});

/** Admits `count` polls of `owner` and notes each grant in `order` as `${label}${index}`. */
function askAs(plan: PollPlan, owner: PollOwner, label: string, count: number, order: string[]) {
  for (let i = 0; i < count; i++) void plan.admit(new AbortController().signal, owner).then(() => order.push(`${label}${i}`));
}

test("one client's backlog delays only itself: a poll of another client is admitted next", async () => {
  const plan = new PollPlan(2);
  const order: string[] = [];
  askAs(plan, 'client-a', 'a', 22, order);
  askAs(plan, 'client-b', 'b', 1, order);
  await vi.advanceTimersByTimeAsync(0);
  expect([order, plan.queued]).toEqual([['a0', 'a1'], 21]);
  await vi.advanceTimersByTimeAsync(60_001);
  // Before: one queue in order, and b waited for all of a's 20 (10 minutes).
  expect([order, plan.queued]).toEqual([['a0', 'a1', 'b0', 'a2'], 19]);
});

test('owners take turns, the least recently served first; re-polls are one more owner', async () => {
  const plan = new PollPlan(1);
  const order: string[] = [];
  const repolls = Symbol('re-polls');
  askAs(plan, 'client-a', 'a', 4, order);
  askAs(plan, repolls, 'r', 2, order);
  askAs(plan, undefined, 'u', 1, order);
  await vi.advanceTimersByTimeAsync(0);
  expect(order).toEqual(['a0']);
  for (let minute = 0; minute < 6; minute++) await vi.advanceTimersByTimeAsync(60_001);
  // a was served last, so the newcomers go first; then one each in turn.
  expect([order, plan.queued]).toEqual([['a0', 'r0', 'u0', 'a1', 'r1', 'a2', 'a3'], 0]);
});

test('a newcomer waits one round at most, after the owners already waiting', async () => {
  const plan = new PollPlan(1);
  const order: string[] = [];
  askAs(plan, 'client-a', 'a', 3, order);
  askAs(plan, 'client-b', 'b', 3, order);
  await vi.advanceTimersByTimeAsync(60_001);
  askAs(plan, 'client-c', 'c', 1, order);
  for (let minute = 0; minute < 4; minute++) await vi.advanceTimersByTimeAsync(60_001);
  expect([order, plan.queued]).toEqual([['a0', 'b0', 'a1', 'c0', 'b1', 'a2'], 1]);
});
