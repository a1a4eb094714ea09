/** A real redis-server on a given port, for the suites that share state through Redis. */
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';

export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await probe.connect();
      await probe.ping();
      probe.disconnect();
      return child;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error('redis-server did not start');
}

export async function stopRedis(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // SIGKILL ends a paused (SIGSTOP) server too.
  child.kill('SIGKILL');
  await exited;
}

/**
 * Freezes redis-server (SIGSTOP), as a hung host: its connections stay open and take commands,
 * but nothing is answered, so every command waits for the client's command timeout.
 */
export function pauseRedis(child: ChildProcess): void {
  child.kill('SIGSTOP');
}

/** Lets a paused redis-server run again (SIGCONT); harmless when it is not paused. */
export function resumeRedis(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGCONT');
}

/**
 * Waits until a gateway stores its answers in Redis: it listens before its Redis connection is up,
 * and until then an answer is kept in process only. `ask(n)` makes it fetch the n-th new answer.
 */
export async function untilStoring(redis: Redis, ask: (n: number) => Promise<unknown>, timeoutMs = 10_000): Promise<void> {
  const before = await redis.dbsize();
  const deadline = Date.now() + timeoutMs;
  for (let n = 0; Date.now() < deadline; n++) {
    await ask(n);
    // Writes are not awaited by the request: give this one a moment to land.
    for (let check = 0; check < 5; check++) {
      if ((await redis.dbsize()) > before) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  throw new Error('the gateway did not store an answer in Redis');
}

/** A new upstream answer for each `n` (a page of transfers), for untilStoring. */
export const newPage = (n: number) => `{ transfers(block: 800000, offset: ${n}) { total } }`;
