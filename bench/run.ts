/**
 * `npm run bench`: loopback throughput, latency and CPU of the gateway against the sample upstream
 * and a plain pass-through proxy, each in its own process. `npm run bench -- --soak`: sustained
 * mixed load with upstream faults and outages (bench/soak.ts). `npm run bench -- --abuse`: normal
 * load with and without a hostile mix beside it (bench/abuse.ts). `npm run bench -- --live`: only
 * the 1,000-subscriber row (bench/live.ts), which the full run also ends with (BENCH_SKIP_LIVE=1 skips it).
 *
 * GraphQL rows also run against a plain graphql-yoga + Pothos peer (bench/peer.ts: no cache, no
 * DataLoader), and `… misses` rows send distinct variables on every request (no response-cache hit,
 * upstream cached). Ratios against the peer come from the same run. Issue 27's rows add a tuned
 * peer (`yoga-rc`: response cache, DataLoader), a floor server (`limit`, bench/limit.ts; on W8,
 * where every request misses, `limit-full`, bench/limit-full.ts, which parses the page) and rows
 * whose variables go round-robin over many keys (W6–W8), each answer checked against the one its
 * variables asked for. Issue 25's rows run warm gateways reading UniSat and ord (the sample's profiles).
 *
 * Environment: BENCH_DURATION (s per row, default 10), BENCH_WARMUP (s before each row's window, default 2), BENCH_CONNECTIONS (default 50),
 * BENCH_UPSTREAM_DELAY_MS (sample latency for the main rows, default 0), BENCH_LATENCY_CONNECTIONS
 * (connections of the 20 ms rows, default 1), BENCH_SOAK_SECONDS (60).
 */
import { cpus } from 'node:os';
import { load, type LoadResult } from './lib/load.js';
import {
  cpuMicros,
  stealSeconds,
  installCleanup,
  startGateway,
  startBenchRedis,
  pinCpus,
  probeMachine,
  startLimit,
  startLimitFull,
  startPassthrough,
  startPeer,
  startSample,
  stderrCheck,
  stopAll,
  type SampleProcess,
  type ServerProcess,
} from './lib/procs.js';
import {
  BENCH_ETCHINGS,
  CONNECTION_500,
  ETCHINGS_60,
  EVERYTHING,
  FRESH_TICKERS,
  GENERATED_TICKERS,
  TICKERS_500,
  W7_OFFSETS,
  W8_OFFSETS,
  etchingsAt,
  tokenByLiteral,
  tokenByVariable,
  TICKERS_20,
  TICKERS_5,
  TRANSFERS_60,
  aliasedBrc20Query,
  brc20Query,
  distinctBody,
  graphqlBody,
  restToken,
} from './lib/queries.js';
import { fmt, writeResults } from './lib/report.js';
import type { Turn } from './lib/load.js';
import { PLAN, type TargetKind, type WorkloadId } from './lib/plan.js';
import { busyShares, evaluate, loadTargets, share, verdict, type CoalesceResult, type TargetCheck } from './lib/targets.js';
import { runAbuse } from './abuse.js';
import { liveTable, runSubscribers, type LiveResult } from './live.js';
import { runSoak } from './soak.js';

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number >= 0, got "${raw}"`);
  return value;
}

const DURATION = envNumber('BENCH_DURATION', 10) || 10;
const CONNECTIONS = Math.max(1, Math.round(envNumber('BENCH_CONNECTIONS', 50)));
const BASE_DELAY_MS = envNumber('BENCH_UPSTREAM_DELAY_MS', 0);
/** Connections of the 20 ms rows (default: BENCH_CONNECTIONS). */
/**
 * The 20 ms rows measure the latency the gateway adds, so by default one connection: at 50, p50 is
 * mostly queueing (about connections ÷ req/s) and says little about the hop itself.
 */
const LATENCY_CONNECTIONS = Math.max(1, Math.round(envNumber('BENCH_LATENCY_CONNECTIONS', 1)));
const LATENCY_PHASE_MS = 20;
const COALESCE_CLIENTS = 200;
const COALESCE_DELAY_MS = 50;
/**
 * Untimed warm-up on the row's own connections: fills the warm gateway's cache and warms the JIT.
 * 2 s, because with 1 s the first ~0.4 s of a window still held 20–60 ms stalls (V8 optimising the
 * row's code paths for the first time): a one-time cost per process, not the steady tail.
 */
const WARMUP_S = envNumber('BENCH_WARMUP', 2);
/** Unmeasured load on each server before its first row (see runBench). */
const PROCESS_WARMUP_S = 3;

/** bench/targets.json, read and checked before any process starts: a typo there fails at once, not after the run. */
const TARGETS = loadTargets();

const TARGET_LABEL: Record<TargetKind, string> = {
  direct: 'direct upstream',
  proxy: 'pass-through proxy',
  peer: 'yoga peer',
  'yoga-rc': 'yoga-rc (tuned peer)',
  limit: 'limit (floor)',
  'limit-full': 'limit-full (floor that parses)',
  cold: 'gateway cold',
  warm: 'gateway warm',
  redis: 'gateway warm, REDIS_URL',
  default: 'gateway, default 1 s freshness',
  unisat: 'gateway warm, UniSat sources',
  ord: 'gateway warm, ord etchings',
};

/** UniSat's per-key cap (default 5/s) would pace the source gateways' misses: lifted for the bench. */
const UNISAT_RATE = '10000';

interface Target {
  kind: TargetKind;
  url: string;
  /** The process under test, whose CPU time is reported. */
  pid: number;
}

interface Workload {
  id: WorkloadId;
  label: string;
  protocol: 'REST' | 'GraphQL';
  path: string;
  body?: string;
  /** Distinct bodies, one per request, instead of `body`. */
  bodyFor?: () => string;
  /**
   * Bodies taken in turn (distinct variables round-robin), each with byte strings its answer must
   * hold (what proves it is the answer its variables asked for). With `sweep`, every turn is asked
   * once before the row and each checked answer becomes that turn's expected bytes; without (W8),
   * every answer is checked for the byte strings.
   */
  rotation?: { turns: Array<{ body: string; markers: Buffer[] }>; sweep: boolean };
}

export interface Row extends Omit<LoadResult, 'statusCodes'> {
  phase: string;
  connections: number;
  workload: string;
  workloadLabel: string;
  protocol: 'REST' | 'GraphQL';
  target: TargetKind;
  /** CPU of the process under test (sample, proxy or gateway) per answer, µs. */
  cpuUsPerRequest: number;
  cpuOf: 'sample upstream' | 'pass-through proxy' | 'yoga peer' | 'yoga-rc' | 'floor' | 'full-path floor' | 'gateway';
  upstreamPerRequest: number;
  statusCodes: Record<string, number>;
  /** Share of the window the hypervisor took from each CPU (steal), indexed by CPU. */
  steal: number[];
  rpsVsDirect?: number;
  rpsVsProxy?: number;
  /** req/s and CPU per request against the yoga peer's row of the same workload and phase. */
  rpsVsPeer?: number;
  cpuVsPeer?: number;
  /**
   * req/s against yoga-rc's row and CPU per request against the floor's (on W8 the full-path
   * floor's), same workload and phase.
   */
  rpsVsTuned?: number;
  cpuVsFloor?: number;
  /** Set when the single check request before the row did not answer a clean 2xx. */
  sanity?: string;
}

const GRAPHQL_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

async function sanityCheck(target: Target, workload: Workload): Promise<{ body?: string; problem?: string }> {
  try {
    const body = workload.body ?? workload.bodyFor?.();
    const response = await fetch(target.url + workload.path, {
      method: body ? 'POST' : 'GET',
      headers: body ? GRAPHQL_HEADERS : {},
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    if (!response.ok) return { problem: `HTTP ${response.status}: ${text.slice(0, 200)}` };
    if (workload.protocol === 'GraphQL') {
      const parsed = JSON.parse(text) as { errors?: unknown[]; data?: unknown };
      if (parsed.errors?.length) return { problem: `GraphQL errors: ${JSON.stringify(parsed.errors).slice(0, 300)}` };
      if (!parsed.data) return { problem: 'no data' };
    }
    return { body: text };
  } catch (error) {
    return { problem: `request failed: ${(error as Error).message}` };
  }
}

/** `body`'s answer from `target`: 2xx, no GraphQL errors, and every marker in it. */
async function checkedAnswer(target: Target, body: string, markers: Buffer[]): Promise<{ answer?: Buffer; problem?: string }> {
  try {
    const response = await fetch(target.url + '/graphql', {
      method: 'POST',
      headers: GRAPHQL_HEADERS,
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const answer = Buffer.from(await response.arrayBuffer());
    if (!response.ok) return { problem: `HTTP ${response.status} for ${body.slice(0, 120)}: ${answer.toString().slice(0, 200)}` };
    const parsed = JSON.parse(answer.toString()) as { errors?: unknown[]; data?: unknown };
    if (parsed.errors?.length || !parsed.data)
      return { problem: `errors or no data for ${body.slice(0, 120)}: ${answer.toString().slice(0, 300)}` };
    const missing = markers.find((marker) => !answer.includes(marker));
    if (missing) return { problem: `the answer to ${body.slice(-80)} lacks ${missing.toString()}: ${answer.toString().slice(0, 200)}` };
    return { answer };
  } catch (error) {
    return { problem: `request failed: ${(error as Error).message}` };
  }
}

/**
 * The rotation's turns as the load generator takes them: with a sweep, each turn's checked answer
 * from `target` as its expected bytes (the first problem is returned, its turn then checked by
 * markers only); without, the markers.
 */
async function turnsOf(target: Target, rotation: NonNullable<Workload['rotation']>): Promise<{ turns: Turn[]; problem?: string }> {
  const { turns } = rotation;
  if (!rotation.sweep) {
    const { problem } = await checkedAnswer(target, turns[0]!.body, turns[0]!.markers);
    return { turns: turns.map(({ body, markers }) => ({ body, contains: markers })), ...(problem ? { problem } : {}) };
  }
  const checked: Turn[] = new Array(turns.length);
  let problem: string | undefined;
  let next = 0;
  // A few at a time: the sweep is over in about a second on every server.
  const worker = async () => {
    for (let i = next++; i < turns.length; i = next++) {
      const { body, markers } = turns[i]!;
      const result = await checkedAnswer(target, body, markers);
      problem ??= result.problem;
      checked[i] = result.answer ? { body, expect: result.answer } : { body, contains: markers };
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return { turns: checked, ...(problem ? { problem } : {}) };
}

/** How the load generator asks `workload` of `target`. */
function requestsOf(target: Target, workload: Workload) {
  return {
    url: target.url + workload.path,
    method: workload.protocol === 'GraphQL' ? ('POST' as const) : ('GET' as const),
    headers: workload.protocol === 'GraphQL' ? GRAPHQL_HEADERS : {},
    body: workload.body,
    bodyFor: workload.bodyFor,
  };
}

async function measure(sample: SampleProcess, phase: string, connections: number, target: Target, workload: Workload): Promise<Row> {
  const {
    body: expected,
    problem,
    rotation,
  } = workload.rotation
    ? await turnsOf(target, workload.rotation).then(({ turns, problem }) => ({ body: undefined, problem, rotation: turns }))
    : { ...(await sanityCheck(target, workload)), rotation: undefined };
  // One load run: the connections open and warm up (filling the warm gateway's cache, warming the
  // JIT), then the measured window; CPU is read at its edges, upstream calls over the whole run
  // (every request answered by its end: see answeredInAll).
  let cpuBefore = 0,
    cpuAfter = 0;
  const countBefore = await sample.count();
  let stealBefore: number[] = [],
    stealAfter: number[] = [];
  const result = await load({
    ...requestsOf(target, workload),
    rotation,
    connections,
    warmup: WARMUP_S,
    duration: DURATION,
    expectBody: expected,
    serverCpu: () => cpuMicros(target.pid),
    onWindowStart: () => {
      cpuBefore = cpuMicros(target.pid);
      stealBefore = stealSeconds();
    },
    onWindowEnd: () => {
      cpuAfter = cpuMicros(target.pid);
      stealAfter = stealSeconds();
    },
  });
  const countAfter = await sample.count();
  const answered = Math.max(result.requests, 1);
  const row: Row = {
    phase,
    connections,
    workload: workload.id,
    workloadLabel: workload.label,
    protocol: workload.protocol,
    target: target.kind,
    ...result,
    cpuUsPerRequest: (cpuAfter - cpuBefore) / answered,
    cpuOf: CPU_OF[target.kind],
    upstreamPerRequest: (countAfter - countBefore) / Math.max(result.answeredInAll ?? 0, 1),
    steal: stealAfter.map((seconds, cpu) => (seconds - (stealBefore[cpu] ?? seconds)) / result.seconds),
    ...(problem ? { sanity: problem } : {}),
  };
  console.error(
    `  ${phase} | ${workload.label} | ${TARGET_LABEL[target.kind]}: ${fmt(row.rps, 0)} rps, p50 ${fmt(row.p50, 2)} ms, p99 ${fmt(row.p99, 2)} ms, ` +
      `${fmt(row.cpuUsPerRequest, 0)} µs CPU, ${fmt(row.upstreamPerRequest, 3)} upstream/req, load generator ${share(row.clientCpu)} CPU, ` +
      `req/s swing ${fmt(row.rateSwing, 1)}×, ${busyShares(row)}` +
      (problem ? `  [check request: ${problem}]` : '') +
      (row.unopened ? `  [${row.unopened} connections never answered before the window]` : '') +
      (row.mismatched ? `  [${row.mismatched} bodies differ, e.g. ${JSON.stringify(row.mismatchSample)}]` : ''),
  );
  return row;
}

const CPU_OF: Record<TargetKind, Row['cpuOf']> = {
  direct: 'sample upstream',
  proxy: 'pass-through proxy',
  peer: 'yoga peer',
  'yoga-rc': 'yoga-rc',
  limit: 'floor',
  'limit-full': 'full-path floor',
  cold: 'gateway',
  warm: 'gateway',
  redis: 'gateway',
  default: 'gateway',
  unisat: 'gateway',
  ord: 'gateway',
};

/** How the table marks CPU that is not a gateway's. */
const CPU_SUFFIX: Record<Row['cpuOf'], string> = {
  'sample upstream': ' (sample)',
  'pass-through proxy': ' (proxy)',
  'yoga peer': ' (peer)',
  'yoga-rc': ' (yoga-rc)',
  floor: ' (limit)',
  'full-path floor': ' (limit-full)',
  gateway: '',
};

/** 200 clients at once ask one never-asked key of the warm gateway; its upstream path is slow. */
async function coalesce(sample: SampleProcess, warm: ServerProcess, protocol: 'REST' | 'GraphQL', ticker: string): Promise<CoalesceResult> {
  const upstreamPath = restToken(ticker);
  await sample.setFaults([{ path: upstreamPath, delayMs: COALESCE_DELAY_MS }]);
  // The calls for this key only: a gateway that finished its row may still call for others.
  const before = await sample.countByPath();
  const result = await load({
    url: warm.url + (protocol === 'REST' ? upstreamPath : '/graphql'),
    method: protocol === 'REST' ? 'GET' : 'POST',
    headers: protocol === 'REST' ? {} : GRAPHQL_HEADERS,
    body: protocol === 'REST' ? undefined : graphqlBody(brc20Query(ticker)),
    connections: COALESCE_CLIENTS,
    amount: COALESCE_CLIENTS,
    duration: 30,
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  const after = await sample.countByPath();
  await sample.setFaults([]);
  const others = Object.entries(after).filter(([path, n]) => path !== upstreamPath && n !== (before[path] ?? 0));
  if (others.length) console.error(`  coalescing ${protocol}: meanwhile the sample was also asked ${JSON.stringify(others.slice(0, 5))}`);
  const row: CoalesceResult = {
    protocol,
    key: upstreamPath,
    clients: COALESCE_CLIENTS,
    upstreamDelayMs: COALESCE_DELAY_MS,
    upstreamCalls: (after[upstreamPath] ?? 0) - (before[upstreamPath] ?? 0),
    answered2xx: result.requests - result.non2xx,
    failed: result.failed,
  };
  console.error(`  coalescing ${protocol}: ${row.upstreamCalls} upstream call(s) for ${row.clients} clients`);
  return row;
}

function table(rows: Row[]): string {
  const header = [
    'phase',
    'workload',
    'target',
    'req/s',
    'p50 ms',
    'p99 ms',
    'CPU µs/req',
    'upstream/req',
    'non-2xx',
    'failed',
    'bad body',
    'rps ÷ direct',
    'rps ÷ proxy',
    'rps ÷ peer',
    'CPU ÷ peer',
    'rps ÷ yoga-rc',
    'CPU ÷ limit',
    'load generator CPU',
    'VM steal by CPU',
    'req/s swing (0.5 s)',
    'server busy: slowest / fastest 0.5 s',
  ];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const r of rows) {
    const cpu = `${fmt(r.cpuUsPerRequest, 0)}${CPU_SUFFIX[r.cpuOf]}`;
    lines.push(
      `| ${[
        r.phase,
        r.workloadLabel,
        TARGET_LABEL[r.target] + (r.sanity ? ' ⚠' : ''),
        fmt(r.rps, 0),
        fmt(r.p50, 2),
        fmt(r.p99, 2),
        cpu,
        fmt(r.upstreamPerRequest, 3),
        String(r.non2xx),
        String(r.failed),
        String(r.mismatched),
        fmt(r.rpsVsDirect, 2),
        fmt(r.rpsVsProxy, 2),
        fmt(r.rpsVsPeer, 2),
        fmt(r.cpuVsPeer, 2),
        fmt(r.rpsVsTuned, 2),
        fmt(r.cpuVsFloor, 2),
        share(r.clientCpu),
        r.steal.length ? r.steal.map(share).join(' / ') : '–',
        r.rateSwing === undefined ? '–' : `${fmt(r.rateSwing, 1)}×`,
        r.serverBusy ? `${share(r.serverBusy.slowest)} / ${share(r.serverBusy.fastest)}` : '–',
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

/** A GraphQL workload whose variables go round-robin over `turns` (see Workload.rotation). */
function rotating(id: WorkloadId, label: string, turns: Array<{ body: string; markers: Buffer[] }>, sweep: boolean): Workload {
  return { id, label, protocol: 'GraphQL', path: '/graphql', rotation: { turns, sweep } };
}

/** A token's turn: its answer names the ticker asked. */
const tokenTurn = (bodyOf: (ticker: string) => string) => (ticker: string) => ({
  body: bodyOf(ticker),
  markers: [Buffer.from(`"ticker":${JSON.stringify(ticker)}`)],
});

/**
 * A page's turn: its answer has the offset asked and the upstream's first and last etchings there,
 * by name (unique per rune, and the same field in every server's answer: satgate's `id` is a global
 * id since 0.2.0, the peers' the rune id).
 */
const pageTurn = (names: string[]) => (offset: number) => ({
  body: etchingsAt(offset),
  markers: [`"offset":${offset},`, `"name":"${names[offset]}"`, `"name":"${names[offset + 59]}"`].map((marker) => Buffer.from(marker)),
});

async function etchingsCount(sampleUrl: string): Promise<number> {
  const response = await fetch(`${sampleUrl}/runes/v1/etchings?limit=1`);
  return ((await response.json()) as { total: number }).total;
}

/** The sample's etching names in list order, read from the upstream itself: what W7/W8's answers must hold. */
async function etchingNamesOf(sampleUrl: string): Promise<string[]> {
  const names: string[] = [];
  for (let offset = 0; offset < BENCH_ETCHINGS; offset += 60) {
    const response = await fetch(`${sampleUrl}/runes/v1/etchings?offset=${offset}&limit=60`);
    const page = (await response.json()) as { results: Array<{ name: string }> };
    names.push(...page.results.map((e) => e.name));
  }
  if (names.length !== BENCH_ETCHINGS) throw new Error(`bench: the sample lists ${names.length} etchings, not ${BENCH_ETCHINGS}`);
  if (new Set(names).size !== names.length) throw new Error('bench: two sample etchings share a name; W7/W8 cannot tell pages apart');
  return names;
}

/** Each workload's bodies with the answers `source(workload)` gave (checked): what the floor writes. */
async function floorAnswers(workloads: Workload[], source: (workload: Workload) => Target): Promise<Array<[string, string]>> {
  const entries: Array<[string, string]> = [];
  for (const workload of workloads) {
    if (workload.rotation) {
      const { turns, problem } = await turnsOf(source(workload), workload.rotation);
      if (problem) throw new Error(`bench: ${workload.label} from ${source(workload).kind}: ${problem}`);
      entries.push(...turns.map((turn): [string, string] => [turn.body, turn.expect!.toString()]));
    } else {
      const { body, problem } = await sanityCheck(source(workload), workload);
      if (problem || body === undefined) throw new Error(`bench: ${workload.label} from ${source(workload).kind}: ${problem}`);
      entries.push([workload.body!, body]);
    }
  }
  return entries;
}

async function runBench(): Promise<void> {
  const startedAt = new Date().toISOString();
  const mainPhase = `upstream +${BASE_DELAY_MS} ms`;
  const latencyPhase = `upstream +${LATENCY_PHASE_MS} ms${LATENCY_CONNECTIONS === CONNECTIONS ? '' : `, ${LATENCY_CONNECTIONS} conn`}`;
  console.error(
    `bench: ${DURATION} s per row, ${CONNECTIONS} connections, ${cpus().length} CPUs, node ${process.version}; starting processes`,
  );
  const sample = await startSample(BASE_DELAY_MS);
  // 10,000 etchings: the 500-item connection row is a window inside the list, and W7/W8's last
  // offsets (9,000, 9,940) are full pages. W6's 500 tickers: the sample's 41 and generated ones.
  await sample.activity({ etch: BENCH_ETCHINGS - (await etchingsCount(sample.url)) });
  await sample.addTokens(GENERATED_TICKERS);
  const etchingNames = await etchingNamesOf(sample.url);
  const proxy = await startPassthrough(sample.url);
  const peer = await startPeer(sample.url);
  const tuned = await startPeer(sample.url, 'yoga-rc');
  const floor = await startLimit();
  const fullFloor = await startLimitFull(sample.url);
  // The Redis rows: the warm gateway again, with REDIS_URL (its upstream cache is then a first tier
  // in process in front of Redis). Left out, and said, where redis-server is not installed.
  const redis = await startBenchRedis();
  if (!redis) console.error('bench: no redis-server on this machine: the Redis rows are left out');
  const [cold, warm, warmRedis, byDefault, unisat, ord] = await Promise.all([
    startGateway(sample.url, { CACHE_TTL_MS: '0' }),
    startGateway(sample.url, { CACHE_TTL_MS: '600000' }),
    redis && startGateway(sample.url, { CACHE_TTL_MS: '600000', REDIS_URL: redis.url }),
    // Issue 27's rows: satgate as deployed (CACHE_TTL_MS unset: 1 s, as yoga-rc's ttl).
    startGateway(sample.url, {}),
    // Issue 25's rows: the warm gateway reading the other data sources (the sample's profiles).
    startGateway(sample.url, {
      CACHE_TTL_MS: '600000',
      BRC20_SOURCE: 'unisat',
      TRANSFERS_SOURCE: 'unisat',
      ETCHINGS_SOURCE: 'unisat',
      UNISAT_API_URL: sample.url,
      UNISAT_RATE_LIMIT_PER_SECOND: UNISAT_RATE,
    }),
    startGateway(sample.url, { CACHE_TTL_MS: '600000', ETCHINGS_SOURCE: 'ord', ORD_API_URL: sample.url }),
  ]);
  const gateways = [cold, warm, ...(warmRedis ? [warmRedis] : []), byDefault, unisat, ord];
  const servers = [sample.pid, proxy.pid, peer.pid, tuned.pid, floor.pid, fullFloor.pid, ...gateways.map((g) => g.pid)];
  const placement = pinCpus([...servers, ...(redis ? [redis.pid] : [])]);
  const pinned = placement.description;
  console.error(`bench: ${pinned}`);
  // Before any load, every server idle: how far this machine's speed swings on its own.
  const machine = await probeMachine(placement, DURATION);
  console.error(`bench: a fixed loop alone on the server's CPU swung ${fmt(machine.swing, 2)}× between half seconds (${DURATION} s)`);
  /**
   * The server under test alone on CPU 0 (on a direct row the sample), every other server beside
   * the load generator: a server that has just finished its row is still busy for a while (V8
   * shrinks an idle heap with a few full GCs some seconds later), and on CPU 0 that was hundreds
   * of milliseconds taken from the next row's server.
   */
  const alone = (pid: number) => {
    for (const server of servers) placement.place(server, server === pid ? 'server' : 'load');
  };
  const measureRow = (phase: string, connections: number, target: Target, workload: Workload): Promise<Row> => {
    alone(target.pid);
    return measure(sample, phase, connections, target, workload);
  };
  const targets: Partial<Record<TargetKind, Target>> = {
    direct: { kind: 'direct', url: sample.url, pid: sample.pid },
    proxy: { kind: 'proxy', url: proxy.url, pid: proxy.pid },
    peer: { kind: 'peer', url: peer.url, pid: peer.pid },
    'yoga-rc': { kind: 'yoga-rc', url: tuned.url, pid: tuned.pid },
    limit: { kind: 'limit', url: floor.url, pid: floor.pid },
    'limit-full': { kind: 'limit-full', url: fullFloor.url, pid: fullFloor.pid },
    cold: { kind: 'cold', url: cold.url, pid: cold.pid },
    warm: { kind: 'warm', url: warm.url, pid: warm.pid },
    ...(warmRedis && { redis: { kind: 'redis', url: warmRedis.url, pid: warmRedis.pid } }),
    default: { kind: 'default', url: byDefault.url, pid: byDefault.pid },
    unisat: { kind: 'unisat', url: unisat.url, pid: unisat.pid },
    ord: { kind: 'ord', url: ord.url, pid: ord.pid },
  };
  // Which process is which (a --cpu-prof file is named by its pid).
  console.error(
    `bench: pids: ${Object.values(targets)
      .map((t) => `${t.kind} ${t.pid}`)
      .join(', ')}`,
  );
  for (const gateway of gateways) {
    gateway.child.once('exit', (code, signal) => {
      if (!stopping) {
        console.error(`bench: a gateway exited (${code ?? signal}) during the run:\n${gateway.tail().join('\n')}`);
        process.exit(1);
      }
    });
  }

  const gql = (id: WorkloadId, label: string, query: string): Workload => ({
    id,
    label,
    protocol: 'GraphQL',
    path: '/graphql',
    body: graphqlBody(query),
  });
  /** Distinct variables on every request: every answer is executed, from the upstream cache. */
  const misses = (id: 'W1' | 'W3' | 'W4', label: string, query: string): Workload => ({
    id: `${id}-miss`,
    label: `${label} misses`,
    protocol: 'GraphQL',
    path: '/graphql',
    bodyFor: distinctBody(query),
  });
  const workloads: Record<WorkloadId, Workload> = {
    'W1-REST': { id: 'W1-REST', label: 'W1 REST token', protocol: 'REST', path: restToken('ordi') },
    'W1-GraphQL': gql('W1-GraphQL', 'W1 GraphQL token', brc20Query('ordi')),
    'W1-miss': misses('W1', 'W1 GraphQL token', brc20Query('ordi')),
    W2: gql('W2', 'W2 20 aliases / 5 tickers', aliasedBrc20Query(TICKERS_5)),
    W2b: gql('W2b', 'W2b 20 tickers', aliasedBrc20Query(TICKERS_20)),
    W2c: gql('W2c', 'W2c 20 tickers, no holders', aliasedBrc20Query(TICKERS_20, 20, false)),
    W3: gql('W3', 'W3 60 etchings', ETCHINGS_60),
    'W3-miss': misses('W3', 'W3 60 etchings', ETCHINGS_60),
    W4: gql('W4', 'W4 60 transfers', TRANSFERS_60),
    'W4-miss': misses('W4', 'W4 60 transfers', TRANSFERS_60),
    W5: gql('W5', 'W5 status+token+transfers+etchings', EVERYTHING),
    C1: gql('C1', 'C1 500-item etchings connection', CONNECTION_500),
    W6: rotating('W6', 'W6 one token, $ticker over 500', TICKERS_500.map(tokenTurn(tokenByVariable)), true),
    'W6-literal': rotating('W6-literal', 'W6-literal one token, 500 literal tickers', TICKERS_500.map(tokenTurn(tokenByLiteral)), true),
    W7: rotating('W7', 'W7 60 etchings, $offset over 151 pages', W7_OFFSETS.map(pageTurn(etchingNames)), true),
    W8: rotating('W8', 'W8 60 etchings at every offset 0..9,940', W8_OFFSETS.map(pageTurn(etchingNames)), false),
  };
  const plan = PLAN.main.map(([id, kinds]) => [workloads[id], kinds] as const);
  // BENCH_ONLY=W1-GraphQL,C1 measures those workloads alone (to profile one row); the targets then judge what was measured.
  const only = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
  const measured = (id: WorkloadId) => only.length === 0 || only.includes(id);
  // BENCH_TARGETS=default,yoga-rc measures the main phase's rows of those servers alone.
  const onlyKinds = (process.env.BENCH_TARGETS ?? '').split(',').filter(Boolean);
  const unknownKind = onlyKinds.find((kind) => !(kind in TARGET_LABEL));
  if (unknownKind) throw new Error(`BENCH_TARGETS: no target kind ${unknownKind}`);

  // The floor's answers: those of the gateway each row compares it with, checked (bench/limit.ts).
  console.error('loading the floor server');
  await floor.load(
    await floorAnswers(
      plan.filter(([workload, kinds]) => kinds.includes('limit') && measured(workload.id)).map(([workload]) => workload),
      (workload) => targets[workload.rotation ? 'default' : 'warm']!,
    ),
  );

  // A fresh process is slower at first than later: its young generation grows to the
  // allocation rate and V8 optimises the shared request path. Each server first takes W1 (REST
  // and GraphQL) for PROCESS_WARMUP_S, unmeasured, so that its first row measures the same
  // steady state as its last.
  console.error('warming up the servers');
  const warmed = new Set<TargetKind>();
  for (const [workload, kinds] of plan.slice(0, 2)) {
    for (const kind of kinds) {
      const target = targets[kind];
      if (!target || kind === 'direct') continue;
      warmed.add(kind);
      alone(target.pid);
      await load({ ...requestsOf(target, workload), connections: CONNECTIONS, duration: PROCESS_WARMUP_S });
    }
  }
  // The servers in neither W1 row: W1 GraphQL too.
  for (const target of Object.values(targets)) {
    if (warmed.has(target.kind) || target.kind === 'direct' || target.kind === 'proxy') continue;
    alone(target.pid);
    await load({ ...requestsOf(target, workloads['W1-GraphQL']), connections: CONNECTIONS, duration: PROCESS_WARMUP_S });
  }

  const rows: Row[] = [];
  console.error(`phase: ${mainPhase}`);
  for (const [workload, kinds] of plan) {
    if (!measured(workload.id)) continue;
    for (const kind of kinds) {
      const target = targets[kind];
      if (onlyKinds.length > 0 && !onlyKinds.includes(kind)) continue;
      if (target) rows.push(await measureRow(mainPhase, CONNECTIONS, target, workload));
    }
  }

  console.error('coalescing');
  const coalescing = [await coalesce(sample, warm, 'GraphQL', FRESH_TICKERS[0]), await coalesce(sample, warm, 'REST', FRESH_TICKERS[1])];

  // The cold gateway revalidates every request (CACHE_TTL_MS=0): each of its answers waits for the upstream.
  console.error(`phase: ${latencyPhase}`);
  await sample.setDelay(LATENCY_PHASE_MS);
  for (const [id, kinds] of PLAN.latency) {
    for (const kind of kinds) rows.push(await measureRow(latencyPhase, LATENCY_CONNECTIONS, targets[kind]!, workloads[id]));
  }
  await sample.setDelay(BASE_DELAY_MS);

  console.error('subscriptions');
  const live = process.env.BENCH_SKIP_LIVE ? undefined : await runSubscribers(sample);

  for (const row of rows) {
    const direct = rows.find((r) => r.phase === row.phase && r.workload === 'W1-REST' && r.target === 'direct');
    const proxied = rows.find((r) => r.phase === row.phase && r.workload === 'W1-REST' && r.target === 'proxy');
    if (direct) row.rpsVsDirect = row.rps / direct.rps;
    if (proxied) row.rpsVsProxy = row.rps / proxied.rps;
    const peered = rows.find((r) => r.phase === row.phase && r.workload === row.workload && r.target === 'peer');
    if (peered && row.target !== 'peer') {
      row.rpsVsPeer = row.rps / peered.rps;
      row.cpuVsPeer = row.cpuUsPerRequest / peered.cpuUsPerRequest;
    }
    const sameRow = (kind: TargetKind) => rows.find((r) => r.phase === row.phase && r.workload === row.workload && r.target === kind);
    const tunedRow = sameRow('yoga-rc');
    const floorRow = sameRow('limit') ?? sameRow('limit-full');
    if (tunedRow && row !== tunedRow) row.rpsVsTuned = row.rps / tunedRow.rps;
    if (floorRow && row !== floorRow) row.cpuVsFloor = row.cpuUsPerRequest / floorRow.cpuUsPerRequest;
  }
  const judged = evaluate(TARGETS, {
    rows,
    coalescing,
    phases: { main: mainPhase, latency: latencyPhase },
    machineSwing: machine.swing,
    label: (kind) => TARGET_LABEL[kind],
  });
  const checks: TargetCheck[] = [...judged, stderrCheck(gateways)];
  if (live)
    checks.push({ target: live.target.text, measured: `p99 ${fmt(live.p99Ms, 0)} ms, ${live.missed} missed`, pass: live.target.pass });

  const out: string[] = [];
  out.push(`## satgate benchmark — ${startedAt}`);
  out.push('');
  out.push(
    `${DURATION} s per row, ${CONNECTIONS} connections unless the phase says otherwise, loopback, ${cpus().length} CPUs, node ${process.version}. ` +
      "CPU µs/req is the gateway's (the sample's on direct rows, the proxy's on pass-through rows). " +
      `Every row opens its connections and warms up (${WARMUP_S} s) before its measured window: p50/p99 are the latencies of the answers completed inside the window, on connections already open. ` +
      `CPUs: ${pinned}. ` +
      `Before the rows, with every server idle, a fixed piece of work repeated alone on the server's CPU for ${DURATION} s (bench/machine-probe.mjs) swung ${fmt(machine.swing, 2)}× between half seconds: ` +
      "the machine's own share of every row's req/s swing. " +
      'Ratios are req/s against the W1 REST row of the direct upstream / pass-through proxy in the same phase.',
  );
  out.push('');
  out.push(table(rows));
  out.push('');
  out.push('### Coalescing');
  out.push('');
  for (const c of coalescing) {
    out.push(
      `- ${c.protocol} \`${c.key}\` (never asked before, upstream +${c.upstreamDelayMs} ms on that path), ` +
        `${c.clients} concurrent clients against gateway warm: ${c.upstreamCalls} upstream call(s), ` +
        `${c.answered2xx} answered 2xx, ${c.failed} failed`,
    );
  }
  out.push('');
  if (live) {
    out.push('### Subscriptions');
    out.push('');
    out.push(liveTable(live));
    out.push('');
  }
  out.push('### Targets');
  out.push('');
  for (const c of checks) out.push(`- **${verdict(c)}** ${c.target}: ${c.measured}`);
  const reordered = rows.filter((r) => r.reordered > 0);
  if (reordered.length) {
    out.push('');
    out.push(
      'Answers with the expected data but JSON keys in another order than the first answer (not counted as bad bodies): ' +
        reordered.map((r) => `${r.phase} ${r.workloadLabel} ${TARGET_LABEL[r.target]} ${r.reordered}/${r.requests}`).join('; '),
    );
  }
  const flagged = rows.filter((r) => r.sanity);
  if (flagged.length) {
    out.push('');
    out.push('### ⚠ Rows whose check request did not answer a clean 2xx');
    out.push('');
    for (const r of flagged) out.push(`- ${r.phase} ${r.workloadLabel} ${TARGET_LABEL[r.target]}: ${r.sanity}`);
  }
  const unopened = rows.filter((r) => r.unopened);
  if (unopened.length) {
    out.push('');
    out.push('### ⚠ Rows measured before every connection had an answer (their p99 includes the ramp)');
    out.push('');
    for (const r of unopened) out.push(`- ${r.phase} ${r.workloadLabel} ${TARGET_LABEL[r.target]}: ${r.unopened} of ${r.connections}`);
  }
  const file = writeResults({
    kind: 'bench',
    startedAt,
    finishedAt: new Date().toISOString(),
    settings: {
      durationSeconds: DURATION,
      connections: CONNECTIONS,
      latencyPhaseConnections: LATENCY_CONNECTIONS,
      warmupSeconds: WARMUP_S,
      upstreamDelayMs: BASE_DELAY_MS,
      latencyPhaseDelayMs: LATENCY_PHASE_MS,
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      pinned,
      machineSwing: machine.swing,
      machineCounts: machine.counts,
    },
    rows,
    coalescing,
    live,
    targets: checks,
  });
  out.push('');
  out.push(`Results: ${file}`);
  console.log(out.join('\n'));
}

let stopping = false;

async function main(): Promise<void> {
  installCleanup();
  try {
    if (process.argv.includes('--soak')) {
      await runSoak({ onStopping: () => (stopping = true) });
    } else if (process.argv.includes('--abuse')) {
      await runAbuse();
    } else if (process.argv.includes('--live')) {
      // Only the subscription row.
      const result: LiveResult = await runSubscribers(await startSample(0));
      console.log(liveTable(result) + `\n\n- **${result.target.pass ? 'PASS' : 'MISS'}** ${result.target.text}`);
    } else {
      await runBench();
    }
  } finally {
    stopping = true;
    await stopAll();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('bench failed:', error);
    process.exitCode = 1;
    void stopAll().finally(() => process.exit(1));
  },
);
