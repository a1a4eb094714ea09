/**
 * A connection may have at most MAX_PIPELINED_REQUESTS requests waiting for their answers: one that
 * pipelines more (and need not read) is closed, so that it cannot make the gateway run and hold an
 * answer for every request it wrote. Pipelining within the bound is answered in order.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MAX_PIPELINED_REQUESTS } from '../../src/http/pipelining-cap.js';
import { startStack, type Stack } from '../harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const readyz = 'GET /readyz HTTP/1.1\r\nHost: localhost\r\n\r\n';

/** Writes `count` pipelined requests at once; answers the statuses read until the gateway closed the connection, or `count` answers. */
async function pipeline(count: number): Promise<{ statuses: string[]; closedByGateway: boolean }> {
  const { port } = new URL(stack.gatewayUrl);
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  const statuses = () => [...received.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((match) => match[1]!);
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
    socket.write(readyz.repeat(count));
  });
}

test('pipelined requests within the bound are answered in order', async () => {
  expect(await pipeline(MAX_PIPELINED_REQUESTS)).toEqual({
    statuses: Array.from({ length: MAX_PIPELINED_REQUESTS }, () => '200'),
    closedByGateway: false,
  });
});

test('a connection that pipelines past the bound is closed before the gateway answers them all', async () => {
  const { statuses, closedByGateway } = await pipeline(200);
  expect([closedByGateway, statuses.length <= MAX_PIPELINED_REQUESTS]).toEqual([true, true]);
});
