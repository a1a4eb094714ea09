/**
 * Requests node's HTTP parser refuses before the listener sees them (node's `clientError`), over
 * raw sockets: each gets a short JSON error with `Connection: close`, one `request refused` log
 * line with node's code and the client's keyed hash (never the bytes it sent), and a count in
 * satgate_http_client_errors_total by reason.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rawExchange } from '../../bench/lib/raw-http.js';
import { startStack, type Stack } from '../harness.js';

let stack: Stack;
beforeAll(async () => {
  // node checks the request deadline every REQUEST_TIMEOUT_MS / 10: a client too slow is cut in about a second.
  stack = await startStack({ REQUEST_TIMEOUT_MS: '1000' });
});
afterAll(() => stack.close());

const send = async (bytes: string) => (await rawExchange(new URL(stack.gatewayUrl), bytes, 10_000)).toString('utf8');

/** satgate_http_client_errors_total by reason, from /metrics. */
async function refusals(): Promise<Record<string, number>> {
  const text = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
  return Object.fromEntries(
    [...text.matchAll(/^satgate_http_client_errors_total\{reason="(\w+)"\} (\d+)$/gm)].map(([, reason, n]) => [reason!, Number(n)]),
  );
}

/** The log lines written since `from`, parsed (the handler logs before the client can read its answer). */
async function linesSince(from: number): Promise<Array<Record<string, unknown>>> {
  return stack.logs.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);
}

function answer(status: string, message: string, code = 'BAD_REQUEST'): string {
  const body = JSON.stringify({ errors: [{ message, extensions: { code } }] });
  return `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
}

const refusedLine = (status: number, reason: string, code: string) => ({
  level: 'info',
  time: expect.any(String) as string,
  app: 'satgate',
  pid: process.pid,
  status,
  reason,
  code,
  // The keyed hash of the peer's address (client-identity.ts), never the address.
  client: expect.stringMatching(/^[\w-]{43}$/) as string,
  msg: 'request refused',
});

describe("a request node's parser refuses", () => {
  test.each([
    {
      what: 'a 20 kB request target',
      bytes: `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      answer: answer('431 Request Header Fields Too Large', 'Request header fields too large'),
      line: refusedLine(431, 'header_overflow', 'HPE_HEADER_OVERFLOW'),
    },
    {
      what: 'an unknown method',
      bytes: 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n',
      answer: answer('400 Bad Request', 'Unknown HTTP method'),
      line: refusedLine(400, 'invalid_method', 'HPE_INVALID_METHOD'),
    },
    {
      what: 'a control byte in the request target',
      bytes: 'GET /a\x01b HTTP/1.1\r\nHost: x\r\n\r\n',
      answer: answer('400 Bad Request', 'Malformed request target'),
      line: refusedLine(400, 'invalid_target', 'HPE_INVALID_URL'),
    },
    {
      what: 'a request line with an unknown HTTP version',
      bytes: 'GET / HTTP/9.9\r\nHost: x\r\n\r\n',
      answer: answer('400 Bad Request', 'Malformed HTTP request'),
      line: refusedLine(400, 'malformed', 'HPE_INVALID_VERSION'),
    },
    {
      what: 'a header name with a space',
      bytes: 'GET / HTTP/1.1\r\nHo st: x\r\n\r\n',
      answer: answer('400 Bad Request', 'Malformed header'),
      line: refusedLine(400, 'invalid_header', 'HPE_INVALID_HEADER_TOKEN'),
    },
    {
      what: 'headers that never end (REQUEST_TIMEOUT_MS)',
      bytes: 'GET /graphql HTTP/1.1\r\nHost: x\r\n',
      answer: answer('408 Request Timeout', 'The request was not received within REQUEST_TIMEOUT_MS', 'REQUEST_TIMEOUT'),
      line: refusedLine(408, 'request_timeout', 'ERR_HTTP_REQUEST_TIMEOUT'),
    },
  ])('$what: a JSON error, one log line, one count', async ({ bytes, answer, line }) => {
    const counted = await refusals();
    const from = stack.logs.length;
    expect(await send(bytes)).toEqual(answer);
    expect(await linesSince(from)).toEqual([line]);
    expect(await refusals()).toEqual({ ...counted, [line.reason]: counted[line.reason]! + 1 });
  });

  test('a connection that sends nothing is closed at the deadline, unanswered, unlogged and uncounted', async () => {
    const counted = await refusals();
    const from = stack.logs.length;
    expect(await send('')).toEqual('');
    expect([await linesSince(from), await refusals()]).toEqual([[], counted]);
  });

  test('every reason is counted from 0', async () => {
    expect(Object.keys(await refusals()).sort()).toEqual([
      'header_overflow',
      'invalid_header',
      'invalid_method',
      'invalid_target',
      'malformed',
      'request_timeout',
    ]);
  });

  test('what the client sent is never logged or answered back: a key in the target and in a header', async () => {
    const key = 'refused-key-4b1d9e';
    const from = stack.logs.length;
    const text = await send(`GET /v1/ext/${key}/bitcoin-node/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\n\r\n`);
    expect(text).toEqual(answer('431 Request Header Fields Too Large', 'Request header fields too large'));
    const lines = await linesSince(from);
    expect(lines).toEqual([refusedLine(431, 'header_overflow', 'HPE_HEADER_OVERFLOW')]);
    expect(JSON.stringify(lines)).not.toContain(key);
  });
});
