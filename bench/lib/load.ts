/** One timed autocannon run, with exact (sub-millisecond) latency percentiles. */
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Called for each request's body, instead of `body`: distinct variables on every request. */
  bodyFor?: () => string;
  connections: number;
  /** Seconds (bounded); `amount` instead stops after that many requests. */
  duration: number;
  amount?: number;
  expectBody?: string;
}

export interface LoadResult {
  /** Answers received (any status). */
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
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: Float64Array | number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  // autocannon's own histogram keeps whole milliseconds: record each float latency here instead.
  let latencies = new Float64Array(1 << 16);
  const bodies = { reordered: 0 };
  let count = 0;
  const { bodyFor } = options;
  const instance = autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    body: options.body,
    connections: options.connections,
    duration: options.duration,
    amount: options.amount,
    ...(bodyFor ? { requests: [{ setupRequest: (req: object) => ({ ...req, body: bodyFor() }) }] } : {}),
    timeout: 10,
    verifyBody: options.expectBody === undefined ? undefined : sameBody(options.expectBody, bodies),
  });
  let mismatchSample: string | undefined;
  instance.on('reqMismatch', (body: string) => {
    mismatchSample ??= body.slice(0, 300);
  });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = ms;
  });
  const result = await instance;
  const sorted = latencies.subarray(0, count).sort();
  const seconds = result.duration > 0 ? result.duration : options.duration;
  const statusCodes: Record<string, number> = {};
  for (const [code, { count: n }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = n;
  return {
    requests: count,
    seconds,
    rps: count / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    non2xx: result.non2xx,
    failed: result.errors,
    mismatched: result.mismatches,
    reordered: bodies.reordered,
    statusCodes,
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
