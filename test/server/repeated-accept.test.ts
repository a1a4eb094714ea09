/**
 * Several Accept lines, over raw HTTP (fetch joins them before they leave): yoga reads them as the
 * one value node joins them into, the value the response fast path keys on. Ranked line by line,
 * `application/json;q=0.5` and `application/graphql-response+json` on two lines got plain JSON,
 * the same value on one line the preferred type, and both shared one stored answer: whichever came
 * first decided what the other got.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseRawAnswer, rawExchange } from '../../bench/lib/raw-http.js';
import { startStack, type Stack } from '../harness.js';

const BODY = JSON.stringify({ query: '{ brc20Token(ticker: "ordi") { token { ticker } } }' });
const ORDI = '{"data":{"brc20Token":{"token":{"ticker":"ordi"}}}}';

/** A POST with these Accept lines, on its own connection: its status, Content-Type and body. */
async function post(port: number, acceptLines: string[]): Promise<{ status: number; contentType: string | undefined; body: string }> {
  const head = [
    'POST /graphql HTTP/1.1',
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(BODY)}`,
    'Connection: close',
    ...acceptLines.map((line) => `Accept: ${line}`),
  ];
  const bytes = await rawExchange(new URL(`http://127.0.0.1:${port}`), `${head.join('\r\n')}\r\n\r\n${BODY}`, 10_000);
  const headers = bytes.subarray(0, bytes.indexOf('\r\n\r\n')).toString('latin1');
  return { ...parseRawAnswer(bytes), contentType: /^content-type:\s*(.*?)\s*$/im.exec(headers)?.[1] };
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
