/** IPC between bench/run.ts and its forked helpers. */
import type { Fault } from '../../src/sample/server.js';

export type SampleRequest =
  | { cmd: 'count' }
  /** The base delay on every path, 0 for none. */
  | { cmd: 'delay'; ms: number }
  /** Scripted faults (string paths only), checked before the base delay. */
  | { cmd: 'faults'; faults: Fault[] }
  /** Share of upstream requests answered 503 or reset, 0 to stop. */
  | { cmd: 'chaos'; rate: number }
  /** Every path answers 503 (`status`) or resets, until `null`. */
  | { cmd: 'outage'; kind: 'status' | 'reset' | null }
  /** Sample activity: prepend `etch` etchings, and/or mint `mint` once. */
  | { cmd: 'activity'; etch?: number; mint?: string }
  /** Serve these BRC-20 tickers too (the sample has 41): W6 asks 500. */
  | { cmd: 'tokens'; tickers: string[] };

export type SampleCommand = SampleRequest & { id: number };

export type SampleMessage =
  | { type: 'ready'; url: string }
  /** `count`: requests received since start; `paths`: the same by path; `injected`: one-shot chaos faults armed. */
  | { type: 'reply'; id: number; count: number; paths: Record<string, number>; injected: number };

export type ProxyMessage = { type: 'ready'; url: string };
