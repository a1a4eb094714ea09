/**
 * /metrics of a node:cluster group while its workers come and go (src/observe/cluster-metrics.ts),
 * on a group of four plain workers (cluster-metrics-group.ts): a worker's counts are summed once,
 * whether it exits after answering a collection, during one, or after asking for one; the primary
 * never waits out its timeout for a worker that is gone, and warns of nothing.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

test('a group whose workers exit around collections sums each once, at once, and the primary lives on', async () => {
  const group = fileURLToPath(new URL('./cluster-metrics-group.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', group], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const { exitedOnCollectMs, ...sums } = JSON.parse(stdout) as Record<string, unknown>;
  expect([code, stderr, sums]).toEqual([
    0,
    '',
    {
      baseline: 16,
      // It was 26, then 16: a reset to Prometheus.
      answeredThenExited: [16, 16],
      exitedOnCollect: 16,
      concurrent: Array.from({ length: 12 }, () => 16),
      afterAsker: 16,
    },
  ]);
  // Not the primary's 5 s wait for an answer (COLLECT_TIMEOUT_MS): the worker's exit ends it.
  expect(exitedOnCollectMs).toBeLessThan(5_000);
}, 30_000);
