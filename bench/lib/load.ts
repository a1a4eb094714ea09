/**
 * One timed autocannon run over connections that are open and warm before the measured window,
 * with exact (sub-millisecond) latency percentiles.
 *
 * A fresh load generator per measurement opens its connections inside the measured window, and a
 * busy server admits new connections slowly (about one per event-loop turn: with 50 connections and
 * 20 ms of work per request, the last one waits seconds), so the first answers measure the ramp,
 * not the server's steady tail. autocannon's own `warmup` option does not help: it runs a separate
 * instance, whose connections are closed before the measured one opens its own. So one instance
 * runs three phases on the same connections: the ramp (a cheap GET on every connection until each
 * has had an answer), the warm-up (the real requests, `warmup` seconds), then the measured window,
 * which counts only answers completed inside it, each with the latency of that one request. */
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Called for each request's body, instead of `body`: distinct variables on every request. */
  bodyFor?: () => string;
  connections: number;
  /** Seconds of the measured window (bounded); `amount` instead sends that many requests, no warm-up. */
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
  /** The load generator's own CPU in the window, as a share of one core: near 1, it is what limits the row. */
  clientCpu?: number;
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

export async function load(options: LoadOptions): Promise<LoadResult> {
  // autocannon's own histogram keeps whole milliseconds: record each float latency here instead.
  let latencies = new Float64Array(1 << 16);
  const stats = { reordered: 0, mismatched: 0, non2xx: 0, failed: 0 };
  const statusCodes: Record<string, number> = {};
  let count = 0;
  let mismatchSample: string | undefined;
  const timed = options.amount === undefined;
  const warmup = timed ? (options.warmup ?? 0) : 0;
  // Counting starts when the warm-up is over (at once without one).
  let recording = warmup === 0;
  const { bodyFor } = options;
  let ramping = timed;
  const setupRequest = (req: Record<string, unknown>) =>
    ramping ? { ...req, method: 'GET', path: RAMP_PATH, body: Buffer.alloc(0) } : bodyFor ? { ...req, body: bodyFor() } : req;
  const verify = options.expectBody === undefined ? undefined : sameBody(options.expectBody, stats);
  const instance = autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    body: options.body,
    connections: options.connections,
    // The runner stops it at the end of the window; this is only a backstop.
    duration: timed ? warmup + options.duration + 60 : options.duration,
    amount: options.amount,
    ...(timed || bodyFor ? { requests: [{ setupRequest }] } : {}),
    timeout: 10,
    verifyBody: verify && ((body: string) => !recording || verify(body)),
  });
  instance.on('reqMismatch', (body: string) => {
    stats.mismatched++;
    mismatchSample ??= body.slice(0, 300);
  });
  instance.on('reqError', () => {
    if (recording) stats.failed++;
  });
  const opened = new Set<unknown>();
  let rampSeconds: number | undefined;
  const began = performance.now();
  instance.on('response', (client: unknown, status: number, _bytes: number, ms: number) => {
    if (rampSeconds === undefined) {
      opened.add(client);
      if (opened.size === options.connections) {
        rampSeconds = (performance.now() - began) / 1000;
        ramping = false;
      }
    }
    if (!recording) return;
    statusCodes[status] = (statusCodes[status] ?? 0) + 1;
    if (status < 200 || status >= 300) stats.non2xx++;
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = ms;
  });
  let seconds: number;
  let clientCpu: number | undefined;
  if (timed) {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    while (ramping && performance.now() - began < RAMP_LIMIT_S * 1000) await sleep(10);
    ramping = false;
    await sleep(warmup * 1000);
    await options.onWindowStart?.();
    recording = true;
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    await sleep(options.duration * 1000);
    recording = false;
    seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    clientCpu = (cpu.user + cpu.system) / 1e6 / seconds;
    await options.onWindowEnd?.();
    instance.stop();
    await instance;
  } else {
    await options.onWindowStart?.();
    const result = await instance;
    await options.onWindowEnd?.();
    seconds = result.duration > 0 ? result.duration : options.duration;
  }
  const sorted = latencies.subarray(0, count).sort();
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
    ...(timed ? { rampSeconds: rampSeconds ?? NaN, unopened: options.connections - opened.size, clientCpu } : {}),
    ...(mismatchSample === undefined ? {} : { mismatchSample }),
  };
}

const nonAscii = /[^\x00-\x7f]/g;

/** JSON with object keys sorted, recursively: equal for equal data whatever the key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Whether an answer carries the expected body. Two differences are not counted as bad bodies:
 * - autocannon decodes each TCP chunk to a string on its own, so a multi-byte character split
 *   across two chunks arrives as U+FFFD characters: such bodies are compared on ASCII only;
 * - JSON object keys in another order (same data) are counted apart as `reordered`.
 */
function sameBody(expected: string, stats: { reordered: number }): (body: string) => boolean {
  let expectedAscii: string | undefined;
  let expectedCanonical: string | null | undefined;
  return (body) => {
    if (body === expected) return true;
    expectedAscii ??= expected.replace(nonAscii, '');
    const bodyAscii = body.includes('\ufffd') ? body.replace(nonAscii, '') : body;
    if (bodyAscii === expectedAscii) return true;
    if (expectedCanonical === undefined) {
      try {
        expectedCanonical = canonical(JSON.parse(expected)).replace(nonAscii, '');
      } catch {
        expectedCanonical = null;
      }
    }
    if (expectedCanonical === null) return false;
    try {
      if (canonical(JSON.parse(body)).replace(nonAscii, '') !== expectedCanonical) return false;
    } catch {
      return false;
    }
    stats.reordered++;
    return true;
  };
}
