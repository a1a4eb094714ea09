/**
 * Pipelined requests (HTTP/1.1): a connection may have at most MAX_PIPELINED_REQUESTS waiting for
 * their answers, past which it is closed, so that a client that need not read cannot make the
 * gateway run and hold an answer for every request it wrote. And when a connection closes, the
 * answers node left queued behind the one it was writing are closed too: each request is logged,
 * its work cancelled, and the drain does not wait for them.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { MAX_PIPELINED_REQUESTS } from '../../src/http/pipelining-cap.js';
import { startStack, type Stack } from '../harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());
afterEach(() => stack.sample.reset());

const etchingsPage = (offset: number) => `GET /runes/v1/etchings?limit=60&offset=${offset} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
const pipelined = (count: number) => Array.from({ length: count }, (_, i) => etchingsPage(i)).join('');

function open(): Socket {
  return connect(Number(new URL(stack.gatewayUrl).port), '127.0.0.1');
}

/** Access lines of the etchings requests so far. */
const logged = () => stack.logs.filter((line) => line.includes('"msg":"request"') && line.includes('/runes/v1/etchings')).length;

async function until(done: () => boolean, withinMs = 5_000) {
  for (let waited = 0; waited < withinMs && !done(); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Writes `count` pipelined requests at once; the statuses read until the gateway closed the connection, or `count` answers. */
async function pipeline(count: number): Promise<{ statuses: string[]; closedByGateway: boolean }> {
  const socket = open();
  let received = '';
  const statuses = () => [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1]!);
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (statuses().length === count) {
        socket.destroy();
        resolve({ statuses: statuses(), closedByGateway: false });
      }
    });
    socket.on('close', () => resolve({ statuses: statuses(), closedByGateway: true }));
    socket.write(pipelined(count));
  });
}

test('pipelined requests within the bound are answered in order', async () => {
  expect(await pipeline(MAX_PIPELINED_REQUESTS)).toEqual({
    statuses: Array.from({ length: MAX_PIPELINED_REQUESTS }, () => '200'),
    closedByGateway: false,
  });
});

test('a connection that pipelines past the bound is closed; the requests it had waiting are each logged', async () => {
  const before = logged();
  const { statuses, closedByGateway } = await pipeline(200);
  expect([closedByGateway, statuses.length <= MAX_PIPELINED_REQUESTS]).toEqual([true, true]);
  await until(() => logged() - before === MAX_PIPELINED_REQUESTS);
  expect(logged() - before).toBe(MAX_PIPELINED_REQUESTS);
});

test('a client that leaves with pipelined requests running: each is closed and logged, none waits for the drain', async () => {
  stack.sample.inject({ path: '/runes/v1/etchings', delayMs: 300 });
  const before = logged();
  const socket = open();
  socket.on('error', () => {});
  socket.write(pipelined(10));
  await until(() => stack.sample.requests.length > 0);
  socket.destroy();
  await until(() => logged() - before === 10);
  expect(logged() - before).toBe(10);
});
