/**
 * Whether Redis is in use, for /readyz and satgate_redis_up. The gateway keeps serving without it
 * (local caches, counts and windows), so an outage showed in one log line only. Redis is
 * `unavailable` while the connection is not up (refused, closed, reconnecting) or while the cache
 * skips it after a command failed on an open connection (a hung or out-of-memory Redis: it takes
 * commands and answers none, or refuses writes), until its probe write succeeds.
 */
import type { RedisLike, RedisStore } from './cache.js';

export type RedisHealth = { status: 'ready' } | { status: 'unavailable'; reason: 'disconnected' | 'failing' };

export function redisHealth(redis: Pick<RedisLike, 'status'>, store: Pick<RedisStore, 'isSkipping'>): RedisHealth {
  if (redis.status !== 'ready') return { status: 'unavailable', reason: 'disconnected' };
  if (store.isSkipping()) return { status: 'unavailable', reason: 'failing' };
  return { status: 'ready' };
}
