/**
 * One request's upstream bounds (src/graphql/request-limiter.ts): at most `maxConcurrent` calls in
 * flight, a lookup's further calls (`spread`) included, and a lookup never waits for a slot while
 * holding one. Calls here are promises the test settles, so "in flight" is exact, not timed.
 */
import { describe, expect, test } from 'vitest';
import { requestLimiter } from '../../src/graphql/request-limiter.js';

/** Calls the test settles one by one, with the most ever in flight at once. */
function calls() {
  const pending: Array<{ name: string; settle: (fail?: boolean) => void }> = [];
  let inFlight = 0;
  let peak = 0;
  const call = (name: string) =>
    new Promise<string>((resolve, reject) => {
      peak = Math.max(peak, ++inFlight);
      pending.push({
        name,
        settle: (fail) => {
          inFlight--;
          if (fail) reject(new Error(`${name} failed`));
          else resolve(name);
        },
      });
    });
  /** Settles the oldest call in flight; waits for what that lets start. */
  const settleOldest = async (fail?: boolean) => {
    pending.shift()!.settle(fail);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { call, settleOldest, started: () => pending.map((p) => p.name), peak: () => peak };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('requestLimiter', () => {
  test('lookups past maxConcurrent wait, and each freed slot goes to the next in order', async () => {
    const limit = requestLimiter({ maxCalls: 10, maxConcurrent: 2 });
    const { call, settleOldest, started, peak } = calls();
    const answers = Promise.all(['a', 'b', 'c', 'd'].map((name) => limit(() => call(name))));
    await turn();
    expect(started()).toEqual(['a', 'b']);
    await settleOldest();
    expect(started()).toEqual(['b', 'c']);
    await settleOldest();
    await settleOldest();
    await settleOldest();
    expect(await answers).toEqual(['a', 'b', 'c', 'd']);
    expect(peak()).toBe(2);
  });

  test("a lookup's further calls run on its own slot and the request's free ones, answers in order", async () => {
    const limit = requestLimiter({ maxCalls: 10, maxConcurrent: 3 });
    const { call, settleOldest, started, peak } = calls();
    const answer = limit(() => limit.spread(['h1', 'h2', 'h3', 'h4', 'h5'], (name) => call(name)));
    await turn();
    // Its own slot and the two free ones.
    expect(started()).toEqual(['h1', 'h2', 'h3']);
    // A lookup that comes now finds every slot taken and waits.
    const later = limit(() => call('later'));
    await turn();
    expect(started()).toEqual(['h1', 'h2', 'h3']);
    for (let i = 0; i < 5; i++) await settleOldest();
    // The spread's extra slots freed as its items ran out: the waiting lookup has one.
    expect(started()).toEqual(['later']);
    await settleOldest();
    expect(await answer).toEqual(['h1', 'h2', 'h3', 'h4', 'h5']);
    expect(await later).toBe('later');
    expect(peak()).toBe(3);
  });

  test('with every slot taken by lookups, each spreads on its own slot alone: one call at a time, never stuck', async () => {
    const limit = requestLimiter({ maxCalls: 10, maxConcurrent: 1 });
    const { call, settleOldest, started, peak } = calls();
    const answer = limit(() => limit.spread(['h1', 'h2', 'h3'], (name) => call(name)));
    await turn();
    expect(started()).toEqual(['h1']);
    await settleOldest();
    expect(started()).toEqual(['h2']);
    await settleOldest();
    await settleOldest();
    expect(await answer).toEqual(['h1', 'h2', 'h3']);
    expect(peak()).toBe(1);
  });

  test('the first failure fails the spread and starts no further item', async () => {
    const limit = requestLimiter({ maxCalls: 10, maxConcurrent: 2 });
    const { call, settleOldest, started } = calls();
    const answer = limit(() => limit.spread(['h1', 'h2', 'h3', 'h4'], (name) => call(name)));
    const failed = expect(answer).rejects.toThrow('h1 failed');
    await turn();
    expect(started()).toEqual(['h1', 'h2']);
    await settleOldest(true);
    await failed;
    // h2 was in flight already; nothing after it started.
    expect(started()).toEqual(['h2']);
    await settleOldest();
    expect(started()).toEqual([]);
  });

  test('past maxCalls a lookup fails with TOO_MANY_UPSTREAM_CALLS before it is asked', async () => {
    const limit = requestLimiter({ maxCalls: 1, maxConcurrent: 2 });
    const { call, settleOldest, started } = calls();
    const first = limit(() => call('a'));
    await expect(limit(() => call('b'))).rejects.toMatchObject({
      message: 'This request needs more than 1 upstream lookups; split it',
      extensions: { code: 'TOO_MANY_UPSTREAM_CALLS', limit: 1 },
    });
    expect(started()).toEqual(['a']);
    await settleOldest();
    expect(await first).toBe('a');
  });
});
