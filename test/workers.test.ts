/**
 * WORKERS=2: the process entry runs node:cluster workers that share the port (the primary
 * distributes connections round-robin), and SIGTERM drains them all and exits 0.
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

test('two workers share the port and both serve; SIGTERM exits 0', async () => {
  const port = await freePort();
  const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, WORKERS: '2', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', HIRO_API_URL: sample.url, HIRO_PLATFORM_URL: sample.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    for (let attempt = 0; attempt < 100 && (output.match(/satgate listening/g) ?? []).length < 2; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`http://127.0.0.1:${port}/ordinals/v1/brc-20/tokens/ordi`, { headers: { connection: 'close' } }).then((r) => r.status),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 20 }, () => 200));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const servedBy = new Set(
      output
        .split('\n')
        .filter((line) => line.includes('"msg":"request"'))
        .map((line) => (JSON.parse(line) as { pid: number }).pid),
    );
    expect(servedBy.size).toBe(2);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
});
