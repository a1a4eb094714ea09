// The polling plan on its own, on a fake clock: at most its capacity of polls in any sliding
// minute, the rest admitted in order as the oldest slots age out; refunds and aborts.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { PollPlan } from '../../src/live/poll-plan.js';

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
