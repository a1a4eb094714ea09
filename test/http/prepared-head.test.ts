/**
 * A prepared head (src/http/prepared-head.ts) puts on the wire the bytes node's `writeHead` would,
 * read back raw from a socket: node's own server answers each request twice over, once each way,
 * and the two answers are compared byte for byte. Outside the one case it knows, it writes nothing
 * and says so, and node's `writeHead` answers as ever.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { flatHead } from '../../src/http/node-response.js';
import { endOk, headLines } from '../../src/http/prepared-head.js';

const BODY = Buffer.from('{"data":{"status":"ready","name":"PIZZA•CHAIN•HALVING"}}');
const LIST = flatHead([
  { 'content-type': 'application/graphql-response+json; charset=utf-8', etag: 'W/"1"' },
  { 'access-control-allow-origin': 'https://app.example', vary: 'Origin' },
  { 'content-length': String(BODY.length) },
]);
const LINES = headLines(LIST)!;

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server answering `/prepared` with a prepared head when `endOk` takes it (each verdict kept in `taken`), else with writeHead. */
async function serve(options: { keepAliveTimeout?: number; maxRequestsPerSocket?: number } = {}, before?: (res: ServerResponse) => void) {
  const taken: boolean[] = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    before?.(res);
    if (req.url === '/prepared') {
      const done = endOk(res, LINES, 'x-request-id: id-1\r\n', BODY);
      taken.push(done);
      if (done) return;
    }
    if (!res.headersSent) res.writeHead(200, [...LIST, 'x-request-id', 'id-1']).end(BODY);
  });
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.maxRequestsPerSocket !== undefined) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server!.address() as AddressInfo).port, taken };
}

/** Writes `requests` on one connection at once and reads `count` answers (or to the connection's end). */
function exchange(port: number, requests: string, count: number, bodiless = false): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    const answers: string[] = [];
    const finish = () => {
      socket.destroy();
      resolve(answers);
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      for (;;) {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = received.subarray(0, end).toString('latin1');
        const length = /content-length: (\d+)/i.exec(head);
        const total = end + 4 + (length && !bodiless ? Number(length[1]) : 0);
        if (received.length < total) return;
        answers.push(received.subarray(0, total).toString('latin1'));
        received = received.subarray(total);
        if (answers.length === count) return finish();
      }
    });
    socket.on('end', finish);
    socket.on('error', reject);
    socket.write(requests);
  });
}

/** The answer with its Date value named, after checking it is an HTTP date of now. */
function dated(answer: string): string {
  return answer.replace(/\r\nDate: ([^\r]+)\r\n/, (_, value: string) => {
    expect(Math.abs(Date.parse(value) - Date.now())).toBeLessThan(5_000);
    expect(new Date(Date.parse(value)).toUTCString()).toBe(value);
    return '\r\nDate: <now>\r\n';
  });
}

const request = (path: string, extra = '', version = '1.1') => `GET ${path} HTTP/${version}\r\nHost: 127.0.0.1\r\n${extra}\r\n`;

describe('a prepared head', () => {
  test.each([
    ['default keep-alive', {}, `Keep-Alive: timeout=5\r\n`],
    ['keepAliveTimeout 0: no Keep-Alive line', { keepAliveTimeout: 0 }, ''],
    ['a request limit per socket', { keepAliveTimeout: 61_000, maxRequestsPerSocket: 10 }, `Keep-Alive: timeout=61, max=10\r\n`],
    ['a limit past 32 bits, which node writes as none', { maxRequestsPerSocket: 2 ** 31 }, `Keep-Alive: timeout=5\r\n`],
  ])('is the head writeHead writes (%s), pipelined answers in order', async (_, options, keepAlive) => {
    const { port, taken } = await serve(options);
    const answers = await exchange(port, request('/prepared') + request('/plain') + request('/prepared'), 3);
    const expected =
      'HTTP/1.1 200 OK\r\n' +
      'content-type: application/graphql-response+json; charset=utf-8\r\netag: W/"1"\r\n' +
      'access-control-allow-origin: https://app.example\r\nvary: Origin\r\n' +
      `content-length: ${BODY.length}\r\nx-request-id: id-1\r\nDate: <now>\r\nConnection: keep-alive\r\n${keepAlive}\r\n` +
      BODY.toString('latin1');
    expect(answers.map(dated)).toEqual([expected, expected, expected]);
    expect(taken).toEqual([true, true]);
  });

  test.each([
    ['HTTP/1.0 without keep-alive', request('/prepared', '', '1.0'), 'Connection: close'],
    ['Connection: close', request('/prepared', 'Connection: close\r\n'), 'Connection: close'],
    ['HEAD', request('/prepared').replace('GET', 'HEAD'), 'Connection: keep-alive'],
  ])('leaves %s to writeHead', async (_, sent, connection) => {
    const { port, taken } = await serve();
    const [answer] = await exchange(port, sent, 1, sent.startsWith('HEAD'));
    expect(taken).toEqual([false]);
    expect(dated(answer!)).toContain(`x-request-id: id-1\r\nDate: <now>\r\n${connection}\r\n`);
  });

  test('leaves the last request a socket may carry to writeHead, which closes it', async () => {
    const { port, taken } = await serve({ maxRequestsPerSocket: 2 });
    const answers = await exchange(port, request('/prepared') + request('/prepared'), 2);
    expect(taken).toEqual([true, false]);
    expect(answers.map((answer) => /Connection: ([\w-]+)/.exec(answer)![1])).toEqual(['keep-alive', 'close']);
  });

  test('leaves a response with a header removed before to writeHead, which leaves it out', async () => {
    const { port, taken } = await serve({}, (res) => res.removeHeader('connection'));
    const [answer] = await exchange(port, request('/prepared'), 1);
    expect(taken).toEqual([false]);
    expect(answer).not.toContain('Connection:');
  });

  test('dates each answer anew when the clock is set back', async () => {
    const { port } = await serve();
    const dateOf = async () => /\r\nDate: ([^\r]+)\r\n/.exec((await exchange(port, request('/prepared'), 1))[0]!)![1];
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now);
    try {
      const before = await dateOf();
      clock.mockReturnValue(now - 3_600_000);
      expect([before, await dateOf()]).toEqual([new Date(now).toUTCString(), new Date(now - 3_600_000).toUTCString()]);
    } finally {
      clock.mockRestore();
    }
  });

  test('leaves a response with a header set before to writeHead, which keeps that header', async () => {
    const { port, taken } = await serve({}, (res) => res.setHeader('x-trace', 't1'));
    const [answer] = await exchange(port, request('/prepared'), 1);
    expect(taken).toEqual([false]);
    expect(answer).toContain('x-trace: t1\r\n');
  });
});

describe('head lines', () => {
  test('are checked once: names node acts on, or no Content-Length, leave the head to node', () => {
    expect(headLines(['content-type', 'text/plain', 'content-length', '2'])).toBe('content-type: text/plain\r\ncontent-length: 2\r\n');
    const refused = ['connection', 'transfer-encoding', 'date', 'expect', 'trailer', 'keep-alive', 'content-disposition'].map((name) =>
      headLines([name, 'x', 'content-length', '2']),
    );
    expect(refused).toEqual(Array(7).fill(undefined));
    expect(headLines(['content-type', 'text/plain'])).toBeUndefined();
  });

  test('throw on what HTTP forbids, as writeHead does', () => {
    expect(() => headLines(['x-a', 'one\r\nx-injected: 1', 'content-length', '2'])).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_CHAR' }) as Error,
    );
    expect(() => headLines(['x a', '1', 'content-length', '2'])).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_HTTP_TOKEN' }) as Error,
    );
  });
});
