/**
 * With REDIS_URL, the secret of keyedHash is one for every worker and replica, so that one client
 * is one counter in Redis wherever its requests land (client-limits.ts). The first process to
 * reach Redis draws it and stores it (SET NX, no expiry); every other one reads it back. Before
 * that, and on a process that cannot reach Redis at start, each process keeps its own secret and
 * its clients are counted on their own (the local share of client-limits.ts).
 *
 * The trade-off: who can read Redis can also read this secret, and so test guesses of addresses
 * against the counters' keys (each lives one minute). Addresses themselves never reach Redis.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { useKeyedHashSecret } from '../lib/keyed-hash.js';

const KEY = 'satgate:v1:hash-secret';
/** How long start-up waits for Redis before it serves with a secret of its own. */
const START_WAIT_MS = 2_000;

export interface SharedHashSecret {
  /** Settles once the secret is shared, or START_WAIT_MS later: start-up awaits it before listening. */
  ready: Promise<void>;
  /** True once keyedHash uses the group's secret. */
  readonly shared: boolean;
}

export function shareHashSecret(redis: Redis, logger: Logger): SharedHashSecret {
  let shared = false;
  let trying = false;
  let settle: () => void = () => {};
  const ready = new Promise<void>((resolve) => (settle = resolve));
  const timer = setTimeout(() => {
    if (!shared) logger.warn('Redis not reached at start: client call limits count per process until it is');
    settle();
  }, START_WAIT_MS);
  timer.unref();
  // Tried each time the connection becomes ready, until it worked once.
  const attempt = async () => {
    if (shared || trying) return;
    trying = true;
    try {
      await redis.set(KEY, randomBytes(32).toString('base64'), 'NX');
      const secret = Buffer.from((await redis.get(KEY)) ?? '', 'base64');
      if (secret.length !== 32) {
        logger.error({ key: KEY }, 'the shared hash secret in Redis is not 32 bytes: client call limits count per process');
        return;
      }
      useKeyedHashSecret(secret);
      shared = true;
      redis.off('ready', attempt);
      clearTimeout(timer);
      settle();
    } catch {
      // Redis went away again: the next 'ready' tries again.
    } finally {
      trying = false;
    }
  };
  redis.on('ready', attempt);
  if (redis.status === 'ready') void attempt();
  return {
    ready,
    // eslint-disable-next-line no-restricted-syntax -- made once per process
    get shared() {
      return shared;
    },
  };
}
