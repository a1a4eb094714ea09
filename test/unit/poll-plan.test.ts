// The polling plan on its own, on a fake clock: at most its capacity of polls in any sliding
// minute, the rest admitted in order as the oldest slots age out, in turn by owner, each client
// within its share of the window; refunds and aborts.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { PollPlan, type PollOwner } from '../../src/live/poll-plan.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** The process's re-polls: the owner exempt from the per-client share. */
const REPOLLS = Symbol('re-polls');

/** Admits `count` re-polls and answers which of them were granted so far, by index. */
function ask(plan: PollPlan, count: number, signal = new AbortController().signal) {
  const granted: number[] = [];
  const slots = Array.from({ length: count }, (_, i) =>
    plan.admit(signal, REPOLLS).then((slot) => {
      granted.push(i);
      return slot;
    }),
  );
  return { granted, slots };
}

test('a plan of 3 a minute: 3 at once, then each waits for the oldest slot to be a minute old', async () => {
  const plan = new PollPlan(3.7, REPOLLS);
  const { granted } = ask(plan, 5);
  await vi.advanceTimersByTimeAsync(0);
  expect([granted, plan.queued]).toEqual([[0, 1, 2], 2]);
  await vi.advanceTimersByTimeAsync(59_999);
  expect(granted).toEqual([0, 1, 2]);
  await vi.advanceTimersByTimeAsync(2);
  expect([granted, plan.queued]).toEqual([[0, 1, 2, 3, 4], 0]);
});

test('slots admitted at different times free one by one', async () => {
  const plan = new PollPlan(2, REPOLLS);
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
  const plan = new PollPlan(1, REPOLLS);
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
  const plan = new PollPlan(1, REPOLLS);
  ask(plan, 1);
  const controller = new AbortController();
  const waiting = ask(plan, 1, controller.signal);
  const after = ask(plan, 1);
  controller.abort(new Error('stopped'));
  await expect(waiting.slots[0]).rejects.toThrow('stopped');
  expect(plan.queued).toBe(1);
  await vi.advanceTimersByTimeAsync(60_001);
  expect(after.granted).toEqual([0]);

  const unlimited = new PollPlan(Infinity, REPOLLS);
  const all = ask(unlimited, 1000);
  await vi.advanceTimersByTimeAsync(0);
  expect([all.granted.length, unlimited.capacity]).toEqual([1000, Infinity]);
});

/** Admits `count` polls of `owner` and notes each grant in `order` as `${label}${index}`. */
function askAs(plan: PollPlan, owner: PollOwner, label: string, count: number, order: string[]) {
  for (let i = 0; i < count; i++) void plan.admit(new AbortController().signal, owner).then(() => order.push(`${label}${i}`));
}

test("one client's backlog delays only itself: a poll of another client is admitted next", async () => {
  const plan = new PollPlan(2, REPOLLS);
  const order: string[] = [];
  askAs(plan, 'client-a', 'a', 22, order);
  askAs(plan, 'client-b', 'b', 1, order);
  await vi.advanceTimersByTimeAsync(0);
  // a holds its share (1 of 2): the other slot waits for b, which was asked next.
  expect([order, plan.queued]).toEqual([['a0', 'b0'], 21]);
  await vi.advanceTimersByTimeAsync(60_001);
  // Before: one queue in order, and b waited for all of a's 20 (10 minutes).
  expect([order, plan.queued]).toEqual([['a0', 'b0', 'a1'], 20]);
});

test("a client holds at most half the window: the next client's first poll goes at once", async () => {
  const plan = new PollPlan(10, REPOLLS);
  const order: string[] = [];
  askAs(plan, 'client-a', 'a', 10, order);
  await vi.advanceTimersByTimeAsync(1000);
  askAs(plan, 'client-b', 'b', 1, order);
  askAs(plan, undefined, 'u', 6, order);
  await vi.advanceTimersByTimeAsync(0);
  // Before: a took all ten in its first second and b waited a minute.
  expect([order, plan.queued, plan.perClient]).toEqual([['a0', 'a1', 'a2', 'a3', 'a4', 'b0', 'u0', 'u1', 'u2', 'u3'], 7, 5]);
  // a's five age out first (the plan still holds b's and u's): a and u take turns.
  await vi.advanceTimersByTimeAsync(59_001);
  expect([order.slice(10), plan.queued]).toEqual([['a5', 'u4', 'a6', 'a7', 'a8'], 2]);
});

test('re-polls keep watched resources fresh: they may fill the window', async () => {
  const plan = new PollPlan(4, REPOLLS);
  const order: string[] = [];
  askAs(plan, REPOLLS, 'r', 4, order);
  askAs(plan, 'client-a', 'a', 1, order);
  await vi.advanceTimersByTimeAsync(0);
  expect([order, plan.queued]).toEqual([['r0', 'r1', 'r2', 'r3'], 1]);
  await vi.advanceTimersByTimeAsync(60_001);
  expect([order, plan.queued]).toEqual([['r0', 'r1', 'r2', 'r3', 'a0'], 0]);
});

test('owners take turns, the least recently served first; re-polls are one more owner', async () => {
  const plan = new PollPlan(1, REPOLLS);
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
  const plan = new PollPlan(1, REPOLLS);
  const order: string[] = [];
  askAs(plan, 'client-a', 'a', 3, order);
  askAs(plan, 'client-b', 'b', 3, order);
  await vi.advanceTimersByTimeAsync(60_001);
  askAs(plan, 'client-c', 'c', 1, order);
  for (let minute = 0; minute < 4; minute++) await vi.advanceTimersByTimeAsync(60_001);
  expect([order, plan.queued]).toEqual([['a0', 'b0', 'a1', 'c0', 'b1', 'a2'], 1]);
});
