/**
 * Instructions one warm answer costs, the gateway's against the floor's (bench/limit.ts), counted by
 * valgrind's callgrind: a count, not a time, so two builds compare to a fraction of a per cent where
 * a timed row on a shared two-core VM cannot tell 10% apart. Only user space is counted: the
 * kernel's part (the socket write and the wake-up of the reader) is not, so the ratio here is not
 * the bench's CPU ratio; it is the part of it that code running in the process decides.
 *
 *   npx tsx bench/instructions.ts [--row W1|W3|W1-REST] [--entry dist/src/main.js] [--requests 8000] [--warm 8000]
 *
 * Each server runs under `valgrind --tool=callgrind` with node's `--single-threaded` (no compiler or
 * collector threads, whose timing would move the count) and a fixed hash seed, with `npm start`'s
 * semi-spaces. It answers `--warm` requests on one keep-alive connection unmeasured (the JIT settles),
 * then `--requests` measured. The same build measured three times agreed within 0.2%, but once
 * (the first run in a fresh clone) the floor counted 9% more: repeat a run before trusting a
 * difference. `--entry` measures another build (a copy of `dist/`, say) against the same floor; the
 * gateway gets the caller's environment but its upstream and cache settings, so a setting can be
 * tried too. Needs valgrind; takes about a minute.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { START_FLAGS, freePort, installCleanup, startSample, stopAll, untilHealthy, waitForMessage } from './lib/procs.js';
import type { ProxyMessage } from './lib/protocol.js';
import { ETCHINGS_60, brc20Query, graphqlBody, restToken } from './lib/queries.js';

const { values } = parseArgs({
  options: {
    row: { type: 'string', default: 'W1' },
    entry: { type: 'string', default: 'dist/src/main.js' },
    requests: { type: 'string', default: '8000' },
    warm: { type: 'string', default: '8000' },
  },
});
/** Each row's request; the floor answers a GET as the body '' (bench/limit.ts keys answers by body). */
const ROWS: Record<string, { method: 'GET' | 'POST'; path: string; body: string }> = {
  W1: { method: 'POST', path: '/graphql', body: graphqlBody(brc20Query('ordi')) },
  W3: { method: 'POST', path: '/graphql', body: graphqlBody(ETCHINGS_60) },
  'W1-REST': { method: 'GET', path: restToken('ordi'), body: '' },
};
const row = ROWS[values.row!];
if (!row) throw new Error(`--row: ${Object.keys(ROWS).join(', ')}, not ${values.row}`);
const requests = Number(values.requests);
const warm = Number(values.warm);
if (!existsSync(values.entry!)) throw new Error(`${values.entry} is missing: run npm run build`);
try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  throw new Error('valgrind is not installed (apt-get install -y valgrind)');
}

/** vgdb finds a process by names made of USER and HOST: the same in the server's and callgrind_control's environment. */
const NAMES = { USER: 'satgate', HOST: '127.0.0.1' };
const NODE_FLAGS = ['--single-threaded', '--hash-seed=1', ...START_FLAGS];
const valgrind = (out: string) => ['--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', `--callgrind-out-file=${out}`];
const control = (pid: number, ...args: string[]) =>
  execFileSync('callgrind_control', [...args, String(pid)], { env: { ...process.env, ...NAMES }, stdio: 'ignore' });

/** Sends the row's request `count` times, one after another, and gives the last answer. */
async function ask(pool: Pool, count: number): Promise<string> {
  let text = '';
  for (let i = 0; i < count; i++) {
    const response = await pool.request(
      row!.method === 'GET'
        ? { method: 'GET', path: row!.path }
        : { method: 'POST', path: row!.path, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: row!.body },
    );
    text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`answer ${response.statusCode}: ${text.slice(0, 200)}`);
  }
  return text;
}

/** Instructions per answer of the server at `url` (pid under callgrind, writing `out`). */
async function measure(url: string, pid: number, out: string): Promise<{ perAnswer: number; answer: string }> {
  const pool = new Pool(url, { connections: 1 });
  await ask(pool, warm);
  control(pid, '-i', 'on');
  const answer = await ask(pool, requests);
  control(pid, '-i', 'off');
  control(pid, '-d');
  await pool.close();
  for (let i = 0; i < 120; i++) {
    const dumped = existsSync(`${out}.1`) ? /^totals: (\d+)$/m.exec(readFileSync(`${out}.1`, 'utf8')) : null;
    if (dumped) return { perAnswer: Math.round(Number(dumped[1]) / requests), answer };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`callgrind wrote no totals to ${out}.1`);
}

installCleanup();
const dir = join(tmpdir(), `satgate-instructions-${process.pid}`);
mkdirSync(dir, { recursive: true });
const sample = await startSample(0);
const children: ChildProcess[] = [];
try {
  const port = await freePort();
  const gatewayOut = join(dir, 'gateway');
  const gateway = spawn('valgrind', [...valgrind(gatewayOut), process.execPath, ...NODE_FLAGS, values.entry!], {
    env: {
      ...process.env,
      ...NAMES,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      WORKERS: '1',
      HIRO_API_URL: sample.url,
      HIRO_PLATFORM_URL: sample.url,
      CACHE_TTL_MS: '600000',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  gateway.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < 65_536) stderr += String(chunk);
  });
  children.push(gateway);
  const gatewayUrl = `http://127.0.0.1:${port}`;
  // Two minutes, each try up to 30 s: under callgrind the gateway starts and answers slowly.
  await untilHealthy(gatewayUrl, gateway, { withinMs: 120_000, tryMs: 30_000, output: () => stderr.split('\n').filter(Boolean) });
  const measured = await measure(gatewayUrl, gateway.pid!, gatewayOut);
  gateway.kill('SIGKILL');

  // The floor as the bench forks it, under callgrind, given the gateway's answer to write.
  const floorOut = join(dir, 'floor');
  const floor = fork(new URL('./limit.ts', import.meta.url), [], {
    execPath: 'valgrind',
    execArgv: [...valgrind(floorOut), process.execPath, ...NODE_FLAGS, '--import', 'tsx'],
    env: { ...process.env, ...NAMES, PORT: String(await freePort()) },
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  children.push(floor);
  const ready = (m: unknown) => ((m as ProxyMessage).type === 'ready' ? (m as ProxyMessage) : undefined);
  const { url: floorUrl } = await waitForMessage(floor, ready, 'floor', 120_000);
  const loaded = waitForMessage(floor, (m) => ((m as { type?: string }).type === 'loaded' ? true : undefined), 'floor', 120_000);
  floor.send({ type: 'answers', entries: [[row.body, measured.answer]] });
  await loaded;
  const floored = await measure(floorUrl, floor.pid!, floorOut);
  floor.kill('SIGKILL');

  const ratio = measured.perAnswer / floored.perAnswer;
  console.log(
    `${values.row}: ${values.entry} ${measured.perAnswer.toLocaleString('en')} instructions an answer, ` +
      `the floor ${floored.perAnswer.toLocaleString('en')}: ${ratio.toFixed(3)}× (${requests} answers each, after ${warm})`,
  );
} finally {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
  await stopAll();
}
process.exit(0);
