/**
 * The bench's load generator (bench/lib/load.ts) reads HTTP/1.1 answers itself, over a reused read
 * buffer: its framing and body checks decide what `npm run bench` reports, so they are tested here
 * against a real node:http server on 127.0.0.1 that answers in every framing it may meet.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { load, type LoadResult } from '../bench/lib/load.js';
import { cpuMicros, probeMachine } from '../bench/lib/procs.js';

const BODY = JSON.stringify({ ticker: 'ordi', holders: 12_345, note: 'é'.repeat(3000), tail: 'x'.repeat(70_000) });
const REORDERED = JSON.stringify({ holders: 12_345, ticker: 'ordi', note: 'é'.repeat(3000), tail: 'x'.repeat(70_000) });

let server: Server;
let base: string;
/** When /slowing starts to answer slowly (performance.now()). */
let slowFrom = Infinity;
/** Requests the server saw, by path (the ramp's /healthz included). */
const seen = new Map<string, number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    seen.set(path, (seen.get(path) ?? 0) + 1);
    const body = Buffer.from(BODY);
    switch (path) {
      case '/healthz':
        res.writeHead(404).end();
        return;
      case '/length': {
        // Content-Length, the body in three writes (split inside a multi-byte character).
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
        res.write(body.subarray(0, 7));
        setImmediate(() => {
          res.write(body.subarray(7, 2001));
          setImmediate(() => res.end(body.subarray(2001)));
        });
        return;
      }
      case '/chunked':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(body.subarray(0, 1000));
        setImmediate(() => res.end(body.subarray(1000)));
        return;
      case '/close':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length, connection: 'close' }).end(body);
        return;
      case '/reordered':
        res.writeHead(200, { 'content-type': 'application/json' }).end(REORDERED);
        return;
      case '/different':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ticker":"pepe"}');
        return;
      case '/empty':
        res.writeHead(204).end();
        return;
      case '/post':
        // Echoes the request body: the generator sent exactly the body it was given.
        req.pipe(res);
        return;
      case '/cut':
        res.writeHead(200, { 'content-length': body.length });
        res.write(body.subarray(0, 100), () => res.destroy());
        return;
      case '/slowing':
        // At once until `slowFrom`, then 20 ms an answer: the server's speed changes mid-window.
        setTimeout(() => res.writeHead(200).end('ok'), performance.now() < slowFrom ? 0 : 20);
        return;
      default:
        res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** `amount` answers on `connections` connections, no ramp or warm-up: every answer counted. */
function amount(path: string, n: number, extra: Partial<Parameters<typeof load>[0]> = {}): Promise<LoadResult> {
  return load({ url: base + path, connections: 4, amount: n, duration: 20, expectBody: BODY, ...extra });
}

/** The counts a run reports, without its timings. */
function counts(result: LoadResult) {
  const { requests, non2xx, failed, mismatched, reordered, statusCodes, mismatchSample } = result;
  return { requests, non2xx, failed, mismatched, reordered, statusCodes, mismatchSample };
}

const clean = (n: number, status = 200) => ({
  requests: n, non2xx: 0, failed: 0, mismatched: 0, reordered: 0, statusCodes: { [status]: n }, mismatchSample: undefined,
});

describe('the load generator', () => {
  test('reads Content-Length answers whose body arrives in pieces, and checks them as bytes', async () => {
    expect(counts(await amount('/length', 40))).toEqual(clean(40));
  });

  test('reads chunked answers', async () => {
    expect(counts(await amount('/chunked', 40))).toEqual(clean(40));
  });

  test('opens a new connection after an answer that closes its own, and counts no failure', async () => {
    expect(counts(await amount('/close', 20))).toEqual(clean(20));
  });

  test('counts the same JSON with keys in another order apart, and a different body as bad', async () => {
    expect(counts(await amount('/reordered', 8))).toEqual({ ...clean(8), reordered: 8 });
    expect(counts(await amount('/different', 8))).toEqual({ ...clean(8), mismatched: 8, mismatchSample: '{"ticker":"pepe"}' });
  });

  test('reads an answer without a body (204)', async () => {
    expect(counts(await amount('/empty', 10, { expectBody: undefined }))).toEqual(clean(10, 204));
  });

  test('sends POST bodies as given, one per request with bodyFor', async () => {
    let n = 0;
    const bodies: string[] = [];
    const bodyFor = () => {
      const body = `{"n":${n++}}`;
      bodies.push(body);
      return body;
    };
    const fixed = await amount('/post', 6, { method: 'POST', body: BODY });
    expect(counts(fixed)).toEqual(clean(6));
    // The server echoes each body: with an expected body of the first, all the others differ.
    const distinct = await amount('/post', 6, { method: 'POST', bodyFor, expectBody: '{"n":0}' });
    expect(counts(distinct)).toMatchObject({ requests: 6, failed: 0, mismatched: 5 });
    expect(bodies).toEqual(['{"n":0}', '{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}', '{"n":5}']);
  });

  test('counts a connection cut mid-answer as failed, not as an answer', async () => {
    const result = await amount('/cut', 5);
    expect(counts(result)).toEqual({ ...clean(0), failed: 5, statusCodes: {} });
  });

  test('reads answers that arrive a byte at a time (heads and chunk sizes split across reads), header names in any case', async () => {
    const small = '{"ticker":"ordi","holders":"12345"}';
    const answers = [
      `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${small.length}\r\n\r\n${small}`,
      `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${(10).toString(16)}\r\n${small.slice(0, 10)}\r\n` +
        `${(small.length - 10).toString(16)}\r\n${small.slice(10)}\r\n0\r\n\r\n`,
      // Names in any case; a close announced this way opens a new connection, and is no failure.
      `HTTP/1.1 200 OK\r\nCONTENT-LENGTH: ${small.length}\r\nConnection: Close\r\n\r\n${small}`,
    ];
    let next = 0;
    let connections = 0;
    const tcp = createTcpServer((socket) => {
      connections++;
      socket.setNoDelay(true);
      socket.on('data', () => {
        const bytes = Buffer.from(answers[next++ % answers.length]!);
        let at = 0;
        const drip = () => {
          if (socket.destroyed) return;
          socket.write(bytes.subarray(at, at + 1));
          if (++at < bytes.length) setTimeout(drip, 0);
        };
        drip();
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(tcp.address() as AddressInfo).port}/`;
      const result = await load({ url, connections: 1, amount: 5, duration: 5, expectBody: small });
      expect(counts(result)).toEqual(clean(5));
      expect(connections).toBe(2);
    } finally {
      await new Promise((resolve) => tcp.close(resolve));
    }
  });

  test('a timed run ramps every connection up on /healthz, then measures only the workload', async () => {
    seen.clear();
    const result = await load({ url: `${base}/length`, connections: 5, duration: 0.3, warmup: 0.1, expectBody: BODY });
    expect(result).toMatchObject({ non2xx: 0, failed: 0, mismatched: 0, reordered: 0, unopened: 0 });
    expect(result.requests).toBeGreaterThan(0);
    expect(result.statusCodes).toEqual({ 200: result.requests });
    expect(result.p99).toBeGreaterThanOrEqual(result.p50);
    // Each connection's first request was the ramp's; the window's answers are all /length ones.
    expect(seen.get('/healthz')).toBeGreaterThanOrEqual(5);
    expect(seen.get('/length')).toBeGreaterThanOrEqual(result.requests);
  });

  test('a timed run reports how far its req/s swung between half seconds of the window, and how busy the server was in the slowest and fastest', async () => {
    // The server is this process: busy while it answers at full speed, idle while each answer waits 20 ms.
    const run = () => load({ url: `${base}/slowing`, connections: 5, duration: 2, warmup: 0.1, expectBody: 'ok', serverCpu: () => cpuMicros(process.pid) });
    const steady = await run();
    slowFrom = performance.now() + 1100;
    const slowing = await run().finally(() => (slowFrom = Infinity));
    // 5 connections: thousands of answers a second, then 5 ÷ 20 ms = 250 at most.
    expect(slowing.rateSwing).toBeGreaterThan(4);
    expect(steady.rateSwing).toBeLessThan(slowing.rateSwing! / 2);
    expect(slowing.serverBusy!.slowest).toBeLessThan(0.3);
    expect(slowing.serverBusy!.fastest).toBeGreaterThan(2 * slowing.serverBusy!.slowest);
  });

  test('the machine probe counts a fixed piece of work per half second, on the CPU it was placed on', async () => {
    const placed: Array<[number, string]> = [];
    const probe = await probeMachine({ description: 'recorded', place: (pid, where) => placed.push([pid, where]) }, 1.5, 0.1);
    expect(placed).toEqual([[expect.any(Number), 'server']]);
    expect(probe.counts).toHaveLength(3);
    // Pieces are counted 20 at a time; a half second holds thousands of them.
    for (const count of probe.counts) expect(count % 20 === 0 && count >= 1000).toBe(true);
    expect(probe.swing).toBe(Math.max(...probe.counts) / Math.min(...probe.counts));
  });
});
