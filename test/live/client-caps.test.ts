// No client can hold every subscription slot: per-client caps on subscriptions (SSE and WebSocket
// together, MAX_SUBSCRIPTIONS_PER_CLIENT) and on open WebSockets (MAX_WEBSOCKETS_PER_CLIENT),
// keyed as the fairness windows are (TRUST_PROXY=1: clients told apart by X-Forwarded-For), a
// socket that never sends connection_init is closed, and the process's sockets are capped too
// (MAX_WEBSOCKETS).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, fetchExchange } from '@urql/core';
import WebSocket from 'ws';
import { CLIENT_ACCEPT } from '../client-accepts.js';
import { startStack, type Stack } from '../harness.js';
import { disposeAll, from, sse, until, ws, wsClient } from '../live-clients.js';

const A = '203.0.113.1';
const B = '203.0.113.2';
const C = '203.0.113.3';
const STATUS = 'subscription { status { status } }';
const READY = { data: { status: { status: 'ready' } } };
/** Clients told apart by X-Forwarded-For; no polling plan and no re-polls to wait for. */
const CLIENTS_APART_NO_POLLS = { TRUST_PROXY: '1', LIVE_RATE_LIMIT_PER_MINUTE: '0', LIVE_POLL_INTERVAL_MS: '600000' };

afterEach(disposeAll);

describe('subscriptions per client', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ ...CLIENTS_APART_NO_POLLS, MAX_SUBSCRIPTIONS_PER_CLIENT: '3' });
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

describe('open WebSockets per process', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ TRUST_PROXY: '1', MAX_WEBSOCKETS: '2' });
  });
  afterAll(() => stack.close());

  it('a third socket is refused 503 whoever opens it, each client within its own cap; a closed one frees its place', async () => {
    const held = [socketAs(stack, A), socketAs(stack, B)];
    expect(await Promise.all(held.map((s) => s.outcome))).toEqual([{ opened: true }, { opened: true }]);
    // Before: C opened (every client below MAX_WEBSOCKETS_PER_CLIENT, and no cap for them all).
    const C = '203.0.113.3';
    expect(await socketAs(stack, C).outcome).toEqual({
      opened: false,
      status: 503,
      body: 'The gateway holds its maximum of 2 WebSocket connections',
    });
    held[0]!.socket.close();
    await held[0]!.closed;
    const later = socketAs(stack, C);
    expect(await later.outcome).toEqual({ opened: true });
    for (const s of [held[1]!, later]) s.socket.close();
    await Promise.all([held[1]!.closed, later.closed]);
  });
});

describe('subscription starts per client', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      ...CLIENTS_APART_NO_POLLS,
      SUBSCRIPTION_STARTS_PER_CLIENT_PER_MINUTE: '3',
      CORS_ORIGINS: 'https://app.example',
    });
  });
  afterAll(() => stack.close());

  /** Subscribes, takes the first value and leaves: what a churning client does. */
  async function churnOnce(watch: () => ReturnType<typeof sse>) {
    const w = watch();
    await until(() => w.results.length > 0, 'a first value');
    w.stop();
    await w.done;
    return w.results;
  }

  it("past 3 starts in its minute a client is refused over SSE (429, before yoga) and WebSocket; its queries and others' subscriptions are served", async () => {
    const client = wsClient(stack.gatewayUrl, A);
    // Three starts, each left again at once: it never holds more than one seat.
    expect([
      await churnOnce(() => sse(stack.gatewayUrl, STATUS, A)),
      await churnOnce(() => ws(client, STATUS)),
      await churnOnce(() => sse(stack.gatewayUrl, STATUS, A)),
    ]).toEqual([[READY], [READY], [READY]]);

    // Over HTTP the refusal is the transport's, before yoga (which answers a subscription's errors
    // inside a 200 stream): 429, Retry-After, the code in a JSON body.
    const response = await fetch(`${stack.gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', origin: 'https://app.example', ...from(A) },
      body: JSON.stringify({ query: STATUS }),
    });
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect({
      status: response.status,
      type: response.headers.get('content-type'),
      origin: response.headers.get('access-control-allow-origin'),
      requestId: /^[0-9a-f-]{36}$/.test(response.headers.get('x-request-id') ?? ''),
      body: await response.json(),
    }).toEqual({
      status: 429,
      type: 'application/json; charset=utf-8',
      origin: 'https://app.example',
      requestId: true,
      body: {
        errors: [
          {
            message: `This client started its maximum of 3 subscriptions this minute; try again in ${retryAfter} s`,
            extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit: 3, retryAfter },
          },
        ],
      },
    });
    // Only /graphql is gated: the client's other requests are answered as ever.
    const health = await fetch(`${stack.gatewayUrl}/healthz`, { headers: { accept: 'text/event-stream', ...from(A) } });
    expect(health.status).toBe(200);
    // graphql-sse, as published, fails the subscription with that response.
    const overSse = sse(stack.gatewayUrl, STATUS, A);
    await overSse.done;
    expect([overSse.results, (overSse.failure as { response?: Response }).response?.status]).toEqual([[], 429]);
    // Over a WebSocket, graphql-ws's error message for the operation, before its validation; the
    // same client's query on that socket is served.
    const overWs = ws(client, STATUS);
    await overWs.done;
    const [refused] = overWs.failure as Array<{ extensions?: { retryAfter?: number } }>;
    const wsRetryAfter = refused?.extensions?.retryAfter;
    expect([overWs.results, overWs.failure]).toEqual([
      [],
      [
        {
          message: `This client started its maximum of 3 subscriptions this minute; try again in ${wsRetryAfter} s`,
          extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit: 3, retryAfter: wsRetryAfter },
        },
      ],
    ]);
    expect(wsRetryAfter).toBeGreaterThanOrEqual(1);
    const query = ws(client, '{ status { status } }');
    await query.done;
    expect(query.results).toEqual([READY]);
    // None of the refused ones holds a seat; another client starts its own.
    expect(stack.gateway.live.active).toBe(0);
    expect(await churnOnce(() => sse(stack.gatewayUrl, STATUS, B))).toEqual([READY]);
  });

  it('past its starts a client still gets its queries from urql, which names SSE beside JSON on every request', async () => {
    for (let i = 0; i < 3; i++) expect(await churnOnce(() => sse(stack.gatewayUrl, STATUS, C))).toEqual([READY]);
    const refused = sse(stack.gatewayUrl, STATUS, C);
    await refused.done;
    expect((refused.failure as { response?: Response }).response?.status).toBe(429);

    // urql as published (its default Accept on a query: JSON types, then text/event-stream).
    const urql = new Client({ url: `${stack.gatewayUrl}/graphql`, exchanges: [fetchExchange], fetchOptions: { headers: from(C) } });
    const query = await urql.query('{ status { status } }', {}).toPromise();
    expect([query.error, query.data]).toEqual([undefined, READY.data]);

    // A subscription sent with that Accept passes the gate and is refused by the hub, in one JSON
    // answer (it takes JSON): no seat taken.
    const response = await fetch(`${stack.gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: CLIENT_ACCEPT.urqlQuery, ...from(C) },
      body: JSON.stringify({ query: STATUS }),
    });
    const body = (await response.json()) as { errors: Array<{ extensions: { retryAfter: number } }> };
    const retryAfter = body.errors[0]?.extensions.retryAfter;
    expect({ status: response.status, type: response.headers.get('content-type'), body }).toEqual({
      status: 200,
      type: 'application/graphql-response+json; charset=utf-8',
      body: {
        errors: [
          {
            message: `This client started its maximum of 3 subscriptions this minute; try again in ${retryAfter} s`,
            locations: [{ line: 1, column: 16 }],
            path: ['status'],
            extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit: 3, retryAfter },
          },
        ],
      },
    });
    expect(stack.gateway.live.active).toBe(0);
  });
});

describe('an operation id sent again while its first operation is still starting, or ending', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ ...CLIENTS_APART_NO_POLLS, MAX_SUBSCRIPTIONS_PER_CLIENT: '5' });
  });
  afterAll(() => stack.close());

  /** A raw graphql-ws socket of client A, acknowledged, and every message it gets. */
  async function acknowledgedSocket() {
    const socket = new WebSocket(`${stack.gatewayUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', {
      headers: { 'x-forwarded-for': A },
    });
    const messages: Array<{ type: string; id?: string; payload?: unknown }> = [];
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString()) as (typeof messages)[number]));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ type: 'connection_init' }));
    await until(() => messages.some((m) => m.type === 'connection_ack'), 'connection_ack');
    return { socket, messages };
  }

  it('subscribe, complete, subscribe in one burst: the second starts once the first has ended, nothing outlives the socket', async () => {
    const rounds = [];
    for (let round = 0; round < 5; round++) {
      const { socket, messages } = await acknowledgedSocket();
      const subscribe = { id: 'X', type: 'subscribe', payload: { query: STATUS } };
      socket.send(JSON.stringify(subscribe));
      socket.send(JSON.stringify({ id: 'X', type: 'complete' }));
      socket.send(JSON.stringify(subscribe));
      await until(() => messages.some((m) => m.type === 'next'), "the second one's first value");
      await new Promise((resolve) => setTimeout(resolve, 50));
      rounds.push(messages.filter((m) => m.type !== 'connection_ack'));
      socket.terminate();
      await until(() => stack.gateway.live.active === 0, 'every subscription of the socket to end');
    }
    // One value: the first operation, completed while being set up, sent nothing.
    expect(rounds).toEqual(Array.from({ length: 5 }, () => [{ id: 'X', type: 'next', payload: READY }]));
    // Five rounds from one client left it all its seats: a new subscription is served.
    const again = ws(wsClient(stack.gatewayUrl, A), STATUS);
    await until(() => again.results.length > 0, "A's new first value");
    expect([again.results, stack.gateway.live.active]).toEqual([[READY], 1]);
    again.stop();
    await again.done;
  });

  it('complete, then the id at once for a query: its result and complete, never a bare complete', async () => {
    const seen = [];
    for (let round = 0; round < 10; round++) {
      const { socket, messages } = await acknowledgedSocket();
      socket.send(JSON.stringify({ id: 'X', type: 'subscribe', payload: { query: STATUS } }));
      await until(() => messages.some((m) => m.type === 'next'), 'the first value');
      const from = messages.length;
      socket.send(JSON.stringify({ id: 'X', type: 'complete' }));
      socket.send(JSON.stringify({ id: 'X', type: 'subscribe', payload: { query: '{ status { status } }' } }));
      await until(() => messages.slice(from).some((m) => m.type === 'complete' || m.type === 'error'), 'the second operation');
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen.push(messages.slice(from));
      socket.terminate();
      await until(() => stack.gateway.live.active === 0, 'every subscription of the socket to end');
    }
    const answered = [
      { id: 'X', type: 'next', payload: { data: { status: { status: 'ready' } } } },
      { id: 'X', type: 'complete' },
    ];
    expect(seen).toEqual(Array.from({ length: 10 }, () => answered));
  });
});

describe('a WebSocket client that does not read', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ TRUST_PROXY: '1' });
  });
  afterAll(() => stack.close());

  it('sending pings and reading no pong, it is cut once 4 MiB wait for it; the gateway serves on', async () => {
    const socket = new WebSocket(`${stack.gatewayUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers: from(C) });
    const received: string[] = [];
    socket.on('message', (data: Buffer) => received.push(data.toString().slice(0, 20)));
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init' }));
    await until(() => received.length === 1, 'connection_ack');
    // Stop reading: every pong the gateway answers now waits for this client.
    const raw = (socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    const ping = JSON.stringify({ type: 'ping', payload: { x: 'a'.repeat(90_000) } });
    let sent = 0;
    while (socket.readyState === WebSocket.OPEN && sent < 64 * 1024 * 1024) {
      socket.send(ping);
      sent += ping.length;
      await new Promise((resolve) => setImmediate(resolve));
    }
    raw.resume();
    // Abnormal closure: the gateway cut the connection instead of queueing pongs for ever.
    expect(await closed).toBe(1006);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    const next = ws(wsClient(stack.gatewayUrl, C), STATUS);
    await until(() => next.results.length > 0, 'a new socket of the same client served');
    expect(next.results).toEqual([READY]);
    next.stop();
    await next.done;
  });
});
