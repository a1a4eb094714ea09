/**
 * The gateway as an operator runs it, in real processes: `npm start` and `npm run demo` signalled
 * through npm's own pid, the compiled entry (dist/) refusing a busy or forbidden port with one
 * line, a closed stdout, nothing on stderr under a wide query, and a runtime that needs no dev
 * dependency.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { connect as tcpConnect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SAMPLE_PLATFORM_KEY, startSampleUpstream, type SampleUpstream } from '../../src/sample/server.js';
import { loadConfig } from '../../src/config.js';
import { ListenError } from '../../src/main.js';
import { freePort } from '../harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(ROOT, 'dist/src/main.js');

/** The environment without any gateway setting of the runner's own (LOG_FORMAT, PORT, …). */
function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const name of Object.keys(base)) {
    if (/^(PORT|HOST|WORKERS|LOG_|HIRO_|METADATA_|ORDINALS_|RUNES_|REDIS_|GRAPHIQL|PERSISTED_|READYZ_|NODE_OPTIONS$)/.test(name))
      delete base[name];
  }
  return { ...base, ...env };
}

interface Running {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits until stdout matches, or the process exits. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
}

function run(command: string, args: string[], env: Record<string, string>): Running {
  const child = spawn(command, args, { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let done = false;
  void exited.then(() => (done = true));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async waitFor(pattern, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(stdout) && !done && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      if (!pattern.test(stdout)) throw new Error(`no ${pattern} in stdout:\n${stdout}\nstderr:\n${stderr}`);
    },
  };
}

/** ECONNREFUSED once nothing listens on the port. */
function connect(port: number): Promise<string> {
  return fetch(`http://127.0.0.1:${port}/healthz`, { headers: { connection: 'close' } }).then(
    (response) => `answered ${response.status}`,
    (error: { cause?: { code?: string } }) => error.cause?.code ?? 'error',
  );
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A keep-alive connection the gateway has accepted: it has answered a first request on it (so a
 * gateway stopped later finds only the data written to it waiting, not the connection).
 */
async function acceptedSocket(port: number): Promise<Socket> {
  const socket = tcpConnect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const answer = nextAnswer(socket);
  socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  await answer;
  return socket;
}

/** The next whole answer on a keep-alive socket (framed by Content-Length): its status line; `onFirstByte` when it starts. */
function nextAnswer(socket: Socket, onFirstByte = () => {}): Promise<string> {
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      if (received.length === 0) onFirstByte();
      received = Buffer.concat([received, chunk]);
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = received.subarray(0, headEnd).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (received.length < headEnd + 4 + length) return;
      socket.off('data', onData);
      resolve(head.slice(0, head.indexOf('\r\n')));
    };
    socket.on('data', onData);
  });
}

/**
 * Waits until the process is stopped (state T in /proc). A stop signal takes effect when the process
 * next runs: one woken by data written meanwhile would stop holding that data's readiness, and
 * handle it alone when continued.
 */
async function stopped(pid: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!/^\d+ \(.*\) [Tt] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) {
    if (Date.now() > deadline) throw new Error(`process ${pid} did not stop`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The pid in the gateway's `satgate listening` JSON line. */
function gatewayPid(stdout: string): number {
  const line = stdout.split('\n').find((l) => l.includes('"msg":"satgate listening"'));
  return (JSON.parse(line ?? '{}') as { pid: number }).pid;
}

let sample: SampleUpstream;
beforeAll(async () => {
  sample = await startSampleUpstream();
  // What `npm start` does first: compile when dist/ is older than src/ (a no-op when current).
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts/build-if-stale.mjs')], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
}, 240_000);
afterAll(() => sample.close());

describe('npm start and npm run demo', () => {
  test('SIGTERM to the npm process drains the gateway: the request in flight completes, then the gateway exits, the port closes, npm exits 0', async () => {
    const port = await freePort();
    const npm = run('npm', ['start'], {
      PORT: String(port),
      HOST: '127.0.0.1',
      HIRO_API_URL: sample.url,
      HIRO_PLATFORM_URL: sample.url,
      SHUTDOWN_TIMEOUT_MS: '5000',
    });
    try {
      await npm.waitFor(/"msg":"satgate listening"/);
      const gateway = gatewayPid(npm.stdout());
      // The young generation's floor and ceiling (docs/operating.md, Deploying): without the floor an idle gateway's first seconds of load cost twice the CPU.
      expect(readFileSync(`/proc/${gateway}/cmdline`, 'utf8').split('\0')).toEqual(
        expect.arrayContaining(['--min-semi-space-size=8', '--max-semi-space-size=8']),
      );
      sample.inject({ path: '/runes/v1/etchings', delayMs: 800, times: 1 });
      const inFlight = fetch(`http://127.0.0.1:${port}/runes/v1/etchings?limit=1`).then(async (r) => [
        r.status,
        ((await r.json()) as { total: number }).total > 0,
      ]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      process.kill(npm.child.pid!, 'SIGTERM');
      expect(await inFlight).toEqual([200, true]);
      expect(await npm.exited).toEqual({ code: 0, signal: null });
      expect([alive(gateway), await connect(port)]).toEqual([false, 'ECONNREFUSED']);
      const messages = npm
        .stdout()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(messages.filter((msg) => msg !== 'request')).toEqual([
        'satgate listening',
        'shutting down: draining in-flight requests',
        'stopped',
      ]);
      // dist/ was current: this start compiled nothing.
      expect(npm.stderr()).not.toContain('building dist/');
    } finally {
      npm.child.kill('SIGKILL');
    }
  });

  test('SIGINT to the npm process stops the demo: its gateway and its sample upstream', async () => {
    const [port, samplePort] = [await freePort(), await freePort()];
    const npm = run('npm', ['run', 'demo'], { PORT: String(port), SAMPLE_UPSTREAM_PORT: String(samplePort) });
    try {
      await npm.waitFor(/Ctrl-C to stop/);
      const answer = await fetch(`http://127.0.0.1:${port}/ordinals/v1/brc-20/tokens/ordi`, { headers: { 'x-request-id': 'demo-1' } });
      expect(answer.status).toBe(200);
      await npm.waitFor(/demo-1/);
      process.kill(npm.child.pid!, 'SIGINT');
      expect(await npm.exited).toEqual({ code: 0, signal: null });
      expect([await connect(port), await connect(samplePort)]).toEqual(['ECONNREFUSED', 'ECONNREFUSED']);
      // Pretty lines at info by default: a newcomer sees each request.
      const plain = npm.stdout().replace(/\u001b\[[0-9;]*m/g, '');
      expect(plain).toMatch(
        /INFO \(\d+\): request \{"requestId":"demo-1","method":"GET","path":"\/ordinals\/v1\/brc-20\/tokens\/ordi","status":200,/,
      );
      expect(plain).toMatch(/INFO \(\d+\): stopped\n/);
    } finally {
      npm.child.kill('SIGKILL');
    }
  });

  test.each([
    ['unisat', '/ordinals/v1/brc-20/tokens/ordi', 'unisat'],
    ['ord', '/runes/v1/etchings?limit=1', 'ord'],
    ['ord', '/ordinals/v1/brc-20/tokens/ordi', null],
  ])('npm run demo -- --source=%s: %s answers with x-data-source %s', async (source, path, expected) => {
    const port = await freePort();
    const npm = run('npm', ['run', 'demo', '--', `--source=${source}`], { PORT: String(port), LOG_LEVEL: 'warn' });
    try {
      await npm.waitFor(/Ctrl-C to stop/);
      expect(npm.stdout()).toContain(`data source ${source}`);
      const answer = await fetch(`http://127.0.0.1:${port}${path}`);
      expect([answer.status, answer.headers.get('x-data-source')]).toEqual([200, expected]);
      await answer.arrayBuffer();
    } finally {
      process.kill(npm.child.pid!, 'SIGINT');
      await npm.exited;
    }
  });

  test('npm run demo -- --source=other is refused with one line', async () => {
    const npm = run('npm', ['run', 'demo', '--', '--source=other'], {});
    expect((await npm.exited).code).toBe(2);
    expect(npm.stderr()).toContain('satgate demo: --source must be one of hiro, unisat, ord');
  });
});

describe('start-up failures', () => {
  let busy: Server;
  let busyPort: number;
  beforeAll(async () => {
    busy = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => busy.once('listening', resolve));
    busyPort = (busy.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

  const gatewayEnv = (env: Record<string, string>) => ({
    HOST: '127.0.0.1',
    HIRO_API_URL: sample.url,
    HIRO_PLATFORM_URL: sample.url,
    ...env,
  });

  test.each([
    ['one process', '1'],
    ['two workers', '2'],
  ])('a busy port: one line on stderr, exit 1 (%s)', async (_label, workers) => {
    const gateway = run(process.execPath, [MAIN], gatewayEnv({ PORT: String(busyPort), WORKERS: workers }));
    expect(await gateway.exited).toEqual({ code: 1, signal: null });
    expect([gateway.stderr(), gateway.stdout()]).toEqual([
      `satgate: cannot listen on 127.0.0.1:${busyPort}: the port is already in use; stop the other process or choose another PORT (EADDRINUSE)\n`,
      '',
    ]);
  });

  test("an address that is not this machine's: one line on stderr, exit 1", async () => {
    const gateway = run(process.execPath, [MAIN], gatewayEnv({ PORT: '4000', HOST: '192.0.2.1' }));
    expect(await gateway.exited).toEqual({ code: 1, signal: null });
    expect(gateway.stderr()).toBe(
      "satgate: cannot listen on 192.0.2.1:4000: the address is not one of this machine's; check HOST (EADDRNOTAVAIL)\n",
    );
  });

  // EACCES needs a user that may not listen on port 1, and running the gateway as another user
  // depends on the checkout being readable by it: the same one-line path is run end to end by the
  // busy-port cases above, and the EACCES wording is checked on the error itself.
  test('a forbidden port: the line names the privilege and the first free PORT', () => {
    const denied = Object.assign(new Error('listen EACCES: permission denied 127.0.0.1:1'), { code: 'EACCES' });
    expect(new ListenError(loadConfig({ PORT: '1', HOST: '127.0.0.1' }), denied).message).toBe(
      'cannot listen on 127.0.0.1:1: this user may not listen there (ports below 1024 need privileges); choose a PORT from 1024 (EACCES)',
    );
    expect(
      new ListenError(loadConfig({ PORT: '8080', HOST: '127.0.0.1' }), Object.assign(new Error('denied'), { code: 'EACCES' })).message,
    ).toBe('cannot listen on 127.0.0.1:8080: this user may not listen there (EACCES)');
  });

  test('a configuration error: one line on stderr, exit 1', async () => {
    const gateway = run(process.execPath, [MAIN], gatewayEnv({ LOG_FORMAT: 'yaml' }));
    expect(await gateway.exited).toEqual({ code: 1, signal: null });
    expect(gateway.stderr()).toBe('satgate: configuration error: LOG_FORMAT must be one of json, pretty, got "yaml"\n');
  });
});

describe('the gateway process', () => {
  async function startGateway(env: Record<string, string> = {}) {
    const port = await freePort();
    const gateway = run(process.execPath, [MAIN], {
      PORT: String(port),
      HOST: '127.0.0.1',
      HIRO_API_URL: sample.url,
      HIRO_PLATFORM_URL: sample.url,
      ...env,
    });
    await gateway.waitFor(/satgate listening/);
    return { gateway, url: `http://127.0.0.1:${port}` };
  }
  const graphql = (url: string, query: string) =>
    fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) }).then(
      (r) => r.json() as Promise<{ data?: Record<string, unknown>; errors?: unknown[] }>,
    );

  test('writes nothing to stderr, even for a query with 30 tickers or a dozen platform calls', async () => {
    const { gateway, url } = await startGateway();
    try {
      const tickers = `{ ${Array.from({ length: 30 }, (_, i) => `t${i}: brc20Token(ticker: "tk${i}") { supply { holders } }`).join(' ')} }`;
      const node = `{ ${Array.from({ length: 12 }, (_, i) => `n${i}: bitcoinNode(path: "rest/chaininfo.json?n=${i}", apiKey: "${SAMPLE_PLATFORM_KEY}")`).join(' ')} }`;
      const [wide, platform] = await Promise.all([graphql(url, tickers), graphql(url, node)]);
      expect([wide.errors, Object.keys(wide.data ?? {}).length, platform.errors, Object.keys(platform.data ?? {}).length]).toEqual([
        undefined,
        30,
        undefined,
        12,
      ]);
    } finally {
      gateway.child.kill('SIGTERM');
    }
    expect(await gateway.exited).toEqual({ code: 0, signal: null });
    expect(gateway.stderr()).toBe('');
  });

  test('stored answers and REST cache hits are written before executions that arrived with them: cheap answers never queue behind execution', async () => {
    const { gateway, url } = await startGateway({ WORKERS: '1', CACHE_TTL_MS: '600000' });
    const sockets: Socket[] = [];
    try {
      const port = Number(new URL(url).port);
      const query = '{ brc20Token(ticker: "ordi") { token { ticker } } }';
      const headers = 'content-type: application/json\r\naccept: application/json';
      // Stored on the fast path (under this Accept, which is part of its key); its upstream answer
      // is cached for the executions below.
      const first = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query }),
      });
      expect(await first.json()).toEqual({ data: { brc20Token: { token: { ticker: 'ordi' } } } });
      const restPath = '/ordinals/v1/brc-20/tokens/ordi';
      const restFirst = await fetch(`${url}${restPath}`);
      expect([restFirst.status, ((await restFirst.json()) as { token?: { ticker?: string } }).token?.ticker]).toEqual([200, 'ordi']);
      // Five documents that differ from it only in spacing (other keys: each executes, from the
      // upstream cache, with no upstream call to wait for), then the stored one and the cached REST
      // route, on seven open sockets.
      const post = (body: string) =>
        `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      const requests = [1, 2, 3, 4, 5].map((spaces) => post(JSON.stringify({ query: `{${' '.repeat(spaces)}${query.slice(1)}` })));
      requests.push(post(JSON.stringify({ query })), `GET ${restPath} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      sockets.push(...(await Promise.all(requests.map(() => acceptedSocket(port)))));
      const order: number[] = [];
      const answered = sockets.map((socket, i) => nextAnswer(socket, () => order.push(i)));
      // Stopped, the gateway finds all seven requests readable at once when it runs again, in the
      // order they were written.
      gateway.child.kill('SIGSTOP');
      try {
        await stopped(gateway.child.pid!);
        for (const [i, socket] of sockets.entries()) {
          socket.write(requests[i]!);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } finally {
        gateway.child.kill('SIGCONT');
      }
      expect(await Promise.all(answered)).toEqual(Array(7).fill('HTTP/1.1 200 OK'));
      // The stored answer and the REST hit before any execution (between the two, the POST's body
      // is read a tick later, so either may lead), whatever order the executions then finish in.
      expect(order.slice(0, 2).sort()).toEqual([5, 6]);
    } finally {
      sockets.forEach((socket) => socket.destroy());
      gateway.child.kill('SIGTERM');
    }
    expect(await gateway.exited).toEqual({ code: 0, signal: null });
  });

  test.each(['json', 'pretty'])('a closed stdout does not keep it alive after SIGTERM (LOG_FORMAT=%s)', async (format) => {
    const { gateway, url } = await startGateway({ LOG_FORMAT: format });
    gateway.child.stdout!.destroy();
    // Access lines now go to a pipe nobody reads: EPIPE.
    for (let i = 0; i < 20; i++) expect((await fetch(`${url}/healthz`)).status).toBe(200);
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toEqual({ code: 0, signal: null });
    expect(gateway.stderr()).toBe('');
  });
});

describe('a stdout nobody reads any more: SIGTERM stops the process within SHUTDOWN_TIMEOUT_MS and a second', () => {
  const SHUTDOWN_TIMEOUT_MS = 2_000;
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'satgate-stdout-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A named pipe for the gateway's stdout, and the gateway writing to it (opened once a reader has). */
  async function gatewayOnFifo<Reader>(name: string, format: string, reader: (fifo: string) => Promise<Reader>) {
    const fifo = join(dir, name);
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const [readEnd, writeEnd] = await Promise.all([reader(fifo), open(fifo, 'w')]);
    const port = await freePort();
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      HIRO_API_URL: sample.url,
      HIRO_PLATFORM_URL: sample.url,
      LOG_FORMAT: format,
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    };
    const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', writeEnd.fd, 'pipe'] });
    await writeEnd.close();
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    return { child, readEnd, exited, stderr: () => stderr, url: `http://127.0.0.1:${port}` };
  }

  /** How it exits after SIGTERM: 'still running' past the bound (generous: the machine may be loaded). */
  async function terminate(gateway: { child: ChildProcess; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }) {
    gateway.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'still running'>(
      (resolve) => (timer = setTimeout(() => resolve('still running'), SHUTDOWN_TIMEOUT_MS + 1_000 + 4_000)),
    );
    try {
      return await Promise.race([gateway.exited, late]);
    } finally {
      clearTimeout(timer);
      gateway.child.kill('SIGKILL');
    }
  }

  test.each(['json', 'pretty'])(
    'its reader leaves in the middle of the start-up line (LOG_FORMAT=%s)',
    async (format) => {
      // `head -c 300 <fifo`: it reads the start of the first line and leaves; a write still in flight then fails with EPIPE.
      const headOf = (fifo: string) =>
        Promise.resolve(spawn('sh', ['-c', 'exec head -c 300 <"$0"', fifo], { stdio: ['ignore', 'pipe', 'inherit'] }));
      const gateway = await gatewayOnFifo(`mid-line-${format}`, format, headOf);
      const head = gateway.readEnd;
      let seen = '';
      head.stdout!.on('data', (chunk: Buffer) => (seen += chunk.toString()));
      await new Promise((resolve) => head.once('exit', resolve));
      expect(seen.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(
        format === 'json' ? /^\{"level":"info","time":"[^"]+","app":"satgate",/ : /INFO \(\d+\): satgate listening/,
      );
      expect(await terminate(gateway)).toEqual({ code: 0, signal: null });
      expect(gateway.stderr()).toBe('');
    },
    60_000,
  );

  test.each(['json', 'pretty'])(
    'its reader stops reading once the pipe is full (LOG_FORMAT=%s)',
    async (format) => {
      // A reader that opened the pipe and never reads: writes fail with EAGAIN once its 64 KiB are full.
      const gateway = await gatewayOnFifo(`stuck-${format}`, format, (fifo) => open(fifo, 'r'));
      try {
        await until(() => connect(Number(new URL(gateway.url).port)).then((state) => state === 'answered 200'));
        // 600 access lines of 200 bytes or more: more than the pipe's 64 KiB. Requests are still answered.
        for (let i = 0; i < 60; i++) {
          const statuses = await Promise.all(Array.from({ length: 10 }, () => fetch(`${gateway.url}/healthz`).then((r) => r.status)));
          expect(statuses).toEqual(Array(10).fill(200));
        }
        expect(await terminate(gateway)).toEqual({ code: 0, signal: null });
        expect(gateway.stderr()).toBe('');
      } finally {
        await gateway.readEnd.close();
      }
    },
    60_000,
  );
});

async function until(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the runtime', () => {
  test('imports only node built-ins and the dependencies of package.json (npm ci --omit=dev is enough)', () => {
    const { dependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const imported = new Set<string>();
    const files = readdirSync(join(ROOT, 'dist/src'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
    for (const file of files) {
      const source = readFileSync(join(ROOT, 'dist/src', file), 'utf8');
      // Static `import … from '…'` / `export … from '…'` / `import '…'` statements, and `import('…')`.
      const statements = /^\s*(?:import|export)\s+(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;
      for (const [, staticSpecifier, dynamicSpecifier] of source.matchAll(statements)) {
        const specifier = (staticSpecifier ?? dynamicSpecifier)!;
        if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
        imported.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
      }
    }
    expect(files.length).toBeGreaterThan(30);
    expect([...imported].filter((name) => !(name in dependencies))).toEqual([]);
    // The gateway's own libraries, as a sanity check that the scan sees imports at all.
    expect([...imported]).toEqual(expect.arrayContaining(['graphql-yoga', 'pino', 'pino-pretty', 'prom-client', 'undici']));
  });
});
