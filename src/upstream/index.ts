import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { configuredSecrets, type Config } from '../config.js';
import type { ServiceName } from '../errors.js';
import type { UpstreamEvents } from '../observe/metrics.js';
import { MemoryStore, RedisStore, TieredStore } from './cache.js';
import { LocalClientLimiter, RedisClientLimiter } from './client-limits.js';
import { shareHashSecret } from './hash-secret.js';
import { redisHealth } from './redis-health.js';
import { createFlightBoard } from './shared-flights.js';
import { createSharedSignals } from './shared-state.js';
import type { CachePolicy, CacheStore, ProbePath } from './request.js';
import { configuredServiceOptions } from './service-options.js';
import { UpstreamService } from './service.js';
import { createMetadataClient } from './metadata.js';
import { createOrdinalsClient } from './ordinals.js';
import { createPlatformClient } from './platform.js';
import { createRunesClient } from './runes.js';
import { HIRO_ONLY, type SourcesFactory } from './sourced.js';

/** Redis, when configured, is a cache and a signal board only: it may be down, and must never stall a request. */
function createRedis(url: URL, logger: Logger): Redis {
  const redis = new Redis(url.href, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 1000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Failures are reported by the store, once per outage; ioredis would otherwise log every retry.
  // Refused credentials are said once, apart: else they read as Redis down (its message holds no
  // password; the URL is never logged).
  let refusedLogged = false;
  redis.on('error', (error: Error) => {
    if (refusedLogged || !/^(?:WRONGPASS|NOAUTH|NOPERM)\b/.test(error.message)) return;
    refusedLogged = true;
    logger.error({ err: error.message }, 'Redis refused the credentials of REDIS_URL: serving without it');
  });
  return redis;
}

/**
 * What the gateway asks as each service's half-open probe: a lookup of an item every mainnet index
 * holds (the first BRC-20 token, the first rune), read from the tables clients' requests read, so
 * that a service whose status route answers while its data routes hang stays open; and the
 * token-metadata status, which reads its database and is the route the gateway uses. Elsewhere
 * (testnet), the lookup's 404 is an answer too. The platform's breakers are per API key, whose
 * paths carry the key: a tenant's request is its own probe.
 */
const PROBE_PATHS: Partial<Record<ServiceName, ProbePath>> = {
  metadata: { path: '/metadata/v1', route: '/metadata/v1' },
  ordinals: { path: '/ordinals/v1/brc-20/tokens/ordi', route: '/ordinals/v1/brc-20/tokens/:ticker' },
  runes: { path: '/runes/v1/etchings/1:0', route: '/runes/v1/etchings/:etching' },
};

/** One pool per upstream service, created at start and closed on shutdown. */
/**
 * `createSources` (src/sources/, handed in by main.ts: upstream/ knows no source) builds the read
 * operations whose source is not hiro; without it every operation asks hiro.
 */
export function createUpstreams(config: Config, logger: Logger, events?: UpstreamEvents, createSources?: SourcesFactory) {
  const redis = config.redisUrl ? createRedis(config.redisUrl, logger) : undefined;
  const redisStore = redis ? new RedisStore(redis, logger.child({ component: 'cache' }), events) : undefined;
  const store: CacheStore = redisStore
    ? new TieredStore(new MemoryStore(config.cacheMaxBytes), redisStore)
    : new MemoryStore(config.cacheMaxBytes);
  const shared = redis ? createSharedSignals(redis, logger) : undefined;
  const clientCalls = config.clientUpstreamCallsPerMinute;
  // A client's calls are counted for the whole group: in Redis, else a share per worker.
  const hashSecret = redis ? shareHashSecret(redis, logger) : undefined;
  const clientLimiter = (name: ServiceName) => {
    const local = new LocalClientLimiter(config.workers);
    return redis && hashSecret ? new RedisClientLimiter(redis, name, () => hashSecret.shared, local, events) : local;
  };
  const policy = (globalEtag: boolean): CachePolicy => ({
    store,
    ttlMs: config.cacheTtlMs,
    notFoundTtlMs: config.cacheNotFoundTtlMs,
    staleIfErrorMs: config.staleIfErrorMs,
    globalEtag,
  });
  // Per-client fairness guards the quota every client shares: the gateway's own (HIRO_API_KEY, a
  // source's key, or its address). Platform tenants spend their own keys' quotas.
  const fairness = (name: ServiceName) => ({
    clientCallsPerMinute: clientCalls === 0 ? undefined : (clientCalls ?? ('fair-share' as const)),
    clientLimiter: clientLimiter(name),
  });
  const service = (name: ServiceName, baseUrl: URL, cache?: CachePolicy) =>
    new UpstreamService({
      name,
      baseUrl,
      // The platform takes its key in the path: HIRO_API_KEY goes to the hiro services only.
      apiKey: name === 'platform' ? undefined : config.hiroApiKey,
      ...configuredServiceOptions(config, logger),
      cache,
      events,
      shared,
      // Each platform API key is a tenant with its own quota and devnet.
      perTenant: name === 'platform',
      // The platform's devnet node may answer anything; the others answer JSON only.
      ...(name === 'platform' ? {} : { answersJson: true, ...fairness(name) }),
      probe: PROBE_PATHS[name],
    });
  const services = [
    service('metadata', config.metadataUrl, policy(false)),
    // The ordinals and runes ETags are global: one per index state, shared by every route.
    service('ordinals', config.ordinalsUrl, policy(true)),
    service('runes', config.runesUrl, policy(true)),
    // Platform answers are per key and change under the user (devnet, chainhooks): never cached.
    service('platform', config.platformUrl),
  ] as const;
  const [metadata, ordinals, runes, platform] = services;
  const secrets = configuredSecrets(config);
  // Per-tenant state stays in each process: only service-wide signals are shared.
  shared?.start(services.flatMap(({ signalKeys, guards }) => (guards ? [{ keys: signalKeys, ...guards }] : [])));
  // Where each read operation takes its data when not from hiro (src/sources/).
  // Sources count calls by the second: their identical misses are joined across the group too.
  const flights = redis ? createFlightBoard(redis) : undefined;
  const sources = createSources?.({ store, redis, flights, fairness }) ?? HIRO_ONLY;
  return {
    metadata: createMetadataClient(metadata),
    ordinals: createOrdinalsClient(ordinals, { listLookups: config.brc20ListLookups }),
    runes: createRunesClient(runes),
    platform: createPlatformClient(platform, secrets),
    /** Every credential the gateway holds (configuredSecrets): no upstream's error may quote one. */
    secrets,
    sources,
    store,
    services,
    /** With REDIS_URL: whether Redis is in use now (/readyz, satgate_redis_up); undefined without it. */
    redisHealth: redis && redisStore ? () => redisHealth(redis, redisStore) : undefined,
    /** UPSTREAM_TIMEOUT_MS: what one field may wait on the upstream, all its calls together. */
    timeoutMs: config.upstreamTimeoutMs,
    /** Settles once clients are hashed alike in every process of the group (bounded): await before serving. */
    ready: hashSecret?.ready ?? Promise.resolve(),
    async close() {
      shared?.stop();
      hashSecret?.close();
      flights?.close();
      await Promise.all([...services.map((s) => s.close()), sources.close()]);
      await store.close();
    },
  };
}
export type Upstreams = ReturnType<typeof createUpstreams>;
