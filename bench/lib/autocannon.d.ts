// The part of autocannon@8's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      amount?: number;
      /** Seconds. */
      timeout?: number;
      pipelining?: number;
      /** Responses whose body differs count as `mismatches`. */
      expectBody?: string;
      /** Responses for which it answers false count as `mismatches` (and emit `reqMismatch`). */
      verifyBody?: (body: string) => boolean;
    }
    interface Stats {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p99: number;
    }
    interface Result {
      /** Seconds. */
      duration: number;
      /** Socket errors, timeouts included. */
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      '2xx': number;
      requests: Stats & { sent: number };
      latency: Stats;
      statusCodeStats: Record<string, { count: number }>;
    }
    /** Emits `response` (client, statusCode, bytes, latencyMs) for every answer. */
    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
