/**
 * ExchangeSignal, the one AbortSignal of an upstream exchange (src/lib/cancellation.ts): its deadline
 * and the caller's cancellation abort it, and nothing of it outlives the exchange. The gateway-level
 * behaviour (a hung upstream answered as a timeout, a client that leaves cancelling its call) is in
 * test/upstream/resilience.test.ts and test/server/operations.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { Cancellation, ExchangeSignal } from '../../src/lib/cancellation.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const state = (exchange: ExchangeSignal) => ({
  aborted: exchange.signal.aborted,
  timedOut: exchange.timedOut,
  reason: exchange.signal.reason instanceof DOMException ? exchange.signal.reason.name : exchange.signal.reason,
});

describe('ExchangeSignal', () => {
  test('aborts with a TimeoutError once its deadline has passed', async () => {
    const exchange = new ExchangeSignal(20);
    expect(state(exchange)).toEqual({ aborted: false, timedOut: false, reason: undefined });
    await pause(60);
    expect(state(exchange)).toEqual({ aborted: true, timedOut: true, reason: 'TimeoutError' });
  });

  test("aborts with the caller's reason when the caller cancels, already or later", () => {
    const later = new Cancellation();
    const exchange = new ExchangeSignal(10_000, later);
    later.abort('client left');
    expect(state(exchange)).toEqual({ aborted: true, timedOut: false, reason: 'client left' });
    exchange.end();

    const already = new Cancellation();
    already.abort('gone before');
    const late = new ExchangeSignal(10_000, already);
    expect(state(late)).toEqual({ aborted: true, timedOut: false, reason: 'gone before' });
    late.end();
  });

  test('once ended, neither its deadline nor the caller touches it, and it leaves no listener on the caller', async () => {
    const caller = new Cancellation();
    const seen: string[] = [];
    caller.addEventListener('abort', () => seen.push('caller aborted'));
    const exchange = new ExchangeSignal(20, caller);
    exchange.end();
    await pause(60);
    caller.abort('after the end');
    expect(state(exchange)).toEqual({ aborted: false, timedOut: false, reason: undefined });
    // The caller's own listener ran; the exchange's had been removed (it would have aborted the signal).
    expect(seen).toEqual(['caller aborted']);
  });
});
