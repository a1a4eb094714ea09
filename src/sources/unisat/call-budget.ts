/**
 * UniSat's quota (UNISAT_RATE_LIMIT_PER_SECOND): satgate never sends more calls than the limit in
 * any sliding one-second window, (t - 1000 ms, t].
 *
 * rate-limiter-flexible, which the per-client limits use, counts fixed windows only: two bursts
 * astride a window's edge would send twice the limit within one second. So the window is a sorted
 * set of call times, trimmed and counted in one Lua script (Redis's own clock, so replicas with
 * skewed clocks share one timeline); without Redis, or while it cannot answer, each of the WORKERS
 * processes keeps floor(limit / WORKERS) (at least 1) in memory. A call that finds the window full
 * waits until its oldest call leaves it, within the call's deadline; one that cannot fit in its
 * deadline is refused at once (RATE_LIMITED with retryAfter), nothing sent.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { UpstreamError, type ServiceName } from '../../errors.js';

const WINDOW_MS = 1000;
/** Longest wait for Redis's answer before the local share decides: the budget never stalls a call. */
const REDIS_WAIT_MS = 200;
/** After Redis failed to answer, the local share decides for this long. */
const REDIS_RETRY_MS = 5_000;

/** Admits one call now (0), or says how many ms until one may be admitted. */
interface Window {
  take(): number | Promise<number>;
}

/** The last `limit` call times of this process. */
export class LocalWindow implements Window {
  private readonly times: number[] = [];

  constructor(private readonly limit: number) {}

  take(now = Date.now()): number {
    while (this.times.length > 0 && this.times[0]! <= now - WINDOW_MS) this.times.shift();
    if (this.times.length < this.limit) {
      this.times.push(now);
      return 0;
    }
    return this.times[0]! + WINDOW_MS - now;
  }
}

/** KEYS[1]: the window; ARGV: limit, window ms, a unique member. Answers 0 (admitted) or the ms to wait. */
const SLIDING_WINDOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + window - now)
`;

/** One window for every worker and replica, in Redis; the local share while Redis cannot answer. */
export class RedisWindow implements Window {
  private downUntil = 0;
  private readonly prefix = randomUUID();
  private sequence = 0;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly limit: number,
    private readonly local: LocalWindow,
  ) {}

  take(): number | Promise<number> {
    if (Date.now() < this.downUntil) return this.local.take();
    return this.counted();
  }

  private async counted(): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(resolve, REDIS_WAIT_MS, 'timeout')));
    try {
      const member = `${this.prefix}:${this.sequence++}`;
      const answer = await Promise.race([this.redis.eval(SLIDING_WINDOW, 1, this.key, this.limit, WINDOW_MS, member), timedOut]);
      if (typeof answer === 'number') return answer;
    } catch {
      // Redis is down or refused: the local share decides below.
    } finally {
      clearTimeout(timer);
    }
    this.downUntil = Date.now() + REDIS_RETRY_MS;
    return this.local.take();
  }
}

export interface CallBudgetOptions {
  /** Calls per sliding second, for the whole group. */
  perSecond: number;
  /** Processes sharing it without Redis (WORKERS). */
  workers: number;
  redis?: Redis;
  /** Names the service in refusals, and the Redis key. */
  service: ServiceName;
}

/** What ServiceOptions.beforeAttempt awaits: resolves when the call may be sent. */
export function createCallBudget({ perSecond, workers, redis, service }: CallBudgetOptions) {
  const local = new LocalWindow(Math.max(1, Math.floor(perSecond / workers)));
  const window: Window = redis ? new RedisWindow(redis, `satgate:v1:call-window:${service}`, perSecond, local) : local;
  return async (signal: AbortSignal, deadline: number): Promise<void> => {
    for (;;) {
      const waitMs = await window.take();
      if (waitMs <= 0) return;
      if (Date.now() + waitMs >= deadline) {
        throw new UpstreamError(service, 'quota', undefined, Math.max(1, Math.ceil(waitMs / 1000)), perSecond);
      }
      await sleep(waitMs, undefined, { signal });
    }
  };
}
