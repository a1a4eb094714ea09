import { availableParallelism } from 'node:os';

/**
 * The gateway's configuration: a pure function of the environment, validated once at start-up.
 * Every variable is documented in README.md ("Configuration"); names follow CONTRACT.md.
 */

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface Config {
  port: number;
  host: string;
  /** Base URLs (origin plus optional path prefix, no trailing slash). */
  metadataUrl: URL;
  ordinalsUrl: URL;
  runesUrl: URL;
  platformUrl: URL;
  /** Sent as x-api-key to the hiro services only. */
  hiroApiKey: string | undefined;
  upstreamTimeoutMs: number;
  logLevel: LogLevel;
  /** Freshness window of a cached upstream answer; 0 revalidates every time. */
  cacheTtlMs: number;
  /** Freshness window of a cached 404. */
  cacheNotFoundTtlMs: number;
  /** Bound of the in-process cache (LRU by bytes). */
  cacheMaxBytes: number;
  /** When set, the cache lives in Redis and is shared by every worker and replica. */
  redisUrl: URL | undefined;
  /** node:cluster workers sharing the port; `auto` is one per core. */
  workers: number;
  /** How long past freshness a cached answer may still be served when the upstream fails. */
  staleIfErrorMs: number;
  /** Extra attempts for idempotent upstream GETs. */
  upstreamRetries: number;
  /** Connections per upstream service; requests beyond them queue. */
  upstreamMaxConnections: number;
  /** Consecutive upstream failures that open a service's circuit breaker. */
  breakerThreshold: number;
  /** How long an open breaker fails fast before it lets one probe through. */
  breakerCooldownMs: number;
  /** Distinct upstream lookups one GraphQL request may cause. */
  maxUpstreamCallsPerRequest: number;
  /** Upstream lookups of one GraphQL request in flight at once. */
  maxConcurrentUpstreamCallsPerRequest: number;
  /** The whole time the server gives one client request: receiving it, and answering a GraphQL one. */
  requestTimeoutMs: number;
  /** How long SIGTERM waits for in-flight requests before closing their connections. */
  shutdownTimeoutMs: number;
  /** Query shape limits, checked before anything executes. */
  maxQueryTokens: number;
  maxQueryDepth: number;
  maxAliases: number;
  maxDirectives: number;
  /** 10 per upstream call plus 1 per page item a query may return. */
  maxQueryCost: number;
  /** A bound on the field comparisons graphql-js's validation makes (quadratic in repeated fields). */
  maxQueryComparisons: number;
  maxBodyBytes: number;
  /** Bytes of parsed documents (and parse errors) kept, and of automatic persisted queries kept. */
  documentCacheMaxBytes: number;
  apqCacheMaxBytes: number;
  /** Largest upstream answer read; a bigger one is an upstream error. */
  upstreamMaxResponseBytes: number;
  /** Allowed browser origins: `*` or a list. */
  corsOrigins: string[];
  /** When set, only the documents in this JSON file (`{ "<id>": "<document>" }`) run. */
  persistedOperations: string | undefined;
  /** GraphQL batching (several operations in one request): 0 is off. */
  batchLimit: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/** An empty variable counts as unset. */
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function baseUrl(env: Env, name: string, fallback: string): URL {
  const raw = read(env, name) ?? fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must use http or https, got "${url.protocol}"`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`${name} must be a base URL without query, fragment or credentials`);
  }
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

export function loadConfig(env: Env): Config {
  const hiroApiUrl = read(env, 'HIRO_API_URL') ?? 'https://api.hiro.so';
  const hiro = baseUrl(env, 'HIRO_API_URL', hiroApiUrl);
  const logLevel = (read(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel as LogLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  return {
    port: integer(env, 'PORT', 4000, 0, 65535),
    host: read(env, 'HOST') ?? '0.0.0.0',
    metadataUrl: baseUrl(env, 'METADATA_API_URL', hiro.href),
    ordinalsUrl: baseUrl(env, 'ORDINALS_API_URL', hiro.href),
    runesUrl: baseUrl(env, 'RUNES_API_URL', hiro.href),
    platformUrl: baseUrl(env, 'HIRO_PLATFORM_URL', 'https://api.platform.hiro.so'),
    hiroApiKey: read(env, 'HIRO_API_KEY'),
    upstreamTimeoutMs: integer(env, 'UPSTREAM_TIMEOUT_MS', 10_000, 1, 600_000),
    logLevel: logLevel as LogLevel,
    cacheTtlMs: integer(env, 'CACHE_TTL_MS', 1000, 0, 86_400_000),
    cacheNotFoundTtlMs: integer(env, 'CACHE_NOT_FOUND_TTL_MS', 1000, 0, 86_400_000),
    cacheMaxBytes: integer(env, 'CACHE_MAX_BYTES', 64 * 1024 * 1024, 0, 2 ** 40),
    redisUrl: redisUrl(env),
    workers: workers(env),
    staleIfErrorMs: integer(env, 'STALE_IF_ERROR_MS', 300_000, 0, 86_400_000),
    upstreamRetries: integer(env, 'UPSTREAM_RETRIES', 2, 0, 10),
    upstreamMaxConnections: integer(env, 'UPSTREAM_MAX_CONNECTIONS', 64, 1, 10_000),
    breakerThreshold: integer(env, 'BREAKER_THRESHOLD', 5, 1, 1000),
    breakerCooldownMs: integer(env, 'BREAKER_COOLDOWN_MS', 5_000, 1, 600_000),
    maxUpstreamCallsPerRequest: integer(env, 'MAX_UPSTREAM_CALLS_PER_REQUEST', 50, 1, 10_000),
    maxConcurrentUpstreamCallsPerRequest: integer(env, 'MAX_CONCURRENT_UPSTREAM_CALLS_PER_REQUEST', 20, 1, 1000),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1_000, 600_000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    maxQueryTokens: integer(env, 'MAX_QUERY_TOKENS', 2_000, 50, 1_000_000),
    maxQueryDepth: integer(env, 'MAX_QUERY_DEPTH', 8, 2, 100),
    maxAliases: integer(env, 'MAX_ALIASES', 30, 0, 10_000),
    maxDirectives: integer(env, 'MAX_DIRECTIVES', 10, 0, 10_000),
    maxQueryCost: integer(env, 'MAX_QUERY_COST', 1_000, 10, 1_000_000),
    maxQueryComparisons: integer(env, 'MAX_QUERY_COMPARISONS', 10_000, 100, 100_000_000),
    maxBodyBytes: integer(env, 'MAX_BODY_BYTES', 100 * 1024, 1024, 100 * 1024 * 1024),
    documentCacheMaxBytes: integer(env, 'DOCUMENT_CACHE_MAX_BYTES', 32 * 1024 * 1024, 0, 2 ** 40),
    apqCacheMaxBytes: integer(env, 'APQ_CACHE_MAX_BYTES', 8 * 1024 * 1024, 0, 2 ** 40),
    upstreamMaxResponseBytes: integer(env, 'UPSTREAM_MAX_RESPONSE_BYTES', 10 * 1024 * 1024, 1024, 2 ** 31),
    corsOrigins: corsOrigins(env),
    persistedOperations: read(env, 'PERSISTED_OPERATIONS'),
    batchLimit: integer(env, 'GRAPHQL_BATCH_LIMIT', 0, 0, 100),
  };
}

function redisUrl(env: Env): URL | undefined {
  const raw = read(env, 'REDIS_URL');
  if (raw === undefined) return undefined;
  try {
    const url = new URL(raw);
    if (url.protocol === 'redis:' || url.protocol === 'rediss:') return url;
  } catch {
    // reported below
  }
  throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL');
}

function workers(env: Env): number {
  if (read(env, 'WORKERS')?.toLowerCase() === 'auto') return availableParallelism();
  return integer(env, 'WORKERS', 1, 1, 256);
}

function corsOrigins(env: Env): string[] {
  const origins = (read(env, 'CORS_ORIGINS') ?? '*').split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of origins) {
    if (origin !== '*' && !/^https?:\/\/[a-z0-9.-]+(:\d+)?$/i.test(origin)) {
      throw new ConfigError(`CORS_ORIGINS must be * or a comma-separated list of origins like https://app.example, got "${origin}"`);
    }
  }
  return origins;
}
