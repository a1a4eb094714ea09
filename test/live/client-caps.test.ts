// No client can hold every subscription slot: per-client caps on subscriptions (SSE and WebSocket
// together, MAX_SUBSCRIPTIONS_PER_CLIENT) and on open WebSockets (MAX_WEBSOCKETS_PER_CLIENT),
// keyed as the fairness windows are (TRUST_PROXY=1: clients told apart by X-Forwarded-For), and a
// socket that never sends connection_init is closed.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startStack, type Stack } from '../harness.js';
import { disposeAll, from, sse, until, ws, wsClient } from '../live-clients.js';

const A = '203.0.113.1';
const B = '203.0.113.2';
const STATUS = 'subscription { status { status } }';
const READY = { data: { status: { status: 'ready' } } };

afterEach(disposeAll);

describe('subscriptions per client', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      TRUST_PROXY: '1',
      LIVE_RATE_LIMIT_PER_MINUTE: '0',
      LIVE_POLL_INTERVAL_MS: '600000',
      MAX_SUBSCRIPTIONS_PER_CLIENT: '3',
    });
  });
  afterAll(() => stack.close());

  it('a client holds 3 over SSE and WebSocket together; the 4th is refused, another client is served', async () => {
    const client = wsClient(stack.gatewayUrl, A);
    const held = [sse(stack.gatewayUrl, STATUS, A), sse(stack.gatewayUrl, STATUS, A), ws(client, STATUS)];
    await until(() => held.every((w) => w.results.length > 0), 'three first values');
    expect(held.map((w) => w.results)).toEqual([[READY], [READY], [READY]]);
    const overSse = sse(stack.gatewayUrl, STATUS, A);
    const overWs = ws(client, STATUS);
    await Promise.all([overSse.done, overWs.done]);
    const refused = (column: number) => [
      {
        errors: [
          {
            message: 'This client holds its maximum of 3 subscriptions; end one first',
            locations: [{ line: 1, column }],
            path: ['status'],
            extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit: 3 },
          },
        ],
      },
    ];
    // Before: both served (only MAX_SUBSCRIPTIONS, the whole process's 10,000, bounded them).
    expect([overSse.results, overWs.results]).toEqual([refused(16), refused(16)]);
    const other = sse(stack.gatewayUrl, STATUS, B);
    await until(() => other.results.length > 0, "B's first value");
    expect([other.results, other.completed]).toEqual([[READY], false]);
    // A leaves one: its seat is free again.
    held[0]!.stop();
    await held[0]!.done;
    await until(() => stack.gateway.live.active === 3, 'the server to see A leave');
    const again = ws(client, STATUS);
    await until(() => again.results.length > 0, "A's new first value");
    expect([again.results, again.completed]).toEqual([[READY], false]);
    expect(stack.gateway.live.active).toBe(4);
  });
});

/** Opens a raw WebSocket as `address`: its close code and reason, or the HTTP status of a refused upgrade. */
function socketAs(stack: Stack, address: string) {
  const socket = new WebSocket(`${stack.gatewayUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers: from(address) });
  const outcome = new Promise<{ opened: boolean; status?: number; body?: string }>((resolve) => {
    socket.once('open', () => resolve({ opened: true }));
    socket.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ opened: false, status: res.statusCode, body: Buffer.concat(chunks).toString() }));
    });
    socket.once('error', () => resolve({ opened: false }));
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return { socket, outcome, closed };
}

describe('open WebSockets per client', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ TRUST_PROXY: '1', MAX_WEBSOCKETS_PER_CLIENT: '2' });
  });
  afterAll(() => stack.close());

  it('a third socket of one client is refused 429; sockets that never init are closed (4408), and the client may open again', async () => {
    const idle = [socketAs(stack, A), socketAs(stack, A)];
    expect(await Promise.all(idle.map((s) => s.outcome))).toEqual([{ opened: true }, { opened: true }]);
    const third = socketAs(stack, A);
    // Before: a third, a thousandth… idle socket, each held until it spoke or went away.
    expect(await third.outcome).toEqual({ opened: false, status: 429, body: 'This client holds its maximum of 2 WebSocket connections' });
    const other = socketAs(stack, B);
    expect(await other.outcome).toEqual({ opened: true });
    // None of them sent connection_init: each is closed after the wait (3 s).
    const started = Date.now();
    expect(await Promise.all([...idle, other].map((s) => s.closed))).toEqual(
      Array.from({ length: 3 }, () => ({ code: 4408, reason: 'Connection initialisation timeout' })),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    const later = socketAs(stack, A);
    expect(await later.outcome).toEqual({ opened: true });
    later.socket.close();
    await later.closed;
  });
});
