/**
 * WORKERS=2: the process entry runs node:cluster workers that share the port (the primary
 * distributes connections round-robin); /metrics answers for the whole group; a worker that dies
 * is replaced, said in a log line like every other; SIGTERM drains them all and exits 0.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSampleUpstream, type SampleUpstream } from '../src/sample/server.js';
import { freePort } from './harness.js';

let sample: SampleUpstream;
beforeAll(async () => {
  sample = await startSampleUpstream();
});
afterAll(() => sample.close());

test('two workers share the port, /metrics sums them, a dead worker is replaced; SIGTERM exits 0', async () => {
  const port = await freePort();
  const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, WORKERS: '2', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', LOG_FORMAT: 'json', HIRO_API_URL: sample.url, HIRO_PLATFORM_URL: sample.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const lines = () => stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  const listening = () => lines().filter((line) => line.msg === 'satgate listening');
  const until = async (done: () => boolean) => {
    for (let attempt = 0; attempt < 200 && !done(); attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  // A new connection each time: round-robin gives consecutive ones to different workers.
  const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`, { headers: { connection: 'close' } });
  try {
    await until(() => listening().length === 2);
    const answers = await Promise.all(Array.from({ length: 20 }, () => get('/ordinals/v1/brc-20/tokens/ordi').then((r) => r.status)));
    expect(answers).toEqual(Array.from({ length: 20 }, () => 200));
    await until(() => lines().filter((line) => line.msg === 'request').length === 20);
    const servedBy = new Set(lines().filter((line) => line.msg === 'request').map((line) => line.pid));
    expect(servedBy.size).toBe(2);

    // Whichever worker answers the scrape, it reports the whole group: 20 requests, not its share.
    const scrapes = await Promise.all([get('/metrics'), get('/metrics')].map(async (r) => (await r).text()));
    const series = (text: string) => text.split('\n').filter((line) => /^satgate_(rest_request_duration_seconds_count|upstream_breaker_state)\{/.test(line));
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
    await until(() => listening().length === 3);
    const { time, pid, ...crash } = lines().find((line) => line.msg === 'worker exited; starting another') ?? {};
    expect([typeof time, pid === child.pid, crash]).toEqual([
      'string',
      true,
      { level: 'error', app: 'satgate', worker: victim, code: null, signal: 'SIGKILL', msg: 'worker exited; starting another' },
    ]);
    expect((await get('/healthz')).status).toBe(200);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  expect(stderr).toBe('');
});
