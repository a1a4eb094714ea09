/**
 * Per-client fairness across processes (CLIENT_UPSTREAM_CALLS_PER_MINUTE): the limit is one
 * client's, not one process's.
 *
 * - With Redis, every worker and replica counts a client's calls to a service in one fixed
 *   one-minute window: rate-limiter-flexible's RateLimiterRedis, one atomic Lua script (SET NX
 *   EX + INCRBY + PTTL) per call, keyed by the client's keyed hash under the group's shared
 *   secret (hash-secret.ts).
 * - Without Redis, each of the WORKERS processes enforces floor(limit / WORKERS), at least 1, in
 *   its own windows: together they never allow more than the limit (unless it is below WORKERS),
 *   and a client whose connections all reach one worker gets that worker's share.
 * - While Redis cannot answer (down, slow past REDIS_WAIT_MS, or the secret not shared yet), the
 *   process counts its share locally, as without Redis, and asks Redis again REDIS_RETRY_MS later.
 */
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { ServiceName } from '../errors.js';
import type { UpstreamEvents } from '../observe/metrics.js';
import { ClientWindows } from './guards/client-windows.js';

/** Why a client's call was refused: seconds until it may call again, and the limit that refused it. */
export interface ClientRefusal {
  retryAfter: number;
  limit: number;
}

export interface ClientCallLimiter {
  /** Counts one upstream call of `client` within `limit` a minute; a refusal when it has used them. */
  take(client: string, limit: number): ClientRefusal | undefined | Promise<ClientRefusal | undefined>;
}

const WINDOW_SECONDS = 60;
/** Longest wait for Redis's count before the local share decides: a limiter never stalls a call. */
const REDIS_WAIT_MS = 200;
/** After Redis failed to answer, the local share decides for this long. */
const REDIS_RETRY_MS = 5_000;

/** This process's share of each client's limit, in its own windows. */
export class LocalClientLimiter implements ClientCallLimiter {
  private readonly windows = new ClientWindows();

  constructor(private readonly processes: number) {}

  take(client: string, limit: number, now = Date.now()): ClientRefusal | undefined {
    const share = Math.max(1, Math.floor(limit / this.processes));
    const retryAfter = this.windows.take(client, share, now);
    return retryAfter > 0 ? { retryAfter, limit: share } : undefined;
  }
}

/** One count per client and service for the whole group, in Redis; the local share while it cannot answer. */
export class RedisClientLimiter implements ClientCallLimiter {
  private limiter: RateLimiterRedis | undefined;
  private redisDownUntil = 0;

  constructor(
    private readonly redis: Redis,
    private readonly service: ServiceName,
    /** Whether keyedHash uses the group's secret: before, this process's keys would be its own. */
    private readonly shared: () => boolean,
    private readonly local: LocalClientLimiter,
    private readonly events?: Pick<UpstreamEvents, 'redisFallback'>,
  ) {}

  take(client: string, limit: number): ClientRefusal | undefined | Promise<ClientRefusal | undefined> {
    if (!this.shared() || Date.now() < this.redisDownUntil) return this.locally(client, limit);
    return this.counted(client, limit);
  }

  private locally(client: string, limit: number): ClientRefusal | undefined {
    this.events?.redisFallback('client_calls');
    return this.local.take(client, limit);
  }

  private async counted(client: string, limit: number): Promise<ClientRefusal | undefined> {
    // The limit can change (a share of the quota the upstream advertises); the count stays.
    if (this.limiter?.points !== limit) {
      this.limiter = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `satgate:v1:client-calls:${this.service}`,
        points: limit,
        duration: WINDOW_SECONDS,
        rejectIfRedisNotReady: true,
      });
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(resolve, REDIS_WAIT_MS, 'timeout')));
    try {
      const answer = await Promise.race([this.limiter.consume(client), timedOut]);
      if (answer !== 'timeout') return undefined;
    } catch (error) {
      if (error instanceof RateLimiterRes) return { retryAfter: Math.max(1, Math.ceil(error.msBeforeNext / 1000)), limit };
    } finally {
      clearTimeout(timer);
    }
    this.redisDownUntil = Date.now() + REDIS_RETRY_MS;
    return this.locally(client, limit);
  }
}
