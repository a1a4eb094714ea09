/**
 * Child processes of the benchmark: the sample upstream, the pass-through proxy and gateways.
 * Every child is registered and killed when the runner exits, normally or not; children also exit
 * on their own when the runner disappears (IPC disconnect, or bench/orphan-guard.mjs).
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Fault } from '../../src/sample/server.js';
import type { ProxyMessage, SampleCommand, SampleMessage, SampleRequest } from './protocol.js';
import { startRedis } from '../../test/redis.js';
import { SLICE_MS, swingOf } from './load.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GATEWAY_ENTRY = `${ROOT}dist/src/main.js`;
const ORPHAN_GUARD = pathToFileURL(`${ROOT}bench/orphan-guard.mjs`).href;
const MACHINE_PROBE = `${ROOT}bench/machine-probe.mjs`;

const children = new Set<ChildProcess>();

function killAll(signal: NodeJS.Signals): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
}

let hooked = false;
/** Kills every child on any way out of the runner. */
export function installCleanup(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => killAll('SIGKILL'));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      console.error(`\nbench: ${signal}, stopping children`);
      killAll('SIGKILL');
      process.exit(130);
    });
  }
  process.on('uncaughtException', (error) => {
    console.error('bench: uncaught exception', error);
    killAll('SIGKILL');
    process.exit(1);
  });
}

function register(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** SIGTERM, then SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child, PROFILING ? 60_000 : undefined)));
}

let clockTicks: number | undefined;
function clkTck(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** utime + stime of a process so far, in µs (fields 14 and 15 of /proc/<pid>/stat). */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Field 2 (comm) is parenthesised and may hold spaces: count from after its closing ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / clkTck();
}

/**
 * CPU time the hypervisor gave to other guests while each of this VM's CPUs wanted to run (the
 * "steal" column of /proc/stat), in seconds, indexed by CPU; empty where there is no /proc/stat.
 * A stolen slice stalls every request in flight on that CPU at once: on a shared VM it, not the
 * code, can be most of p99.
 */
export function stealSeconds(): number[] {
  try {
    return readFileSync('/proc/stat', 'latin1')
      .split('\n')
      .filter((line) => /^cpu\d/.test(line))
      .map((line) => Number(line.split(/\s+/)[8]) / clkTck());
  } catch {
    return [];
  }
}

/**
 * The whole machine's idle CPU time so far (idle and iowait of /proc/stat's `cpu` line), in
 * seconds summed over CPUs; undefined where there is no /proc/stat. Read at both ends of a window,
 * it says how much of the machine other work left free: a shared machine's own load is latency.
 */
export function idleSeconds(): number | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'latin1').split('\n')[0]!.split(/\s+/);
    return (Number(fields[4]) + Number(fields[5])) / clkTck();
  } catch {
    return undefined;
  }
}

/** Resident set size of a process, in MiB (VmRSS of /proc/<pid>/status). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  return kib ? Math.round((Number(kib) / 1024) * 10) / 10 : NaN;
}

/** A port that was free a moment ago (listen on 0, close). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export function waitForMessage<T>(
  child: ChildProcess,
  accept: (message: unknown) => T | undefined,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: unknown) => {
      const value = accept(message);
      if (value !== undefined) finish(undefined, value);
    };
    const onExit = (code: number | null, signal: string | null) => finish(new Error(`${what}: process exited (${code ?? signal})`));
    function finish(error: Error | undefined, value?: T) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(value as T);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/**
 * The node flags `npm start` runs the gateway with (package.json). Every server of the bench runs
 * with them (gateways, peer, proxy, sample), so the gateway runs as deployed and no server is
 * measured with a heap configuration the others lack.
 */
function startFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: { start: string } };
  const flags = /\bnode((?:\s+--\S+)*)\s+dist\/src\/main\.js/.exec(scripts.start);
  if (!flags) throw new Error(`package.json's start script does not run node dist/src/main.js: ${scripts.start}`);
  return flags[1]!.split(/\s+/).filter(Boolean);
}
export const START_FLAGS = startFlags();

export function forkTs(script: string, env: Record<string, string>): ChildProcess {
  return register(
    fork(`${ROOT}bench/${script}`, [], {
      cwd: ROOT,
      execArgv: [...START_FLAGS, '--import', 'tsx'],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
}

export interface SampleProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Requests the sample has received since it started. */
  count(): Promise<number>;
  /** The same, by path (without the query). */
  countByPath(): Promise<Record<string, number>>;
  setDelay(ms: number): Promise<void>;
  setFaults(faults: Fault[]): Promise<void>;
  setChaos(rate: number): Promise<void>;
  setOutage(kind: 'status' | 'reset' | null): Promise<void>;
  /** One-shot chaos faults armed so far. */
  injected(): Promise<number>;
  /** Sample activity: new etchings, a mint. */
  activity(change: { etch?: number; mint?: string }): Promise<void>;
  /** Serve these BRC-20 tickers too (ordi's details under each: see bench/sample-process.ts). */
  addTokens(tickers: string[]): Promise<void>;
}

export async function startSample(delayMs: number): Promise<SampleProcess> {
  const child = forkTs('sample-process.ts', { BENCH_UPSTREAM_DELAY_MS: String(delayMs) });
  const { url } = await waitForMessage(
    child,
    (m) => ((m as SampleMessage).type === 'ready' ? (m as Extract<SampleMessage, { type: 'ready' }>) : undefined),
    'sample upstream',
  );
  let nextId = 1;
  const send = async (request: SampleRequest) => {
    const id = nextId++;
    const reply = waitForMessage(
      child,
      (m) => {
        const message = m as SampleMessage;
        return message.type === 'reply' && message.id === id ? message : undefined;
      },
      'sample upstream',
      5_000,
    );
    const command: SampleCommand = { ...request, id };
    child.send(command);
    return reply;
  };
  return {
    url,
    pid: child.pid ?? 0,
    child,
    count: async () => (await send({ cmd: 'count' })).count,
    countByPath: async () => (await send({ cmd: 'count' })).paths,
    setDelay: async (ms) => void (await send({ cmd: 'delay', ms })),
    setFaults: async (faults) => void (await send({ cmd: 'faults', faults })),
    setChaos: async (rate) => void (await send({ cmd: 'chaos', rate })),
    setOutage: async (kind) => void (await send({ cmd: 'outage', kind })),
    injected: async () => (await send({ cmd: 'count' })).injected,
    activity: async (change) => void (await send({ cmd: 'activity', ...change })),
    addTokens: async (tickers) => void (await send({ cmd: 'tokens', tickers })),
  };
}

export interface ServerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** The last lines it wrote (stdout and stderr), for diagnostics. */
  tail(): string[];
  /** What it wrote to stderr (the first 64 KiB): a gateway writes nothing there, not even a warning. */
  stderr(): string;
}

/** A server forked from bench/<file> (bench/lib/child-server.ts), once it has said where it listens. */
async function startChild(file: string, env: Record<string, string>, name: string): Promise<ServerProcess> {
  const child = forkTs(file, { ...env, PORT: String(await freePort()) });
  const { url } = await waitForMessage(child, (m) => ((m as ProxyMessage).type === 'ready' ? (m as ProxyMessage) : undefined), name);
  return { url, pid: child.pid ?? 0, child, tail: () => [], stderr: () => '' };
}

export function startPassthrough(sampleUrl: string): Promise<ServerProcess> {
  return startChild('passthrough.ts', { SAMPLE_URL: sampleUrl }, 'pass-through proxy');
}

/**
 * A graphql-yoga + Pothos peer (bench/peer.ts): `plain` (no cache, no DataLoader) or `yoga-rc`
 * (response cache ttl 1 s, a DataLoader per request).
 */
export function startPeer(sampleUrl: string, kind: 'plain' | 'yoga-rc' = 'plain'): Promise<ServerProcess> {
  return startChild('peer.ts', { SAMPLE_URL: sampleUrl, PEER_KIND: kind }, `${kind} peer`);
}

/** The full-path floor (bench/limit-full.ts): W8's page asked, parsed, mapped by hand, serialised. */
export function startLimitFull(sampleUrl: string): Promise<ServerProcess> {
  return startChild('limit-full.ts', { SAMPLE_URL: sampleUrl }, 'full-path floor');
}

export interface FloorProcess extends ServerProcess {
  /** Gives the floor its answers: each request body with the answer bytes it writes for it. */
  load(entries: Array<[body: string, answer: string]>): Promise<void>;
}

/** The floor server (bench/limit.ts): precomputed answer bytes on plain node:http. */
export async function startLimit(): Promise<FloorProcess> {
  const server = await startChild('limit.ts', {}, 'floor');
  return {
    ...server,
    load: async (entries) => {
      const loaded = waitForMessage(server.child, (m) => ((m as { type?: string }).type === 'loaded' ? true : undefined), 'floor');
      server.child.send({ type: 'answers', entries });
      await loaded;
    },
  };
}

/** A redis-server on a free port for the Redis rows, or undefined when this machine has none. */
export async function startBenchRedis(): Promise<{ url: string; pid: number } | undefined> {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  const port = await freePort();
  const child = register(await startRedis(port));
  return { url: `redis://127.0.0.1:${port}`, pid: child.pid ?? 0 };
}

/** Variables of the gateway's that the runner's own environment must not leak into a bench run. */
const GATEWAY_VARIABLES = [
  'PORT',
  'HOST',
  'HIRO_API_URL',
  'METADATA_API_URL',
  'ORDINALS_API_URL',
  'RUNES_API_URL',
  'HIRO_PLATFORM_URL',
  'HIRO_API_KEY',
  'UPSTREAM_TIMEOUT_MS',
  'LOG_LEVEL',
  'CACHE_TTL_MS',
  'CACHE_NOT_FOUND_TTL_MS',
  'CACHE_MAX_BYTES',
  'REDIS_URL',
  'WORKERS',
  'STALE_IF_ERROR_MS',
  'NODE_OPTIONS',
  'LOG_FORMAT',
  'READYZ_REQUIRE_UPSTREAM',
  'LIVE_POLL_INTERVAL_MS',
  'LIVE_QUOTA_SHARE',
  'LIVE_RATE_LIMIT_PER_MINUTE',
  'MAX_SUBSCRIPTIONS',
  'MAX_SUBSCRIPTIONS_PER_CONNECTION',
  'RESPONSE_CACHE',
  'RESPONSE_CACHE_MAX_BYTES',
  'TRUST_PROXY',
  'CLIENT_UPSTREAM_CALLS_PER_MINUTE',
  'MAX_SUBSCRIPTIONS_PER_CLIENT',
  'MAX_WATCHED_RESOURCES_PER_CLIENT',
  'MAX_WEBSOCKETS_PER_CLIENT',
  'BRC20_SOURCE',
  'TRANSFERS_SOURCE',
  'ETCHINGS_SOURCE',
  'UNISAT_API_URL',
  'UNISAT_API_KEY',
  'UNISAT_RATE_LIMIT_PER_SECOND',
  'ORD_API_URL',
  'ORD_API_AUTH',
];

/**
 * The node flags of the gateways: `npm start`'s, then BENCH_GATEWAY_NODE_ARGS, extra flags to
 * profile them under a row (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` or `--trace-gc`, which
 * NODE_OPTIONS does not take).
 */
const GATEWAY_NODE_ARGS = [...START_FLAGS, ...(process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(/\s+/).filter(Boolean)];
/** A profiled gateway writes its profile as it exits, after its drain: killed at 3 s, it wrote none. */
const PROFILING = GATEWAY_NODE_ARGS.some((flag) => /^--(cpu|heap)-prof/.test(flag));

/** The compiled gateway (`node dist/src/main.js`, with `npm start`'s flags), one process (WORKERS=1), in-process cache. */
export async function startGateway(sampleUrl: string, env: Record<string, string>): Promise<ServerProcess> {
  if (!existsSync(GATEWAY_ENTRY)) throw new Error(`${GATEWAY_ENTRY} is missing: run npm run build`);
  const port = await freePort();
  const base: Record<string, string | undefined> = { ...process.env };
  for (const name of GATEWAY_VARIABLES) delete base[name];
  const child = register(
    spawn(process.execPath, [...GATEWAY_NODE_ARGS, '--import', ORPHAN_GUARD, GATEWAY_ENTRY], {
      cwd: ROOT,
      env: {
        ...base,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        WORKERS: '1',
        HIRO_API_URL: sampleUrl,
        HIRO_PLATFORM_URL: sampleUrl,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  let stderr = '';
  child.stdout?.on('data', keep);
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 65_536) stderr += String(chunk);
    keep(chunk);
  });
  const url = `http://127.0.0.1:${port}`;
  // 60 s: six gateways start at once, and on a busy 2-CPU machine that took more than 20 s.
  await untilHealthy(url, child, { withinMs: 60_000, output: () => lines });
  return { url, pid: child.pid ?? 0, child, tail: () => [...lines], stderr: () => stderr };
}

/**
 * Polls a gateway's `/healthz` until it answers 2xx; fails when `child` exits first or `withinMs`
 * pass, with the gateway's last `output`. Each try waits `tryMs` (one under valgrind is slow).
 */
export async function untilHealthy(
  url: string,
  child: ChildProcess,
  { withinMs, tryMs = 1000, output = () => [] }: { withinMs: number; tryMs?: number; output?: () => string[] },
): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`gateway exited during start-up (${child.exitCode ?? child.signalCode}):\n${output().join('\n')}`);
    }
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(tryMs) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`gateway: /healthz not ready within ${withinMs / 1000} s:\n${output().join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Where the processes of a run are: `place` moves one process while the run goes on. */
export interface CpuPlacement {
  description: string;
  /** Puts `pid` on the server's CPU (`server`) or with the load generator and the services (`load`). */
  place(pid: number, where: 'server' | 'load'): void;
}

/**
 * The process under test alone on CPU 0, as a server has a core of its own in production (the
 * issue's reference measurement gave the server one core); the load generator (this runner), the
 * services the servers call (the sample upstream, Redis) and the servers not under test on the
 * others. A revalidating gateway that shared its core with the sample waited for the scheduler at
 * every upstream call: milliseconds of tail that were the rig's. `pids` and this runner start on
 * the load generator's CPUs; `place` moves one process while the run goes on (the runner moves each
 * row's server to CPU 0, and back).
 */
export function pinCpus(pids: number[]): CpuPlacement {
  const count = cpus().length;
  const unpinned = (why: string): CpuPlacement => ({ description: `not pinned (${why})`, place: () => {} });
  if (process.env.BENCH_PIN === '0') return unpinned('BENCH_PIN=0');
  if (count < 2) return unpinned('one CPU');
  const loadCpus = `1-${count - 1}`;
  const place = (pid: number, where: 'server' | 'load') =>
    execFileSync('taskset', ['-a', '-cp', where === 'server' ? '0' : loadCpus, String(pid)], { stdio: 'ignore' });
  try {
    for (const pid of [...pids, process.pid]) place(pid, 'load');
  } catch {
    return unpinned('no taskset');
  }
  return {
    description: `the server under test alone on CPU 0 during its row (the sample on the direct rows); load generator, sample upstream, Redis and the other servers on CPU ${count > 2 ? loadCpus : '1'}`,
    place,
  };
}

/**
 * How far the machine's own speed swings, with none of our load: bench/machine-probe.mjs repeats a
 * fixed piece of work alone on the server's CPU and counts the pieces of each half second. `swing`
 * is the fastest half second's count over the slowest's, as a row's req/s swing: the part of a
 * row's swing, and so of its tail, that no server can remove.
 */
export async function probeMachine(
  placement: CpuPlacement,
  seconds: number,
  warmupSeconds = 2,
): Promise<{ swing: number; counts: number[] }> {
  const child = register(
    spawn(process.execPath, [MACHINE_PROBE, String(warmupSeconds), String(seconds), String(SLICE_MS)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  // 'close', not 'exit': the output is all read by then.
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  placement.place(child.pid!, 'server');
  let printed = '';
  child.stdout!.on('data', (chunk: Buffer) => (printed += String(chunk)));
  const code = await exited;
  if (code !== 0) throw new Error(`bench/machine-probe.mjs exited with ${code}`);
  const counts = JSON.parse(printed) as number[];
  return { swing: swingOf(counts), counts };
}

/** The bench's check that the gateways wrote nothing to stderr (a warning there is a defect). */
export function stderrCheck(gateways: ServerProcess[]): { target: string; measured: string; pass: boolean } {
  const written = gateways.map((g) => g.stderr()).filter(Boolean);
  return {
    target: 'gateways wrote nothing to stderr',
    measured: written.length ? JSON.stringify(written[0]!.split('\n')[0]) : 'nothing',
    pass: written.length === 0,
  };
}
