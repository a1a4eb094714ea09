/**
 * The bench's load generator: closed-loop HTTP/1.1 keep-alive over raw sockets, one request in
 * flight per connection, exact (sub-millisecond) latency of each answer.
 *
 * Why its own: at p50s of a few milliseconds the client's own work is part of every latency it
 * reports. autocannon parses responses in JavaScript (http-parser-js) and built a string per chunk;
 * at 50 connections it used 40–99% of its core and its pauses showed up as server tail. Here a
 * request is prebuilt bytes, an answer is found by its Content-Length (or chunked framing) and its
 * body compared as bytes: about 25 µs of CPU per answer with the socket calls (autocannon: ~65), and
 * its own event loop stalls far less (delay p99 ~3 ms, autocannon's 10.8 ms at 250 MB/s).
 *
 * A run has three phases on the same connections: the ramp (a cheap GET on every connection until
 * each has had an answer: a busy server admits new connections slowly, and a ramp inside the window
 * would put seconds into p99), the warm-up (the real requests, `warmup` seconds, not counted), then
 * the measured window, which counts only answers completed inside it, each with its own latency.
 */
import { connect, type Socket } from 'node:net';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Called for each request's body, instead of `body`: distinct variables on every request. */
  bodyFor?: () => string;
  /**
   * Requests taken in turn, each with its own expected answer, instead of `body` and `expectBody`:
   * the rows whose variables go round-robin check every answer against the one its variables
   * asked for. `expect`: the answer's exact bytes (JSON key order aside); `contains`: byte strings
   * the answer must all hold (where storing every answer would not fit: W8's 9,941 pages).
   */
  rotation?: Turn[];
  connections: number;
  /** Seconds of the measured window (bounded); `amount` instead sends that many requests, no ramp or warm-up. */
  duration: number;
  amount?: number;
  /**
   * Seconds on the same connections before the window, not counted; longer when needed: the window
   * opens only once every connection has had an answer (at most RAMP_LIMIT_S).
   */
  warmup?: number;
  expectBody?: string;
  /** Awaited just before and just after the window, while the load goes on (CPU and counters read there). */
  onWindowStart?: () => unknown;
  onWindowEnd?: () => unknown;
  /** The server under test's CPU so far, in µs (procs.ts cpuMicros): read at every slice's edges. */
  serverCpu?: () => number;
}

export interface Turn {
  body: string;
  expect?: Buffer;
  contains?: Buffer[];
}

export interface LoadResult {
  /** Answers received (any status) inside the window. */
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Socket errors and timeouts. */
  failed: number;
  /** Answers whose body differed from the expected one. */
  mismatched: number;
  /** Answers with the expected data but JSON object keys in another order. */
  reordered: number;
  /** The first differing body, cut short, for diagnostics. */
  mismatchSample?: string;
  statusCodes: Record<string, number>;
  /** Seconds from the start until every connection had had an answer (the ramp, not measured). */
  rampSeconds?: number;
  /** Connections that had not had an answer when the window opened (0 unless the ramp hit its limit). */
  unopened?: number;
  /**
   * Answers to the workload's requests in every phase (not the ramp's), the ones in flight when the
   * window closed included: after the window no request is sent, and the run ends once those are
   * answered (at most DRAIN_LIMIT_S). Upstream calls counted from before the run to its end,
   * divided by this, are exactly the calls per request: counted at the window's edges instead,
   * the requests in flight there (up to `connections`) made it off by as much.
   */
  answeredInAll?: number;
  /** The load generator's own CPU in the window, as a share of one core: near 1, it is what limits the row. */
  clientCpu?: number;
  /**
   * The fastest half second's req/s over the slowest's, in the window. Under a steady closed-loop
   * load a server's speed should not change: when it does, the latencies of the slow half seconds
   * are the tail. A plain server swinging too says the machine's speed changed (on a shared VM, the
   * other guests' use of the host's caches and memory, which steal time does not show).
   */
  rateSwing?: number;
  /**
   * The server's CPU as a share of the slowest and of the fastest half second (with `serverCpu`).
   * Busy in the slowest too: the server itself answered slower there (its work, or the machine);
   * idle: it waited on something else (its upstream, the load generator).
   */
  serverBusy?: { slowest: number; fastest: number };
}

/** The fastest slice's rate over the slowest's. */
export function swingOf(rates: number[]): number {
  return Math.max(...rates) / Math.min(...rates);
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: Float64Array | number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

/** The longest wait for every connection to have had an answer. */
const RAMP_LIMIT_S = 30;
/** What the ramp asks: any cheap answer will do (a 404 too), it only opens the connection. */
const RAMP_PATH = '/healthz';
/** Seconds the run waits, after its window, for the answers still in flight. */
const DRAIN_LIMIT_S = 10;
/** The window's slices for `rateSwing`. */
export const SLICE_MS = 500;
/** An answer not complete after this long counts as failed, and its connection is replaced. */
const TIMEOUT_MS = 10_000;
/** The longest response head accepted. */
const MAX_HEAD_BYTES = 64 * 1024;

/** Each connection's one read buffer, reused for every read. */
const READ_BUFFER_BYTES = 256 * 1024;
const CRLFCRLF = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/** One request as bytes: the head, then the body if any. */
function requestBytes(method: string, target: URL, path: string, headers: Record<string, string>, body?: string): Buffer {
  const payload = body === undefined ? undefined : Buffer.from(body);
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${target.host}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  if (payload) head += `content-length: ${payload.length}\r\n`;
  head += '\r\n';
  return payload ? Buffer.concat([Buffer.from(head, 'latin1'), payload]) : Buffer.from(head, 'latin1');
}

/** What a connection is told of each answer. */
type OnAnswer = (status: number, closes: boolean, differing: Buffer | undefined) => void;

/** Header names the reader looks for, lower case. */
const CONTENT_LENGTH = Buffer.from('content-length');
const TRANSFER_ENCODING = Buffer.from('transfer-encoding');
const CONNECTION = Buffer.from('connection');
const CHUNKED = Buffer.from('chunked');
const CLOSE = Buffer.from('close');

/** Whether `data[from, to)` equals the lower-case ASCII `name`, whatever the case. */
function sameName(data: Buffer, from: number, to: number, name: Buffer): boolean {
  return to - from === name.length && holds(data, from, to, name);
}

/** Whether `data[from, to)` holds the lower-case ASCII `word`, whatever the case. */
function holds(data: Buffer, from: number, to: number, word: Buffer): boolean {
  outer: for (let at = from; at + word.length <= to; at++) {
    for (let i = 0; i < word.length; i++) if ((data[at + i]! | 0x20) !== word[i]) continue outer;
    return true;
  }
  return false;
}

/**
 * An HTTP/1.1 response reader for one connection, over the socket's one reused read buffer. It
 * allocates next to nothing per answer: a Buffer per read is external memory, and its pressure
 * made the client run a full GC every ~80 ms at 250 MB/s. Strings and objects per answer, and a
 * latency array that grew by copying, cost 43 scavenges and a full GC (a 20 ms marking step) in a
 * 10 s window at 18k req/s; now 21 scavenges and none: a client pause is reported as server latency.
 * The head is read as bytes, and the body is compared with the expected bytes as it streams by and
 * copied only when it differs. Framing only (status, Content-Length or chunked, Connection:
 * close): what the bench needs, not a general client.
 */
class AnswerReader {
  /** An incomplete head or chunk-size line carried over to the next read (rare: copied). */
  private carried: Buffer | undefined;
  /** Whether an answer's head has been read and its body is being read. */
  private reading = false;
  private status = 0;
  private closes = false;
  /** Body bytes still due (Content-Length), or -1 while reading chunked framing. */
  private remaining = 0;
  private chunkRemaining = 0;
  /** Body bytes seen so far, and whether they all equal the expected ones. */
  private offset = 0;
  private same = true;
  private copy: Buffer[] | undefined;
  /** Byte strings the answer must all hold: its body is then copied whole. */
  private contains: Buffer[] | undefined;

  constructor(
    private expected: Buffer | undefined,
    private readonly onAnswer: OnAnswer,
  ) {}

  /** What the next answer must be (a rotation's turn): its bytes, or byte strings it must hold. */
  expect(expected: Buffer | undefined, contains?: Buffer[]): void {
    this.expected = expected;
    this.contains = contains;
  }

  /** Reads `data` (valid only during the call). */
  feed(data: Buffer): void {
    if (this.carried) {
      data = Buffer.concat([this.carried, data]);
      this.carried = undefined;
    }
    while (data.length > 0) {
      if (!this.reading) {
        const end = data.indexOf(CRLFCRLF);
        if (end < 0) {
          if (data.length > MAX_HEAD_BYTES) throw new Error('response head too large');
          this.carried = Buffer.from(data);
          return;
        }
        this.startAnswer(data, end);
        data = data.subarray(end + 4);
        if (this.remaining === 0) {
          this.finish();
          continue;
        }
      }
      const rest = this.remaining > 0 ? this.readLength(data) : this.readChunked(data);
      if (rest === undefined) return;
      data = rest;
    }
  }

  /** The head is `data[0, end)`: `HTTP/1.1 200 OK`, then `name: value` lines. */
  private startAnswer(data: Buffer, end: number): void {
    const status = (data[9]! - 48) * 100 + (data[10]! - 48) * 10 + (data[11]! - 48);
    if (!(status >= 100 && status <= 999)) throw new Error('bad status line');
    this.reading = true;
    this.status = status;
    this.closes = false;
    this.offset = 0;
    this.same = true;
    this.copy = undefined;
    let chunked = false;
    let length = -1;
    for (let line = data.indexOf(CRLF) + 2; line > 1 && line < end;) {
      let lineEnd = data.indexOf(CRLF, line);
      if (lineEnd < 0 || lineEnd > end) lineEnd = end;
      const colon = data.indexOf(0x3a, line);
      if (colon > line && colon < lineEnd) {
        if (sameName(data, line, colon, CONTENT_LENGTH)) {
          length = 0;
          for (let i = colon + 1; i < lineEnd; i++) {
            const digit = data[i]! - 48;
            if (digit >= 0 && digit <= 9) length = length * 10 + digit;
          }
        } else if (sameName(data, line, colon, TRANSFER_ENCODING)) chunked = holds(data, colon + 1, lineEnd, CHUNKED);
        else if (sameName(data, line, colon, CONNECTION)) this.closes = holds(data, colon + 1, lineEnd, CLOSE);
      }
      line = lineEnd + 2;
    }
    if (chunked) {
      this.remaining = -1;
      this.chunkRemaining = 0;
    } else {
      this.remaining = status === 204 || status === 304 || length < 0 ? 0 : length;
    }
  }

  /** Body bytes: compared in place while they match, copied once they do not. */
  private body(bytes: Buffer): void {
    if (this.contains) {
      (this.copy ??= []).push(Buffer.from(bytes));
      return;
    }
    const { expected } = this;
    if (!expected) return;
    if (this.same) {
      const end = this.offset + bytes.length;
      if (end <= expected.length && bytes.equals(expected.subarray(this.offset, end))) {
        this.offset = end;
        return;
      }
      this.same = false;
      this.copy = [expected.subarray(0, this.offset)];
    }
    this.copy!.push(Buffer.from(bytes));
  }

  private finish(): void {
    this.reading = false;
    let differing: Buffer | undefined;
    if (this.contains) {
      const whole = Buffer.concat(this.copy ?? []);
      if (!this.contains.every((bytes) => whole.includes(bytes))) differing = whole;
    } else if (this.expected && (!this.same || this.offset !== this.expected.length)) {
      differing = this.copy ? Buffer.concat(this.copy) : this.expected.subarray(0, this.offset);
    }
    this.onAnswer(this.status, this.closes, differing);
  }

  private readLength(data: Buffer): Buffer {
    const take = Math.min(this.remaining, data.length);
    this.body(data.subarray(0, take));
    this.remaining -= take;
    if (this.remaining === 0) this.finish();
    return data.subarray(take);
  }

  /** Chunked framing: `size CRLF data CRLF`, ending with a zero size and an empty trailer. */
  private readChunked(data: Buffer): Buffer | undefined {
    while (data.length > 0) {
      if (this.chunkRemaining > 0) {
        const take = Math.min(this.chunkRemaining, data.length);
        this.body(data.subarray(0, take));
        this.chunkRemaining -= take;
        data = data.subarray(take);
        continue;
      }
      // A chunk's size line (after the previous chunk's CRLF), or the end.
      const start = data[0] === 0x0d && data[1] === 0x0a ? 2 : 0;
      const lineEnd = data.indexOf(CRLF, start);
      if (lineEnd < 0) {
        this.carried = Buffer.from(data);
        return undefined;
      }
      const size = parseInt(data.toString('latin1', start, lineEnd), 16);
      if (!(size >= 0)) throw new Error('bad chunk size');
      if (size === 0) {
        const trailerEnd = data.indexOf(CRLFCRLF, lineEnd);
        if (trailerEnd < 0) {
          this.carried = Buffer.from(data);
          return undefined;
        }
        this.remaining = 0;
        this.finish();
        return data.subarray(trailerEnd + 4);
      }
      this.chunkRemaining = size;
      data = data.subarray(lineEnd + 2);
    }
    return data;
  }
}

/** Latencies in fixed chunks: growing never copies, and `reserve` takes the memory ahead of time. */
class Latencies {
  private static readonly CHUNK = 1 << 16;
  private readonly chunks: Float64Array[] = [];
  private count = 0;

  reserve(values: number): void {
    while (this.chunks.length * Latencies.CHUNK < this.count + values) this.chunks.push(new Float64Array(Latencies.CHUNK));
  }

  get length(): number {
    return this.count;
  }

  push(ms: number): void {
    const index = this.count % Latencies.CHUNK;
    const chunk = Math.floor(this.count / Latencies.CHUNK);
    if (chunk === this.chunks.length) this.chunks.push(new Float64Array(Latencies.CHUNK));
    this.chunks[chunk]![index] = ms;
    this.count++;
  }

  sorted(): Float64Array {
    const all = new Float64Array(this.count);
    for (let i = 0; i * Latencies.CHUNK < this.count; i++) {
      all.set(this.chunks[i]!.subarray(0, Math.min(Latencies.CHUNK, this.count - i * Latencies.CHUNK)), i * Latencies.CHUNK);
    }
    return all.sort();
  }
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  const path = target.pathname + target.search;
  const method = options.method ?? 'GET';
  const headers = options.headers ?? {};
  const fixedRequest = requestBytes(method, target, path, headers, options.body);
  const rampRequest = requestBytes('GET', target, RAMP_PATH, {});
  const { bodyFor } = options;
  const nextRequest = bodyFor ? () => requestBytes(method, target, path, headers, bodyFor()) : () => fixedRequest;
  const turns = options.rotation?.map((turn) => ({ ...turn, request: requestBytes(method, target, path, headers, turn.body) }));
  let nextTurn = 0;
  /** A turn's answer with its data but another key order (canonical JSON, built on first need). */
  const sameAsTurn = new Map<Buffer, (body: Buffer) => boolean>();
  const reordered = (expect: Buffer | undefined, body: Buffer): boolean => {
    if (!expect) return false;
    let same = sameAsTurn.get(expect);
    if (!same) sameAsTurn.set(expect, (same = sameJson(expect.toString())));
    return same(body);
  };

  const latencies = new Latencies();
  /** Answers of every phase, for the rate that sizes the window's latency store. */
  let answered = 0;
  /** Answers to the workload's requests (not the ramp's), every phase. */
  let answeredWork = 0;
  /** The window is over: connections close as their answers come, none sends again. */
  let draining = false;
  const stats = { reordered: 0, mismatched: 0, non2xx: 0, failed: 0 };
  const statusCodes: Record<string, number> = {};
  let mismatchSample: string | undefined;
  const expected = options.expectBody === undefined ? undefined : Buffer.from(options.expectBody);
  const sameData = options.expectBody === undefined ? undefined : sameJson(options.expectBody);
  const timed = options.amount === undefined;
  let ramping = timed;
  let recording = !timed;
  let running = true;
  let sent = 0;
  let settled = 0;
  const opened = new Set<number>();
  let rampSeconds: number | undefined;
  const began = performance.now();
  let allSettled: () => void = () => {};
  const settledAll = new Promise<void>((resolve) => (allSettled = resolve));

  const record = (ms: number, status: number) => {
    statusCodes[status] = (statusCodes[status] ?? 0) + 1;
    if (status < 200 || status >= 300) stats.non2xx++;
    latencies.push(ms);
  };

  /** Per open connection, the time its request was written and by when its answer is due (0: none is). */
  interface Exchange {
    socket: Socket;
    sentAt: number;
    dueBy: number;
  }
  const exchanges = new Set<Exchange>();
  /** One connection: sends, reads the answer, sends again, until the run stops; replaced after a failure or a close. */
  const open = (id: number): void => {
    if (!running) return;
    const readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
    const socket = connect({
      host: target.hostname,
      port: Number(target.port),
      noDelay: true,
      onread: { buffer: readBuffer, callback: (bytes) => read(readBuffer.subarray(0, bytes)) },
    });
    const exchange: Exchange = { socket, sentAt: 0, dueBy: 0 };
    exchanges.add(exchange);
    let rampAnswer = false;
    /** The rotation's turn in flight on this connection. */
    let turn: (Turn & { request: Buffer }) | undefined;
    const send = () => {
      if (!running || draining || (!timed && sent >= options.amount!)) {
        socket.destroy();
        return;
      }
      sent++;
      rampAnswer = ramping;
      exchange.sentAt = performance.now();
      exchange.dueBy = exchange.sentAt + TIMEOUT_MS;
      if (turns && !rampAnswer) {
        turn = turns[nextTurn++ % turns.length]!;
        reader.expect(turn.expect, turn.contains);
        socket.write(turn.request);
      } else {
        if (turns) reader.expect(undefined);
        socket.write(rampAnswer ? rampRequest : nextRequest());
      }
    };
    const reader = new AnswerReader(expected, (status, closes, differing) => {
      const ms = performance.now() - exchange.sentAt;
      exchange.dueBy = 0;
      answered++;
      if (!rampAnswer) answeredWork++;
      if (rampSeconds === undefined && timed) {
        opened.add(id);
        if (opened.size === options.connections) {
          rampSeconds = (performance.now() - began) / 1000;
          ramping = false;
        }
      }
      if (recording && !rampAnswer) {
        record(ms, status);
        if (differing) {
          if (turns ? reordered(turn?.expect, differing) : sameData!(differing)) stats.reordered++;
          else {
            stats.mismatched++;
            mismatchSample ??= differing.toString().slice(0, 300);
          }
        }
      }
      if (!timed && ++settled === options.amount) allSettled();
      if (closes) {
        exchanges.delete(exchange);
        socket.destroy();
        open(id);
      } else send();
    });
    let failedOnce = false;
    const fail = () => {
      if (failedOnce) return;
      failedOnce = true;
      exchanges.delete(exchange);
      socket.destroy();
      if (!running) return;
      if (recording) stats.failed++;
      if (!timed && ++settled === options.amount) allSettled();
      open(id);
    };
    socket.on('connect', send);
    const read = (data: Buffer): boolean => {
      try {
        reader.feed(data);
      } catch {
        fail();
      }
      return true;
    };
    socket.on('error', fail);
    socket.on('close', () => {
      // A close while an answer was due (not one the answer announced) is a failure.
      if (exchange.dueBy !== 0) fail();
      else exchanges.delete(exchange);
    });
  };
  const timeouts = setInterval(() => {
    const now = performance.now();
    for (const { socket, dueBy } of exchanges) if (dueBy !== 0 && now > dueBy) socket.emit('error', new Error('timeout'));
  }, 250);

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  for (let id = 0; id < options.connections; id++) open(id);
  let seconds: number;
  let clientCpu: number | undefined;
  let rateSwing: number | undefined;
  let serverBusy: LoadResult['serverBusy'];
  try {
    if (timed) {
      while (ramping && performance.now() - began < RAMP_LIMIT_S * 1000) await sleep(10);
      ramping = false;
      const warmupStart = performance.now();
      const answeredBefore = answered;
      await sleep((options.warmup ?? 0) * 1000);
      // The window's latencies are stored in memory taken now, sized by the warm-up's rate: grown
      // inside the window, the copies and their full GC were the client's pauses there.
      const perSecond = (answered - answeredBefore) / ((performance.now() - warmupStart) / 1000);
      latencies.reserve(perSecond * options.duration * 1.5);
      await options.onWindowStart?.();
      recording = true;
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const rates: number[] = [];
      const busy: number[] = [];
      let sliceStart = started;
      let sliceAnswers = 0;
      let sliceCpu = options.serverCpu?.() ?? 0;
      const slices = setInterval(() => {
        const now = performance.now();
        rates.push((latencies.length - sliceAnswers) / ((now - sliceStart) / 1000));
        if (options.serverCpu) {
          const cpu = options.serverCpu();
          busy.push((cpu - sliceCpu) / ((now - sliceStart) * 1000));
          sliceCpu = cpu;
        }
        [sliceStart, sliceAnswers] = [now, latencies.length];
      }, SLICE_MS);
      await sleep(options.duration * 1000);
      clearInterval(slices);
      recording = false;
      if (rates.length >= 2) rateSwing = swingOf(rates);
      if (busy.length >= 2) {
        serverBusy = { slowest: busy[rates.indexOf(Math.min(...rates))]!, fastest: busy[rates.indexOf(Math.max(...rates))]! };
      }
      seconds = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      clientCpu = (cpu.user + cpu.system) / 1e6 / seconds;
      await options.onWindowEnd?.();
      draining = true;
      const drainStart = performance.now();
      const inFlight = () => [...exchanges].some(({ dueBy }) => dueBy !== 0);
      while (inFlight() && performance.now() - drainStart < DRAIN_LIMIT_S * 1000) await sleep(10);
    } else {
      await options.onWindowStart?.();
      const started = performance.now();
      await Promise.race([settledAll, sleep(options.duration * 1000)]);
      seconds = (performance.now() - started) / 1000;
      await options.onWindowEnd?.();
    }
  } finally {
    running = false;
    clearInterval(timeouts);
    for (const { socket } of exchanges) socket.destroy();
  }
  const sorted = latencies.sorted();
  const count = sorted.length;
  return {
    requests: count,
    seconds,
    rps: count / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    non2xx: stats.non2xx,
    failed: stats.failed,
    mismatched: stats.mismatched,
    reordered: stats.reordered,
    statusCodes,
    ...(timed
      ? {
          rampSeconds: rampSeconds ?? NaN,
          unopened: options.connections - opened.size,
          clientCpu,
          rateSwing,
          serverBusy,
          answeredInAll: answeredWork,
        }
      : {}),
    ...(mismatchSample === undefined ? {} : { mismatchSample }),
  };
}

/** JSON with object keys sorted, recursively: equal for equal data whatever the key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Whether a body carries the expected JSON data, whatever the order of object keys. */
function sameJson(expected: string): (body: Buffer) => boolean {
  let expectedCanonical: string | null | undefined;
  return (body) => {
    if (expectedCanonical === undefined) {
      try {
        expectedCanonical = canonical(JSON.parse(expected));
      } catch {
        expectedCanonical = null;
      }
    }
    if (expectedCanonical === null) return false;
    try {
      return canonical(JSON.parse(body.toString())) === expectedCanonical;
    } catch {
      return false;
    }
  };
}
