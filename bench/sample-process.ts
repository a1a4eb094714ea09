/**
 * The sample upstream in its own process (forked by bench/run.ts, IPC channel). It reports its url,
 * answers request counts, and scripts faults on command:
 * - a base delay on every path (BENCH_UPSTREAM_DELAY_MS at start, `delay` later);
 * - extra scripted faults, checked before the base delay (`faults`);
 * - chaos for the soak: a share of upstream requests answered 503 or reset (`chaos`), and full
 *   outages (`outage`).
 * - more BRC-20 tokens (`tokens`): the sample has 41, W6 asks 500. Each is ordi's details under
 *   another ticker, answered by an exact-path fault before any route (faults are the sample's only
 *   hook from outside): always a 200, never a 304, and not in the token list.
 * The sample's request log is emptied every second (it would otherwise grow by millions of entries);
 * the count is kept here. It also serves the data sources' profiles (UniSat's open API and an
 * `ord server`, keyless) for the per-source gateways.
 */
import type { Fault } from '../src/sample/server.js';
import { CACHE_CONTROL } from '../src/sample/hiro.js';
import { findBrc20Token } from '../src/sample/data.js';
import { startSampleUpstream } from '../src/sample/server.js';
import type { SampleCommand, SampleMessage } from './lib/protocol.js';

const upstream = await startSampleUpstream({ port: 0, sources: { unisat: {}, ord: {} } });
let counted = 0;
const count = () => counted + upstream.requests.length;
/** Requests by path (query left out) since start: a check counts the calls for its own key only. */
const byPath = new Map<string, number>();
function drainLog(): void {
  counted += upstream.requests.length;
  for (const request of upstream.requests) byPath.set(request.path, (byPath.get(request.path) ?? 0) + 1);
  upstream.clearLog();
}

let baseDelayMs = Number(process.env.BENCH_UPSTREAM_DELAY_MS ?? 0) || 0;
let scripted: Fault[] = [];
let chaosRate = 0;
let outage: 'status' | 'reset' | undefined;
let injected = 0;
let carry = 0;
let lastCount = 0;
/** The `tokens` faults: one 200 answer per added ticker. */
let tokens: Fault[] = [];

/** ordi's details under `ticker`, with an id and number of its own. */
function tokenFault(ticker: string, index: number): Fault {
  const ordi = findBrc20Token('ordi')!;
  const txId = index.toString(16).padStart(64, 'b');
  return {
    method: 'GET',
    path: `/ordinals/v1/brc-20/tokens/${encodeURIComponent(ticker)}`,
    status: 200,
    body: { ...ordi, token: { ...ordi.token, ticker, id: `${txId}i0`, tx_id: txId, number: 90_000_000 + index } },
    headers: { 'cache-control': CACHE_CONTROL, etag: `"${upstream.activity.ordinalsEtag()}"` },
  };
}

const CHAOS_PATHS = ['/ordinals/*', '/runes/*', '/metadata/*', '/*'];

/** Rebuilds the fault list: scripted faults, then outage or chaos, then the base delay. */
function rebuild(chaosFaults = 0): void {
  upstream.clearFaults();
  for (const fault of scripted) upstream.inject(fault);
  if (outage === 'status') {
    upstream.inject({ path: '/*', status: 503, body: { statusCode: 503, error: 'Service Unavailable', message: 'outage' } });
  } else if (outage === 'reset') {
    upstream.inject({ path: '/*', reset: true });
  }
  for (let i = 0; i < chaosFaults; i++) {
    const path = CHAOS_PATHS[Math.floor(Math.random() * CHAOS_PATHS.length)] ?? '/*';
    upstream.inject(
      Math.random() < 0.5
        ? { path, times: 1, status: 503, body: { statusCode: 503, error: 'Service Unavailable', message: 'chaos' } }
        : { path, times: 1, reset: true },
    );
  }
  // Before the base delay (a fault without a status answers from the routes, which lack these
  // tickers), so they carry the delay themselves.
  for (const token of tokens) upstream.inject(baseDelayMs > 0 ? { ...token, delayMs: baseDelayMs } : token);
  if (baseDelayMs > 0) upstream.inject({ path: '/*', delayMs: baseDelayMs });
}
rebuild();

// The log is only needed for counting here.
setInterval(drainLog, 1000).unref();

// Chaos: every 100 ms, arm as many one-shot faults as `rate` of the last 100 ms of requests.
setInterval(() => {
  const now = count();
  const recent = now - lastCount;
  lastCount = now;
  if (chaosRate <= 0 || outage) return;
  const expected = recent * chaosRate + carry;
  const armed = Math.floor(expected);
  carry = expected - armed;
  injected += armed;
  rebuild(armed);
}, 100).unref();

function reply(message: SampleMessage): void {
  process.send?.(message);
}

process.on('message', (command: SampleCommand) => {
  switch (command.cmd) {
    case 'count':
      break;
    case 'delay':
      baseDelayMs = command.ms;
      rebuild();
      break;
    case 'faults':
      scripted = command.faults;
      rebuild();
      break;
    case 'chaos':
      chaosRate = command.rate;
      carry = 0;
      rebuild();
      break;
    case 'outage':
      outage = command.kind ?? undefined;
      rebuild();
      break;
    case 'activity':
      if (command.etch) upstream.activity.etch(command.etch);
      if (command.mint) upstream.activity.mint(command.mint);
      break;
    case 'tokens':
      tokens = command.tickers.map(tokenFault);
      rebuild();
      break;
  }
  drainLog();
  reply({ type: 'reply', id: command.id, count: count(), injected, paths: Object.fromEntries(byPath) });
});

const shutdown = () => void upstream.close().finally(() => process.exit(0));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
// The runner is gone (even killed): do not outlive it.
process.on('disconnect', () => process.exit(0));

reply({ type: 'ready', url: upstream.url });
