/**
 * The options every upstream service takes from the configuration alike (hiro's services and the
 * other data sources): deadlines, pool size, answer size, retries and breaker; and the plain TTL
 * cache of a source whose answers carry no ETag.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { CachePolicy, CacheStore, ServiceOptions } from './request.js';
import type { FlightBoard } from './shared-flights.js';

export function configuredServiceOptions(
  config: Config,
  logger: Logger,
): Pick<ServiceOptions, 'timeoutMs' | 'logger' | 'connections' | 'maxResponseBytes' | 'retry'> {
  return {
    timeoutMs: config.upstreamTimeoutMs,
    logger,
    connections: config.upstreamMaxConnections,
    maxResponseBytes: config.upstreamMaxResponseBytes,
    retry: {
      retries: config.upstreamRetries,
      breakerThreshold: config.breakerThreshold,
      breakerCooldownMs: config.breakerCooldownMs,
      maxWaitMs: config.maxUpstreamWaitMs,
    },
  };
}

/**
 * A source without ETags: each answer is kept for CACHE_TTL_MS (cached answers spend no quota), and
 * with Redis one process of the group asks for a missing answer while the others wait for it.
 */
export function ttlCachePolicy(config: Config, store: CacheStore, flights?: FlightBoard): CachePolicy {
  return {
    flights,
    store,
    ttlMs: config.cacheTtlMs,
    notFoundTtlMs: config.cacheNotFoundTtlMs,
    staleIfErrorMs: config.staleIfErrorMs,
    globalEtag: false,
  };
}
