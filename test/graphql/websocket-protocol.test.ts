/**
 * graphql-ws's protocol where a client breaks it (src/graphql/websocket-transport.ts): a message
 * only a server sends closes the socket with 4400, a frame past MAX_BODY_BYTES with 1009, and
 * neither writes anything outside the gateway's log (graphql-ws's own adapter wrote the error's
 * stack to the console, once per socket). And an operation refused for naming no operation of its
 * document holds none of the connection's places.
 */
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import WebSocket from 'ws';
import { startStack, type Stack } from '../harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ MAX_BODY_BYTES: '4096', MAX_SUBSCRIPTIONS_PER_CONNECTION: '2' });
});
afterAll(() => stack.close());
afterEach(() => vi.restoreAllMocks());

/** Opens a socket, has it acknowledged, sends `frame`, and answers how the gateway closed it. */
async function closeAfter(frame: string): Promise<{ code: number; reason: string }> {
  const socket = new WebSocket(`${stack.gatewayUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  socket.on('error', () => {});
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const acked = new Promise((resolve) => socket.once('message', resolve));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await acked;
  socket.send(frame);
  return closed;
}

test.each([
  ['connection_ack', { type: 'connection_ack' }],
  ['next', { id: '1', type: 'next', payload: { data: null } }],
  ['error', { id: '1', type: 'error', payload: [{ message: 'x' }] }],
])('a client that sends %s is closed with 4400, and the console stays silent', async (_type, message) => {
  const console = [vi.spyOn(globalThis.console, 'error'), vi.spyOn(globalThis.console, 'warn')];
  expect(await closeAfter(JSON.stringify(message))).toEqual({ code: 4400, reason: 'Invalid message received' });
  expect(console.map((spy) => spy.mock.calls)).toEqual([[], []]);
});

test('a frame past MAX_BODY_BYTES is closed with 1009, and the console stays silent', async () => {
  const console = [vi.spyOn(globalThis.console, 'error'), vi.spyOn(globalThis.console, 'warn')];
  const frame = JSON.stringify({ id: '1', type: 'subscribe', payload: { query: `{ status { status } } #${'x'.repeat(5000)}` } });
  expect(await closeAfter(frame)).toEqual({ code: 1009, reason: '' });
  // ws emits the error after closing: give it its turn.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(console.map((spy) => spy.mock.calls)).toEqual([[], []]);
});

test('operations naming none of their document are refused, and hold none of the connection’s places', async () => {
  const socket = new WebSocket(`${stack.gatewayUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const messages: Array<{ type: string; id?: string; payload?: unknown }> = [];
  socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString()) as (typeof messages)[number]));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  try {
    socket.send(JSON.stringify({ type: 'connection_init' }));
    const answered = async (count: number) => {
      for (let i = 0; i < 500 && messages.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    await answered(1);
    for (const id of ['1', '2', '3']) {
      socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query: 'query A { status { status } }', operationName: 'B' } }));
    }
    await answered(4);
    socket.send(JSON.stringify({ id: '4', type: 'subscribe', payload: { query: '{ status { status } }' } }));
    await answered(6);
    const unidentified = (id: string) => ({
      id,
      type: 'error',
      payload: [{ message: 'No operation named "B" in the document; it has: A', extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } }],
    });
    expect(messages).toEqual([
      { type: 'connection_ack' },
      unidentified('1'),
      unidentified('2'),
      unidentified('3'),
      { id: '4', type: 'next', payload: { data: { status: { status: 'ready' } } } },
      { id: '4', type: 'complete' },
    ]);
  } finally {
    socket.close();
  }
});
