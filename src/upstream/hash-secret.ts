/**
 * With REDIS_URL, the secret of keyedHash is one for every worker and replica, so that one client
 * is one counter in Redis wherever its requests land (client-limits.ts). The first process to
 * reach Redis draws it and stores it (SET NX, no expiry); every other one reads it back, and each
 * puts it back whenever it reconnects to a Redis that lost it. Before that, and on a process that
 * cannot reach Redis at start, each process keeps its own secret and its clients are counted on
 * their own (the local share of client-limits.ts). Each also checks every CHECK_MS that the secret
 * is still there: a FLUSHALL, or an `allkeys-*` eviction, empties the key without a reconnect, and
 * a process started then would draw a secret of its own and count the same clients twice.
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
/** How often a process puts the secret back if Redis lost it. */
const CHECK_MS = 2_000;

export interface SharedHashSecret {
  /** Settles once the secret is shared, or START_WAIT_MS later: start-up awaits it before listening. */
  ready: Promise<void>;
  /** True once keyedHash uses the group's secret. */
  readonly shared: boolean;
  close(): void;
}

export function shareHashSecret(redis: Redis, logger: Logger, checkMs = CHECK_MS): SharedHashSecret {
  /** The group's secret as this process uses it, once shared. */
  let current: string | undefined;
  let trying = false;
  let settle: () => void = () => {};
  const ready = new Promise<void>((resolve) => (settle = resolve));
  const timer = setTimeout(() => {
    if (current === undefined) logger.warn('Redis not reached at start: client call limits count per process until it is');
    settle();
  }, START_WAIT_MS);
  timer.unref();
  // Tried each time the connection becomes ready: a Redis restarted empty gets this process's
  // secret back (SET NX), so that a process started after it draws none of its own and counts the
  // same clients under other keys; when another process put its own back first, that one is taken.
  const attempt = async () => {
    if (trying) return;
    trying = true;
    try {
      await redis.set(KEY, current ?? randomBytes(32).toString('base64'), 'NX');
      const stored = (await redis.get(KEY)) ?? '';
      if (stored === current) return;
      const secret = Buffer.from(stored, 'base64');
      if (secret.length !== 32) {
        logger.error({ key: KEY }, 'the shared hash secret in Redis is not 32 bytes: client call limits count per process');
        return;
      }
      if (current !== undefined) logger.info('the shared hash secret in Redis changed: clients are now counted under it');
      useKeyedHashSecret(secret);
      current = stored;
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
  const check = setInterval(() => {
    if (redis.status === 'ready') void attempt();
  }, checkMs);
  check.unref();
  return {
    ready,
    close: () => clearInterval(check),
    // eslint-disable-next-line no-restricted-syntax -- made once per process
    get shared() {
      return current !== undefined;
    },
  };
}
