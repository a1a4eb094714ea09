// Who can open the breaker: a run of failures opens it only when every client served lately
// failed in the run too (the HTTP side is in test/upstream/resilience.test.ts).
import { describe, expect, test } from 'vitest';
import { CircuitBreaker, GATEWAY_PROBE } from '../../src/upstream/guards/circuit-breaker.js';

const T = 1_000_000;

/** `clients` fail in turn, `threshold` times in all, at time `at`. */
function failRun(breaker: CircuitBreaker, clients: string[], at = T) {
  for (let i = 0; i < breaker.threshold; i++) breaker.failure(clients[i % clients.length], at);
}

describe('circuit breaker', () => {
  test("opened by one client's failures alone: open to that client, half-open to any other", () => {
    const breaker = new CircuitBreaker(3);
    failRun(breaker, ['a']);
    // /readyz asks for no client: any other than the one failing.
    expect([breaker.stateAt(T, 'a'), breaker.stateAt(T, 'b'), breaker.stateAt(T)]).toEqual(['open', 'half-open', 'half-open']);
    // The gateway's own polls failing alone: its polls pause, clients' requests are still sent.
    const polled = new CircuitBreaker(3);
    failRun(polled, ['']);
    expect([polled.stateAt(T, ''), polled.stateAt(T, 'b')]).toEqual(['open', 'half-open']);
    // Past the cooldown, the failing client's request is the probe.
    expect(breaker.stateAt(T + 5_000, 'a')).toBe('half-open');
  });

  test('three addresses failing while another client was served a second ago: closed', () => {
    const breaker = new CircuitBreaker(5);
    breaker.success('victim', T - 1_000);
    failRun(breaker, ['a1', 'a2', 'a3']);
    expect(breaker.state).toBe('closed');
    // The victim fails too: every client served lately is failing, so the service is.
    breaker.failure('victim', T);
    expect([breaker.state, breaker.sharedOpenUntilTime]).toEqual(['open', T + 5_000]);
  });

  test('a client served more than 30 s ago holds nothing open', () => {
    const breaker = new CircuitBreaker(5);
    breaker.success('idle', T - 30_001);
    failRun(breaker, ['a1', 'a2']);
    expect(breaker.state).toBe('open');
  });

  test('one client alone opens it, for this replica only', () => {
    const breaker = new CircuitBreaker(5);
    failRun(breaker, ['a1']);
    expect([breaker.state, breaker.openUntilTime, breaker.sharedOpenUntilTime]).toEqual(['open', T + 5_000, 0]);
  });

  test('a success ends the run: its failing clients start over', () => {
    const breaker = new CircuitBreaker(3);
    breaker.success('victim', T - 1_000);
    breaker.failure('victim', T);
    breaker.success('b', T);
    failRun(breaker, ['a1']);
    expect(breaker.state).toBe('closed');
  });

  test('however many addresses fail, all at once, a client served lately holds it closed', () => {
    const breaker = new CircuitBreaker(5);
    breaker.success('victim', T - 1_000);
    for (let i = 0; i < 1_000; i++) breaker.failure(`a${i}`, T);
    expect(breaker.state).toBe('closed');
  });

  test("another replica's opening makes one client's opening here everyone's", () => {
    const breaker = new CircuitBreaker(3);
    failRun(breaker, ['a']);
    breaker.openUntil(T + 4_000, T + 1_000);
    expect([breaker.allow('b', T + 1_000), breaker.stateAt(T + 1_000), breaker.sharedOpenUntilTime]).toEqual([false, 'open', T + 4_000]);
  });

  test("another replica's opening is taken only where no client served lately is still served", () => {
    const quiet = new CircuitBreaker(5);
    quiet.openUntil(T + 3_000, T);
    expect([quiet.state, quiet.openUntilTime]).toEqual(['open', T + 3_000]);

    const serving = new CircuitBreaker(5);
    serving.success('victim', T - 10_000);
    serving.openUntil(T + 3_000, T);
    expect(serving.state).toBe('closed');
    // Its client fails here too: the next opening from elsewhere is taken.
    serving.failure('victim', T);
    serving.openUntil(T + 3_000, T);
    expect(serving.state).toBe('open');
  });

  test('of many clients served, the one served least recently is forgotten: one served again stays', () => {
    const breaker = new CircuitBreaker(5);
    breaker.success('recent', T - 40_000);
    for (let i = 0; i < 31; i++) breaker.success(`old${i}`, T - 39_000);
    // Served again: it goes last, and the next new client pushes out old0 instead.
    breaker.success('recent', T - 2_000);
    breaker.success('new', T - 38_000);
    failRun(breaker, ['a1', 'a2']);
    expect(breaker.state).toBe('closed');
    // 'recent', served 2 s before, held it: 30 s later, nothing does.
    failRun(breaker, ['a1', 'a2'], T + 28_001);
    expect(breaker.state).toBe('open');
  });

  test("with its own probe, no client's request is the probe; the probe's answer decides", () => {
    const breaker = new CircuitBreaker(3, 5_000, () => {}, true);
    failRun(breaker, ['a1', 'a2']);
    // Past the cooldown: half-open, and every client is refused until the gateway's probe answers.
    expect([breaker.stateAt(T + 5_000, 'a1'), breaker.allow('a1', T + 5_000), breaker.allow('b', T + 5_000)]).toEqual([
      'half-open',
      false,
      false,
    ]);
    // Its success closes it, and serves no client: the next run of failures opens it again.
    breaker.success(GATEWAY_PROBE, T + 5_100);
    expect([breaker.state, breaker.allow('a1', T + 5_100)]).toEqual(['closed', true]);
    failRun(breaker, ['a1', 'a2'], T + 6_000);
    expect(breaker.state).toBe('open');
  });

  test("the gateway's probe failing makes an opening by one client everyone's", () => {
    const breaker = new CircuitBreaker(3, 5_000, () => {}, true);
    failRun(breaker, ['a']);
    expect(breaker.sharedOpenUntilTime).toBe(0);
    breaker.allow('a', T + 5_000);
    breaker.failure(GATEWAY_PROBE, T + 5_000);
    expect([breaker.stateAt(T + 5_000, 'b'), breaker.sharedOpenUntilTime]).toEqual(['open', T + 10_000]);
  });

  test('addresses served once each to push out a client served a moment ago still open nothing', () => {
    const breaker = new CircuitBreaker(5);
    breaker.success('victim', T - 1_000);
    // 32 addresses, each served once: the table of 32 forgets the victim to make room.
    const attackers = Array.from({ length: 32 }, (_, i) => `a${i}`);
    for (const attacker of attackers) breaker.success(attacker, T);
    failRun(breaker, attackers);
    for (const attacker of attackers) breaker.failure(attacker, T);
    expect(breaker.state).toBe('closed');
    // Once the victim's service is 30 s old, the same run opens it.
    failRun(breaker, attackers, T + 29_000);
    expect(breaker.state).toBe('open');
  });

  test("after the gateway's probe, the one client whose failures opened it opens it again at its next failure", () => {
    const breaker = new CircuitBreaker(3, 5_000, () => {}, true);
    failRun(breaker, ['a']);
    breaker.allow('a', T + 5_000);
    breaker.success(GATEWAY_PROBE, T + 5_000);
    breaker.failure('a', T + 5_100);
    expect([breaker.stateAt(T + 5_100, 'a'), breaker.stateAt(T + 5_100, 'b'), breaker.sharedOpenUntilTime]).toEqual([
      'open',
      'half-open',
      0,
    ]);
    // Another client served in between: the run starts over, as for any client.
    const served = new CircuitBreaker(3, 5_000, () => {}, true);
    failRun(served, ['a']);
    served.allow('a', T + 5_000);
    served.success(GATEWAY_PROBE, T + 5_000);
    served.success('b', T + 5_050);
    served.failure('a', T + 5_100);
    expect(served.state).toBe('closed');
  });
});
