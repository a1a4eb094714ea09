/**
 * Several Accept lines, over raw HTTP (fetch joins them before they leave): yoga reads them as the
 * one value node joins them into, the value the response fast path keys on. Ranked line by line,
 * `application/json;q=0.5` and `application/graphql-response+json` on two lines got plain JSON,
 * the same value on one line the preferred type, and both shared one stored answer: whichever came
 * first decided what the other got.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startStack, type Stack } from '../harness.js';

const BODY = JSON.stringify({ query: '{ brc20Token(ticker: "ordi") { token { ticker } } }' });
const ORDI = '{"data":{"brc20Token":{"token":{"ticker":"ordi"}}}}';

/** A POST with these Accept lines, on its own connection: its status, Content-Type and body. */
function post(port: number, acceptLines: string[]): Promise<{ status: number; contentType: string | undefined; body: string }> {
  const head = [
    'POST /graphql HTTP/1.1',
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(BODY)}`,
    'Connection: close',
    ...acceptLines.map((line) => `Accept: ${line}`),
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [headers = '', ...body] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
      const [statusLine = '', ...lines] = headers.split('\r\n');
      const contentType = lines
        .find((line) => /^content-type:/i.test(line))
        ?.slice('content-type:'.length)
        .trim();
      resolve({ status: Number(statusLine.split(' ')[1]), contentType, body: body.join('\r\n\r\n') });
    });
    // Not end(): node aborts a request whose client half-closes before the answer.
    socket.write(`${head.join('\r\n')}\r\n\r\n${BODY}`);
  });
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ CACHE_TTL_MS: '60000' });
});
afterAll(() => stack.close());

test('two Accept lines answer as the same value on one line, stored or not', async () => {
  const preferred = { status: 200, contentType: 'application/graphql-response+json; charset=utf-8', body: ORDI };
  const port = stack.gateway.port;
  expect(await post(port, ['application/json;q=0.5', 'application/graphql-response+json'])).toEqual(preferred);
  expect(await post(port, ['application/json;q=0.5, application/graphql-response+json'])).toEqual(preferred);
  expect(await post(port, ['application/json;q=0.5', 'application/graphql-response+json'])).toEqual(preferred);
});
