/**
 * WORKERS=2: the process entry runs node:cluster workers that share the port (the primary
 * distributes connections round-robin); /metrics answers for the whole group, whose counters keep
 * a dead worker's counts; a worker that dies is replaced, said in a log line like every other;
 * SIGTERM drains them all and exits 0. A client's upstream calls are limited per client, not per
 * worker: split between the workers, or counted once in Redis.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { sampleData } from '../../src/sample/data.js';
import { startSampleUpstream, type SampleUpstream } from '../../src/sample/server.js';
import { rawExchange } from '../../bench/lib/raw-http.js';
import { freePort } from '../harness.js';
import { startRedis, stopRedis } from '../redis.js';

let sample: SampleUpstream;
beforeAll(async () => {
  sample = await startSampleUpstream();
});
afterAll(() => sample.close());
afterEach(() => sample.reset());

/** A cluster's test may wait long for its start on a loaded machine. */
const CLUSTER_TEST_MS = 90_000;

/** `npm start` with WORKERS=2 and `env`, once both workers listen. */
async function startCluster(env: Record<string, string> = {}) {
  const port = await freePort();
  const main = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      WORKERS: '2',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      HIRO_API_URL: sample.url,
      HIRO_PLATFORM_URL: sample.url,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const lines = () =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const listening = () => lines().filter((line) => line.msg === 'satgate listening');
  const until = async (done: () => boolean, withinMs = 10_000) => {
    for (let waited = 0; waited < withinMs && !done(); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  // A new connection each time: round-robin gives consecutive ones to different workers.
  const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`, { headers: { connection: 'close' } });
  // Generous: two workers compiling TypeScript on a loaded machine.
  await until(() => listening().length === 2, 45_000);
  return {
    child,
    lines,
    listening,
    until,
    get,
    port,
    stderr: () => stderr,
    /** SIGTERM; answers the exit code. */
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

test(
  "requests node's parser refuses are answered, logged and counted by every worker",
  async () => {
    const cluster = await startCluster();
    try {
      // Two connections: round-robin gives one to each worker.
      const answers = await Promise.all(
        [1, 2].map(async () =>
          (await rawExchange(new URL(`http://127.0.0.1:${cluster.port}`), 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n', 10_000)).toString(),
        ),
      );
      const body = '{"errors":[{"message":"Unknown HTTP method","extensions":{"code":"BAD_REQUEST"}}]}';
      const refused = `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
      expect(answers).toEqual([refused, refused]);
      const lines = () => cluster.lines().filter((line) => line.msg === 'request refused');
      await cluster.until(() => lines().length === 2);
      expect(new Set(lines().map((line) => line.pid)).size).toBe(2);
      const scrape = await (await cluster.get('/metrics')).text();
      expect(/^satgate_http_client_errors_total\{reason="invalid_method"\} \d+$/m.exec(scrape)?.[0]).toBe(
        'satgate_http_client_errors_total{reason="invalid_method"} 2',
      );
    } finally {
      expect(await cluster.stop()).toBe(0);
    }
  },
  CLUSTER_TEST_MS,
);

test(
  'two workers share the port, /metrics sums them, a dead worker is replaced and its counts kept; SIGTERM exits 0',
  async () => {
    const cluster = await startCluster();
    const { child, lines, listening, until, get } = cluster;
    let exitCode: number | null;
    try {
      expect(listening()).toHaveLength(2);
      const answers = await Promise.all(Array.from({ length: 20 }, () => get('/ordinals/v1/brc-20/tokens/ordi').then((r) => r.status)));
      expect(answers).toEqual(Array.from({ length: 20 }, () => 200));
      await until(() => lines().filter((line) => line.msg === 'request').length === 20);
      const servedBy = new Set(
        lines()
          .filter((line) => line.msg === 'request')
          .map((line) => line.pid),
      );
      expect(servedBy.size).toBe(2);

      // Whichever worker answers the scrape, it reports the whole group: 20 requests, not its share.
      const scrapes = await Promise.all([get('/metrics'), get('/metrics')].map(async (r) => (await r).text()));
      const series = (text: string) =>
        text.split('\n').filter((line) => /^satgate_(rest_request_duration_seconds_count|upstream_breaker_state)\{/.test(line));
      expect(scrapes.map(series)).toEqual(
        Array.from({ length: 2 }, () => [
          'satgate_rest_request_duration_seconds_count{route="/ordinals/v1/brc-20/tokens/:ticker",status="200"} 20',
          // Gauges of state take the worst worker, not a sum.
          'satgate_upstream_breaker_state{service="metadata"} 0',
          'satgate_upstream_breaker_state{service="ordinals"} 0',
          'satgate_upstream_breaker_state{service="runes"} 0',
        ]),
      );
      const scraped = () => lines().filter((line) => line.msg === 'request' && line.path === '/metrics');
      await until(() => scraped().length === 2);
      expect(new Set(scraped().map((line) => line.pid)).size).toBe(2);

      const victim = listening()[0]!.pid as number;
      process.kill(victim, 'SIGKILL');
      await until(() => listening().length === 3, 45_000);
      const { time, pid, ...crash } = lines().find((line) => line.msg === 'worker exited; starting another') ?? {};
      expect([typeof time, pid === child.pid, crash]).toEqual([
        'string',
        true,
        {
          level: 'error',
          app: 'satgate',
          worker: victim,
          code: null,
          signal: 'SIGKILL',
          restartInMs: 0,
          msg: 'worker exited; starting another',
        },
      ]);
      expect((await get('/healthz')).status).toBe(200);
      // The victim's counts stay in the sums: a smaller sum would read as a reset to Prometheus.
      const after = await Promise.all([get('/metrics'), get('/metrics')].map(async (r) => (await r).text()));
      expect(after.map((text) => series(text)[0])).toEqual(
        Array.from(
          { length: 2 },
          () => 'satgate_rest_request_duration_seconds_count{route="/ordinals/v1/brc-20/tokens/:ticker",status="200"} 20',
        ),
      );
    } finally {
      exitCode = await cluster.stop();
    }
    expect(exitCode).toBe(0);
    expect(cluster.stderr()).toBe('');
  },
  CLUSTER_TEST_MS,
);

test(
  'workers that keep dying are replaced after growing waits, not in a loop; SIGTERM cancels a replacement still waiting',
  async () => {
    const cluster = await startCluster();
    const { lines, listening, until } = cluster;
    const crashes = () => lines().filter((line) => line.msg === 'worker exited; starting another');
    let exitCode: number | null;
    try {
      // Each time, the newest worker dies as soon as it serves, as one with a bug on a timer would.
      for (let died = 1; died <= 3; died++) {
        process.kill(listening().at(-1)!.pid as number, 'SIGKILL');
        await until(() => crashes().length === died);
        if (died < 3) await until(() => listening().length === 2 + died, 45_000);
      }
      expect(crashes().map((line) => line.restartInMs)).toEqual([0, 500, 1000]);
    } finally {
      // The third replacement is still waiting: the group stops without it.
      exitCode = await cluster.stop();
    }
    expect(exitCode).toBe(0);
    expect(cluster.stderr()).toBe('');
  },
  CLUSTER_TEST_MS,
);

test(
  'a worker that does not stop cleanly makes the group exit 1',
  async () => {
    // A request in flight holds its worker's drain; the worker is then killed, as an operator's
    // supervisor would after its grace period.
    sample.inject({ path: '/metadata/v1', hang: true });
    const cluster = await startCluster({ SHUTDOWN_TIMEOUT_MS: '20000', UPSTREAM_TIMEOUT_MS: '30000', REQUEST_TIMEOUT_MS: '30000' });
    const inFlight = cluster.get('/metadata/v1').catch(() => undefined);
    await cluster.until(() => sample.requests.length > 0);
    const stopped = cluster.stop();
    for (const line of cluster.listening()) {
      try {
        process.kill(line.pid as number, 'SIGKILL');
      } catch {
        // That worker had already stopped.
      }
    }
    expect(await stopped).toBe(1);
    await inFlight;
  },
  CLUSTER_TEST_MS,
);

// Distinct tokens: each request is an upstream call of the one client (127.0.0.1).
const tickers = sampleData.brc20Tokens.map((t) => t.token.ticker).filter((ticker) => /^[a-z0-9]+$/.test(ticker));
const tokenPath = (ticker: string) => `/ordinals/v1/brc-20/tokens/${ticker}`;

/** GETs each ticker's token in turn, each on a new connection: status and RateLimit-Limit. */
async function askFor(cluster: Awaited<ReturnType<typeof startCluster>>, asked: string[]) {
  const answers: Array<[number, string | null]> = [];
  for (const ticker of asked) {
    const response = await cluster.get(tokenPath(ticker));
    await response.arrayBuffer();
    answers.push([response.status, response.headers.get('ratelimit-limit')]);
  }
  return answers;
}

test(
  'without Redis each worker allows floor(CLIENT_UPSTREAM_CALLS_PER_MINUTE / WORKERS) calls of a client: 5 a minute is 4 in all',
  async () => {
    const cluster = await startCluster({ CLIENT_UPSTREAM_CALLS_PER_MINUTE: '5' });
    try {
      const asked = tickers.slice(0, 10);
      const answers = await askFor(cluster, asked);
      expect(answers.filter(([status]) => status === 200)).toHaveLength(4);
      expect(answers.filter(([status]) => status !== 200)).toEqual(Array.from({ length: 6 }, () => [429, '2']));
      // Only the allowed calls reached the upstream, two through each worker.
      const served = asked.filter((_, i) => answers[i]![0] === 200).map((ticker) => `GET ${tokenPath(ticker)}`);
      expect(sample.requests.map((r) => `${r.method} ${r.url}`)).toEqual(served);
      await cluster.until(() => cluster.lines().filter((line) => line.msg === 'request').length === 10);
      const servedBy = cluster
        .lines()
        .filter((line) => line.msg === 'request' && line.status === 200)
        .map((line) => line.pid);
      expect(servedBy).toHaveLength(4);
      expect(new Set(servedBy).size).toBe(2);
    } finally {
      expect(await cluster.stop()).toBe(0);
    }
  },
  CLUSTER_TEST_MS,
);

test(
  'with Redis the workers count a client once: 3 a minute is 3 in all, whichever worker answers; Redis gone, each worker its share',
  async () => {
    const redisPort = await freePort();
    const redis = await startRedis(redisPort);
    let redisUp = true;
    let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
    try {
      cluster = await startCluster({ CLIENT_UPSTREAM_CALLS_PER_MINUTE: '3', REDIS_URL: `redis://127.0.0.1:${redisPort}` });
      const asked = tickers.slice(0, 8);
      expect(await askFor(cluster, asked)).toEqual([
        ...Array.from({ length: 3 }, () => [200, null]),
        ...Array.from({ length: 5 }, () => [429, '3']),
      ]);
      expect(sample.requests.map((r) => `${r.method} ${r.url}`)).toEqual(asked.slice(0, 3).map((ticker) => `GET ${tokenPath(ticker)}`));
      await cluster.until(() => cluster!.lines().filter((line) => line.msg === 'request').length === 8);
      const answeredBy = new Set(
        cluster
          .lines()
          .filter((line) => line.msg === 'request')
          .map((line) => line.pid),
      );
      expect(answeredBy.size).toBe(2);

      // Redis gone: nothing fails because of it, and each worker counts its own share, floor(3 / 2).
      await stopRedis(redis);
      redisUp = false;
      sample.clearLog();
      const more = tickers.slice(8, 12);
      const answers = await askFor(cluster, more);
      expect(answers.filter(([status]) => status === 200)).toHaveLength(2);
      expect(answers.filter(([status]) => status !== 200)).toEqual([
        [429, '1'],
        [429, '1'],
      ]);
    } finally {
      if (cluster) expect(await cluster.stop()).toBe(0);
      if (redisUp) await stopRedis(redis);
    }
  },
  CLUSTER_TEST_MS,
);

test(
  "without Redis the workers share UniSat's one calls-a-second window: 1 a second is 1 for the group, not 1 each",
  async () => {
    const unisat = await startSampleUpstream({ sources: { unisat: {} } });
    const cluster = await startCluster({
      BRC20_SOURCE: 'unisat',
      UNISAT_API_URL: unisat.url,
      UNISAT_RATE_LIMIT_PER_SECOND: '1',
      CLIENT_UPSTREAM_CALLS_PER_MINUTE: '0',
      // A call waits for room until its field's deadline: room for the calls at 0, 1 and 2 s.
      UPSTREAM_TIMEOUT_MS: '2500',
    });
    try {
      const answers = await Promise.all(
        tickers.slice(0, 8).map(async (ticker) => {
          const response = await cluster.get(tokenPath(ticker));
          await response.arrayBuffer();
          return response.status;
        }),
      );
      // At most one call a second for the group: three within the 2.5 s the lookups could wait (each
      // worker's own share sent three each). The lookups that could not fit were refused, nothing sent.
      expect(unisat.requests.length).toBeLessThanOrEqual(3);
      expect([answers.includes(200), answers.includes(429)]).toEqual([true, true]);
      await cluster.until(() => cluster.lines().filter((line) => line.msg === 'request').length === 8);
      const answeredBy = cluster
        .lines()
        .filter((line) => line.msg === 'request')
        .map((line) => line.pid);
      expect(new Set(answeredBy).size).toBe(2);
    } finally {
      expect(await cluster.stop()).toBe(0);
      await unisat.close();
    }
  },
  CLUSTER_TEST_MS,
);
