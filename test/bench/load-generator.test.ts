/**
 * The bench's load generator (bench/lib/load.ts) reads HTTP/1.1 answers itself, over a reused read
 * buffer: its framing and body checks decide what `npm run bench` reports, so they are tested here
 * against a real node:http server on 127.0.0.1 that answers in every framing it may meet. So are
 * the pieces that judge `--abuse`'s hostile answers: what they call expected is what the run passes.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSchema, parse } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HOSTILE_HOST_LINES, JIT_MARKERS, MARKER_FILE, hostRequest, markerPayload, markerRequest } from '../../bench/lib/hostile-http.js';
import { churnTicker, judgeChurn, judgeSlot } from '../../bench/lib/live-attack.js';
import { load, type LoadResult } from '../../bench/lib/load.js';
import { cpuMicros, probeMachine } from '../../bench/lib/procs.js';
import { sumMetric } from '../../bench/lib/prometheus.js';
import { parseRawAnswer, rawRequest } from '../../bench/lib/raw-http.js';
import { firstAnswer, parseSse } from '../../bench/lib/subscribe.js';
import { countAnswer, countSent, tallyTable, unexpectedCount, type Tally } from '../../bench/lib/tally.js';

const BODY = JSON.stringify({ ticker: 'ordi', holders: 12_345, note: 'é'.repeat(3000), tail: 'x'.repeat(70_000) });
const REORDERED = JSON.stringify({ holders: 12_345, ticker: 'ordi', note: 'é'.repeat(3000), tail: 'x'.repeat(70_000) });

/** A rotation turn's answer: long enough to arrive in several reads. */
const turnAnswer = (n: number) => JSON.stringify({ n, pad: 'x'.repeat(70_000) });
const reorderedTurnAnswer = (n: number) => JSON.stringify({ pad: 'x'.repeat(70_000), n });

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
      case '/turn': {
        // The answer to `{"n":…}`, but for n = 2 the answer to 3 (a wrong key's answer) and for
        // n = 1 its own data with the keys in another order.
        let text = '';
        req.on('data', (chunk: Buffer) => (text += String(chunk)));
        req.on('end', () => {
          const { n } = JSON.parse(text) as { n: number };
          res.writeHead(200, { 'content-type': 'application/json' }).end(n === 1 ? reorderedTurnAnswer(1) : turnAnswer(n === 2 ? 3 : n));
        });
        return;
      }
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
  requests: n,
  non2xx: 0,
  failed: 0,
  mismatched: 0,
  reordered: 0,
  statusCodes: { [status]: n },
  mismatchSample: undefined,
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

  test("with a rotation, checks each answer against its own turn's, by bytes or by markers", async () => {
    const turns = [0, 1, 2, 3].map((n) => ({ body: JSON.stringify({ n }), expect: Buffer.from(turnAnswer(n)) }));
    // Two rounds on one connection: turn 2's answer (3's) is wrong twice, turn 1's reordered twice.
    const exact = await amount('/turn', 8, { method: 'POST', connections: 1, expectBody: undefined, rotation: turns });
    expect(counts(exact)).toEqual({ ...clean(8), mismatched: 2, reordered: 2, mismatchSample: turnAnswer(3).slice(0, 300) });
    // Markers: an answer must hold its own `"n":…`; key order does not matter, a wrong key's answer does.
    const marked = turns.map(({ body }, n) => ({ body, contains: [Buffer.from(`"n":${n}`), Buffer.from('x'.repeat(100))] }));
    const byMarkers = await amount('/turn', 8, { method: 'POST', connections: 2, expectBody: undefined, rotation: marked });
    expect(counts(byMarkers)).toEqual({ ...clean(8), mismatched: 2, mismatchSample: turnAnswer(3).slice(0, 300) });
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

  test('a timed run answers every request it sent: the ones in flight when its window closed are awaited and counted', async () => {
    seen.clear();
    // Slow answers (20 ms each on 5 connections): the window closes with requests in flight.
    slowFrom = 0;
    const result = await load({ url: `${base}/slowing`, connections: 5, duration: 0.3, warmup: 0.1, expectBody: 'ok' }).finally(
      () => (slowFrom = Infinity),
    );
    expect(result).toMatchObject({ non2xx: 0, failed: 0, unopened: 0 });
    // Every /slowing request the server saw was answered, and the window's answers are among them.
    expect(result.answeredInAll).toBe(seen.get('/slowing'));
    expect(result.answeredInAll).toBeGreaterThan(result.requests);
  });

  test('a timed run reports how far its req/s swung between half seconds of the window, and how busy the server was in the slowest and fastest', async () => {
    // The server is this process: busy while it answers at full speed, idle while each answer waits 20 ms.
    const run = () =>
      load({ url: `${base}/slowing`, connections: 5, duration: 2, warmup: 0.1, expectBody: 'ok', serverCpu: () => cpuMicros(process.pid) });
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

describe("the abuse run's judges", () => {
  test('the marker payload runs, and writes its file, where graphql-jit compiles the literal as written', async () => {
    // What the bench's file check would see had the gateway compiled the client's literals.
    const dir = mkdtempSync(join(tmpdir(), 'satgate-marker-test-'));
    try {
      const schema = buildSchema(
        'type Token { ticker: String } type Details { token: Token } type Query { brc20Token(ticker: String!): Details }',
      );
      const { query } = JSON.parse(markerRequest(0, dir, '203.0.113.9').http!.body!) as { query: string };
      const compiled = compileQuery(schema, parse(query));
      if (!isCompiledQuery(compiled)) throw new Error(JSON.stringify(compiled));
      expect(existsSync(join(dir, MARKER_FILE))).toBe(false);
      await compiled.query({ brc20Token: () => null }, {}, {});
      expect(existsSync(join(dir, MARKER_FILE))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a marker payload is refused a directory it could not be written into', () => {
    expect(() => markerPayload("/tmp/a'b")).toThrow('marker directory must hold no quote or backslash');
  });

  test('marker requests: each document twice (POST, then GET), every position, marker and literal form, as the markers client', () => {
    const requests = Array.from({ length: 2 * 9 * 4 * 3 }, (_, i) => markerRequest(i, '/tmp/d', '203.0.113.2'));
    const queryOf = (i: number) => {
      const { http } = requests[i]!;
      return http!.method === 'POST'
        ? (JSON.parse(http!.body!) as { query: string }).query
        : new URL(http!.path, 'http://x').searchParams.get('query')!;
    };
    expect(requests.slice(0, 2).map((r) => [r.http!.method, r.http!.headers])).toEqual([
      ['POST', { accept: 'application/json', 'x-forwarded-for': '203.0.113.2', 'content-type': 'application/json' }],
      ['GET', { accept: 'application/json', 'x-forwarded-for': '203.0.113.2', 'x-graphql-yoga-csrf': '1' }],
    ]);
    expect(new URL(requests[1]!.http!.path, 'http://x').searchParams.get('variables')).toBe('{"nonce":1}');
    const queries = requests.map((_, i) => queryOf(i));
    for (let i = 0; i < queries.length; i += 2) expect(queries[i + 1]).toBe(queries[i]);
    // One document per pair, each aliased anew: a new shape to compile every other request.
    expect(new Set(queries).size).toBe(queries.length / 2);
    expect(queries[0]).toBe(`{ m0: brc20Token(ticker: ${JSON.stringify(markerPayload('/tmp/d'))}) { token { ticker } } }`);
    expect(queries[2 * 6]).toBe(`{ m6: status @include(if: ${JSON.stringify(markerPayload('/tmp/d'))}) { status } }`);
    for (const marker of Object.values(JIT_MARKERS)) expect(queries.some((q) => q.includes(`"${marker}`))).toBe(true);
    expect(queries.some((q) => q.includes('\\u005FMAGIC'))).toBe(true);
    expect(queries.some((q) => q.includes(`"""${JIT_MARKERS.nan}"""`))).toBe(true);
  });

  test('a marker answer is expected only as the data and error codes its position gives', () => {
    const token = markerRequest(0, '/tmp/d', 'a');
    const list = markerRequest(2, '/tmp/d', 'a');
    const directive = markerRequest(12, '/tmp/d', 'a');
    const cursor = markerRequest(14, '/tmp/d', 'a');
    expect([
      token.judge(200, '{"data":{"m0":null}}'),
      token.judge(200, '{"errors":[{"message":"x","extensions":{"code":"RATE_LIMITED"}}],"data":{"m0":null}}'),
      token.judge(200, '{"data":{"m0":{"token":{"ticker":"x"}}}}'),
      token.judge(200, '{"errors":[{"message":"x","extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"m0":null}}'),
      token.judge(500, '{"data":{"m0":null}}'),
      token.judge(200, 'not json'),
      list.judge(200, '{"data":{"m1":[null,{"token":{"ticker":"ordi"}}]}}'),
      list.judge(200, '{"data":{"m1":[null,null]}}'),
      directive.judge(200, '{"errors":[{"message":"x","extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}'),
      // A refusal that never asks the upstream cannot be rate limited.
      directive.judge(200, '{"errors":[{"message":"x","extensions":{"code":"RATE_LIMITED"}}]}'),
      cursor.judge(200, '{"errors":[{"message":"x","extensions":{"code":"BAD_USER_INPUT"}}],"data":{"m7":null}}'),
    ]).toEqual([
      'null',
      'null, RATE_LIMITED',
      undefined,
      undefined,
      undefined,
      undefined,
      '[null, ordi]',
      undefined,
      'GRAPHQL_VALIDATION_FAILED',
      undefined,
      'BAD_USER_INPUT',
    ]);
  });

  test('hostile Host requests: every Host line in turn, over GraphQL and REST, expected only as 400 Bad Host header', () => {
    const n = HOSTILE_HOST_LINES.length;
    const heads = Array.from({ length: 2 * n }, (_, i) => hostRequest(i, '203.0.113.3').raw!);
    expect(heads[0]).toBe(
      `GET /graphql?query=${encodeURIComponent('{ brc20Token(ticker: "ordi") { token { ticker } } }')} HTTP/1.1\r\n` +
        `Host: x/graphql?query=${encodeURIComponent('{ brc20Token(ticker: "pepe") { token { ticker } } }')}&z=\r\n` +
        'accept: application/json\r\nx-graphql-yoga-csrf: 1\r\nx-forwarded-for: 203.0.113.3\r\n',
    );
    expect(heads[n]!.startsWith('GET /ordinals/v1/brc-20/tokens/ordi HTTP/1.1\r\nHost: x/graphql?query=')).toBe(true);
    expect(heads.filter((head) => head.includes('Host: a b\r\n'))).toHaveLength(2);
    const { judge } = hostRequest(0, 'a');
    expect([judge(400, 'Bad Host header'), judge(400, ''), judge(200, 'Bad Host header')]).toEqual([
      '400 Bad Host header',
      undefined,
      undefined,
    ]);
  });

  test('raw answers: the status and body, chunked ones cut as bytes', async () => {
    const chunked = Buffer.concat([
      Buffer.from('HTTP/1.1 400 Bad Request\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n'),
      Buffer.from('é'),
      Buffer.from('a\r\n0\r\n\r\n'),
    ]);
    expect(parseRawAnswer(chunked)).toEqual({ status: 400, body: 'éa' });
    expect(parseRawAnswer(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'))).toEqual({ status: 200, body: 'ok' });
    expect(await rawRequest(new URL(base), 'GET /length HTTP/1.1\r\nHost: 127.0.0.1\r\n', 5000)).toEqual({ status: 200, body: BODY });
  });

  test('SSE text: events with their data, keep-alive comments skipped, an unfinished event left for later', () => {
    expect(parseSse(':\n\nevent: next\ndata: {"data":1}\n\nevent: complete\r\ndata:\r\n\r\nevent: next\ndata: {"da')).toEqual({
      events: [
        { event: 'next', data: '{"data":1}' },
        { event: 'complete', data: '' },
      ],
      rest: 'event: next\ndata: {"da',
    });
  });

  test('subscription answers: churn expects a value, a refusal or waiting; a grabbed slot is held open or refused TOO_MANY_SUBSCRIPTIONS', () => {
    const refused = { errors: [{ message: 'x', extensions: { code: 'TOO_MANY_SUBSCRIPTIONS' } }] };
    const answers = [
      { results: [{ data: { brc20Token: null } }], ended: undefined },
      { results: [refused], ended: 'complete' },
      { results: [{ errors: [{ message: 'x', extensions: { code: 'RATE_LIMITED' } }] }], ended: 'complete' },
      { results: [{ errors: [{ message: 'x' }] }], ended: 'error' },
      { results: [], ended: undefined },
      { results: [], ended: 'http 400' },
    ].map(firstAnswer);
    expect(answers).toEqual(['value', 'TOO_MANY_SUBSCRIPTIONS', 'RATE_LIMITED', 'error without a code', 'pending', 'ended (http 400)']);
    expect(answers.map(judgeChurn)).toEqual([
      'first value',
      'TOO_MANY_SUBSCRIPTIONS',
      'RATE_LIMITED',
      undefined,
      'left before a first value (polling plan)',
      undefined,
    ]);
    expect([
      judgeSlot('value', undefined),
      judgeSlot('pending', undefined),
      judgeSlot('value', 'closed'),
      judgeSlot('TOO_MANY_SUBSCRIPTIONS', 'complete'),
      judgeSlot('RATE_LIMITED', 'complete'),
    ]).toEqual(['subscription held', 'subscription held', undefined, 'subscription refused TOO_MANY_SUBSCRIPTIONS', undefined]);
  });

  test("churned tickers: a new one three times in four, sample tokens between, never the normal client's", () => {
    const tickers = Array.from({ length: 400 }, (_, i) => churnTicker(i));
    expect(tickers.slice(0, 5)).toEqual(['pepe', 'churn1', 'churn2', 'churn3', 'sats']);
    expect(tickers).not.toContain('ordi');
    expect(tickers.filter((t) => t.startsWith('churn'))).toHaveLength(300);
    expect(new Set(tickers.filter((t) => t.startsWith('churn'))).size).toBe(300);
  });

  test('the tally counts expected answers by label and unexpected ones apart, with samples', () => {
    const tally: Tally = {};
    for (let i = 0; i < 5; i++) countSent(tally, 'hostile Host');
    for (let i = 0; i < 4; i++) countAnswer(tally, 'hostile Host', { label: '400 Bad Host header', expected: true });
    countAnswer(tally, 'hostile Host', { label: '200', expected: false, sample: '{"data":{}}' });
    countSent(tally, 'churn');
    countAnswer(tally, 'churn', { label: 'first value', expected: true });
    expect(tally).toEqual({
      'hostile Host': { sent: 5, expected: { '400 Bad Host header': 4 }, unexpected: { 200: 1 }, samples: ['200: {"data":{}}'] },
      churn: { sent: 1, expected: { 'first value': 1 }, unexpected: {}, samples: [] },
    });
    expect(unexpectedCount(tally)).toBe(1);
    expect(tallyTable(tally)).toBe(
      [
        '| class | sent | expected answers | unexpected |',
        '|---|---|---|---|',
        '| hostile Host | 5 | 400 Bad Host header ×4 | 200 ×1 |',
        '| churn | 1 | first value ×1 | 0 |',
        '',
        'Unexpected answers (first 3 per class):',
        '- hostile Host: `200: {"data":{}}`',
      ].join('\n'),
    );
  });

  test('metrics: a sum over the samples whose labels match', () => {
    const text = [
      '# TYPE satgate_live_polls_total counter',
      'satgate_live_polls_total{resource="brc20Token",outcome="changed"} 3',
      'satgate_live_polls_total{resource="status",outcome="unchanged"} 4',
      'satgate_live_polls_total{resource="status",outcome="paused"} 9',
      'satgate_live_polls_total_other{outcome="changed"} 100',
      'satgate_graphql_executions_total{engine="compiled"} 7',
    ].join('\n');
    expect(sumMetric(text, 'satgate_live_polls_total', { outcome: ['changed', 'unchanged', 'error'] })).toBe(7);
    expect(sumMetric(text, 'satgate_live_polls_total')).toBe(16);
    expect(sumMetric(text, 'satgate_graphql_executions_total', { engine: 'fallback' })).toBe(0);
  });
});
