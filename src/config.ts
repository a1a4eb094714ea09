import { availableParallelism } from 'node:os';
import type { ServiceName } from './errors.js';

/**
 * The gateway's configuration: a pure function of the environment, validated once at start-up.
 * Every variable is documented in docs/configuration.md; the names are public (docs/contract.md).
 */

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export type LogFormat = 'json' | 'pretty';
/** `auto`: served unless only persisted operations run (GraphiQL could not send its own documents). */
export type GraphiQLMode = 'auto' | 'on' | 'off';

/**
 * `on`: a document is compiled by graphql-jit from its second sighting; `off`: every operation runs
 * on graphql-js; `eager`: compiled from its first, without the per-client compile budget (to check
 * the two executors against each other, not for production).
 */
export type CompiledExecutionMode = 'on' | 'off' | 'eager';
/**
 * The services whose health is the gateway's: the platform's breakers are per API key, and one
 * tenant's devnet must never make the gateway unready for everyone.
 */
const SHARED_SERVICES: readonly ServiceName[] = ['metadata', 'ordinals', 'runes'];
/** OTEL_TRACES_SAMPLER's values (the OpenTelemetry specification's built-in samplers). */
const SAMPLERS = [
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
  'always_on',
  'always_off',
  'traceidratio',
] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/** OpenTelemetry trace export over OTLP/HTTP, from the standard OTEL_* variables. */
export interface TracingConfig {
  /** Where spans are POSTed: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`. */
  url: string;
  /** OTEL_SERVICE_NAME; undefined: `service.name` from OTEL_RESOURCE_ATTRIBUTES, else `satgate`. */
  serviceName: string | undefined;
  sampler: SamplerName;
  /** OTEL_TRACES_SAMPLER_ARG: the ratio of the `traceidratio` samplers. */
  samplerRatio: number;
  /** TRACE_CLIENT_SAMPLING: whether a client's `traceparent` sampled flag decides (`follow`) or not (`ignore`). */
  clientSampling: 'ignore' | 'follow';
}

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
  /**
   * `auto`: batch brc20Token lookups without holders through the BRC-20 token list while the
   * ordinals upstream serves it (an optional route); `off`: always ask each token's own route.
   */
  brc20ListLookups: 'auto' | 'off';
  upstreamTimeoutMs: number;
  logLevel: LogLevel;
  /** `json` lines for machines, `pretty` for a human at a terminal. */
  logFormat: LogFormat;
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
  /** The longest wait learnt from an upstream (Retry-After, ratelimit-reset) that is honoured. */
  maxUpstreamWaitMs: number;
  /** Upstream answer bytes one GraphQL request may use. */
  maxResponseBytesPerRequest: number;
  /**
   * Upstream calls one client may cause per minute at each hiro service: undefined is 20% of the
   * known quota, 0 no limit. Per client, not per process: counted in Redis when set, else each
   * worker allows floor(limit / workers), at least 1 (upstream/client-limits.ts).
   */
  clientUpstreamCallsPerMinute: number | undefined;
  /** Proxies in front of satgate whose X-Forwarded-For is believed: 0 (off) or a hop count. */
  trustProxy: number;
  /** Distinct upstream lookups one GraphQL request may cause. */
  maxUpstreamCallsPerRequest: number;
  /** Upstream lookups of one GraphQL request in flight at once. */
  maxConcurrentUpstreamCallsPerRequest: number;
  /** The whole time the server gives one client request: receiving it, and answering a GraphQL one. */
  requestTimeoutMs: number;
  /** How long SIGTERM waits for in-flight requests before closing their connections. */
  shutdownTimeoutMs: number;
  /** On SIGTERM, how long requests are still served, /readyz 503, before the drain starts. */
  shutdownDelayMs: number;
  /** Query shape limits, checked before anything executes. */
  maxQueryTokens: number;
  maxQueryDepth: number;
  maxAliases: number;
  maxDirectives: number;
  /** 10 per upstream call plus 1 per page item a query may return. */
  maxQueryCost: number;
  /** A bound on the field comparisons graphql-js's validation makes (quadratic in repeated fields). */
  maxQueryComparisons: number;
  /** MAX_RESULT_FIELDS: fields one operation's result may hold (limits/measure.ts). */
  maxResultFields: number;
  maxBodyBytes: number;
  /** Bytes of parsed documents (and parse errors) kept, and of automatic persisted queries kept. */
  documentCacheMaxBytes: number;
  apqCacheMaxBytes: number;
  compiledExecution: CompiledExecutionMode;
  /** Whole GraphQL results kept and answered on node:http ahead of yoga (src/server/response-cache.ts). */
  responseCache: 'on' | 'off';
  responseCacheMaxBytes: number;
  /** Largest upstream answer read; a bigger one is an upstream error. */
  upstreamMaxResponseBytes: number;
  /** Allowed browser origins: `*` or a list. */
  corsOrigins: string[];
  /** Request headers a browser on an allowed origin may send (lower case): its preflight's answer. */
  corsAllowedHeaders: string[];
  /** When set, only the documents in this JSON file (`{ "<id>": "<document>" }`) run. */
  persistedOperations: string | undefined;
  /** GraphQL batching (several operations in one request): 0 is off. */
  batchLimit: number;
  graphiql: GraphiQLMode;
  /** Services whose circuit breaker must be closed for /readyz to answer 200. */
  readyzRequireUpstream: ServiceName[];
  /** How often a watched upstream resource is re-asked (with If-None-Match). */
  livePollIntervalMs: number;
  /** The most of the upstream's known rate limit that polling may use; intervals stretch past it, per client (live/poll-shares.ts). */
  liveQuotaShare: number;
  /** The upstream's rate limit per minute that polling plans with; 0 when unknown (no stretching). */
  liveRateLimitPerMinute: number;
  /** Active subscriptions per process. */
  maxSubscriptions: number;
  /** Active subscriptions per WebSocket connection. */
  maxSubscriptionsPerConnection: number;
  /** Active subscriptions (SSE and WebSocket together) per client, keyed as the fairness windows are. */
  maxSubscriptionsPerClient: number;
  /** Distinct upstream resources one client's subscriptions may watch at once. */
  maxWatchedResourcesPerClient: number;
  /** Open WebSocket connections per client; past it the upgrade is answered 429. */
  maxWebSocketsPerClient: number;
  /** Open WebSocket connections per process, every client together; past it the upgrade is answered 503. */
  maxWebSockets: number;
  /** Subscriptions one client may start in a minute (a window that opens with its first), held or not. */
  subscriptionStartsPerClientPerMinute: number;
  /** Span export: on when an OTLP endpoint is set (and OTEL_SDK_DISABLED is not `true`). */
  tracing: TracingConfig | undefined;
  /** Where each read operation takes its data from (docs/sources.md). */
  sources: SourcesConfig;
}

export type SourceName = 'hiro' | 'unisat' | 'ord';

export interface SourcesConfig {
  brc20: 'hiro' | 'unisat';
  transfers: 'hiro' | 'unisat';
  etchings: 'hiro' | 'unisat' | 'ord';
  unisatUrl: URL;
  /** Sent as `Authorization: Bearer` to UniSat only. */
  unisatApiKey: string | undefined;
  /** UniSat calls in any sliding one-second window, across every worker and replica. */
  unisatRatePerSecond: number;
  /** Required when a source is `ord`. */
  ordUrl: URL | undefined;
  /** `user:password` for an ord server behind basic auth. */
  ordAuth: string | undefined;
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

/**
 * A key sent in a header: printable ASCII without spaces, or the start stops here. undici refuses
 * a header value with a control character at every call, which showed as the service being down.
 * Never echoed.
 */
function apiKey(env: Env, name: string): string | undefined {
  const key = read(env, name);
  if (key !== undefined && !/^[\x21-\x7e]+$/.test(key)) {
    throw new ConfigError(`${name} must be printable ASCII without spaces (the value is not shown: it is a secret)`);
  }
  return key;
}

/**
 * `, got "<scheme and host>"` for an error about a URL that does not parse: never its path, query
 * or fragment (a provider's token may ride there), and nothing where it may hold credentials (`@`).
 */
function echoUnlessCredentials(value: string): string {
  if (value.includes('@')) return '';
  const shown = /^(?:[^:/?#]*:\/\/)?[^/?#]*/.exec(value)![0];
  return `, got "${shown}${shown.length < value.length ? '…' : ''}"`;
}

function baseUrl(env: Env, name: string, fallback: string): URL {
  const raw = read(env, name) ?? fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL${echoUnlessCredentials(raw)}`);
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

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
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
  const configuredSources = sources(env);
  return {
    port: integer(env, 'PORT', 4000, 0, 65535),
    host: read(env, 'HOST') ?? '0.0.0.0',
    metadataUrl: baseUrl(env, 'METADATA_API_URL', hiro.href),
    ordinalsUrl: baseUrl(env, 'ORDINALS_API_URL', hiro.href),
    runesUrl: baseUrl(env, 'RUNES_API_URL', hiro.href),
    platformUrl: baseUrl(env, 'HIRO_PLATFORM_URL', 'https://api.platform.hiro.so'),
    hiroApiKey: apiKey(env, 'HIRO_API_KEY'),
    brc20ListLookups: oneOf(env, 'BRC20_LIST_LOOKUPS', ['auto', 'off'] as const, 'auto'),
    upstreamTimeoutMs: integer(env, 'UPSTREAM_TIMEOUT_MS', 10_000, 1, 600_000),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: oneOf(env, 'LOG_FORMAT', ['json', 'pretty'], 'json'),
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
    maxUpstreamWaitMs: integer(env, 'MAX_UPSTREAM_WAIT_MS', 900_000, 1_000, 86_400_000),
    maxResponseBytesPerRequest: integer(env, 'MAX_RESPONSE_BYTES_PER_REQUEST', 16 * 1024 * 1024, 1024, 2 ** 32),
    clientUpstreamCallsPerMinute:
      read(env, 'CLIENT_UPSTREAM_CALLS_PER_MINUTE') === undefined
        ? undefined
        : integer(env, 'CLIENT_UPSTREAM_CALLS_PER_MINUTE', 0, 0, 1_000_000),
    trustProxy: trustProxy(env),
    maxUpstreamCallsPerRequest: integer(env, 'MAX_UPSTREAM_CALLS_PER_REQUEST', 50, 1, 10_000),
    maxConcurrentUpstreamCallsPerRequest: integer(env, 'MAX_CONCURRENT_UPSTREAM_CALLS_PER_REQUEST', 20, 1, 1000),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1_000, 600_000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    shutdownDelayMs: integer(env, 'SHUTDOWN_DELAY_MS', 0, 0, 600_000),
    maxQueryTokens: integer(env, 'MAX_QUERY_TOKENS', 2_000, 50, 1_000_000),
    maxQueryDepth: integer(env, 'MAX_QUERY_DEPTH', 8, 2, 100),
    maxAliases: integer(env, 'MAX_ALIASES', 30, 0, 10_000),
    maxDirectives: integer(env, 'MAX_DIRECTIVES', 10, 0, 10_000),
    maxQueryCost: integer(env, 'MAX_QUERY_COST', 1_000, 10, 1_000_000),
    maxQueryComparisons: integer(env, 'MAX_QUERY_COMPARISONS', 10_000, 100, 100_000_000),
    maxResultFields: integer(env, 'MAX_RESULT_FIELDS', 50_000, 100, 100_000_000),
    maxBodyBytes: integer(env, 'MAX_BODY_BYTES', 100 * 1024, 1024, 100 * 1024 * 1024),
    documentCacheMaxBytes: integer(env, 'DOCUMENT_CACHE_MAX_BYTES', 32 * 1024 * 1024, 0, 2 ** 40),
    apqCacheMaxBytes: integer(env, 'APQ_CACHE_MAX_BYTES', 8 * 1024 * 1024, 0, 2 ** 40),
    compiledExecution: oneOf(env, 'COMPILED_EXECUTION', ['on', 'off', 'eager'], 'on'),
    responseCache: oneOf(env, 'RESPONSE_CACHE', ['on', 'off'], 'on'),
    responseCacheMaxBytes: integer(env, 'RESPONSE_CACHE_MAX_BYTES', 32 * 1024 * 1024, 0, 2 ** 40),
    upstreamMaxResponseBytes: integer(env, 'UPSTREAM_MAX_RESPONSE_BYTES', 10 * 1024 * 1024, 1024, 2 ** 31),
    corsOrigins: corsOrigins(env),
    corsAllowedHeaders: corsAllowedHeaders(env),
    persistedOperations: read(env, 'PERSISTED_OPERATIONS'),
    batchLimit: integer(env, 'GRAPHQL_BATCH_LIMIT', 0, 0, 100),
    graphiql: oneOf(env, 'GRAPHIQL', ['auto', 'on', 'off'], 'auto'),
    livePollIntervalMs: integer(env, 'LIVE_POLL_INTERVAL_MS', 5_000, 10, 3_600_000),
    liveQuotaShare: fraction(env, 'LIVE_QUOTA_SHARE', 0.2),
    // Hiro's documented limits: 500 requests a minute with a key, 50 without.
    liveRateLimitPerMinute: integer(env, 'LIVE_RATE_LIMIT_PER_MINUTE', read(env, 'HIRO_API_KEY') ? 500 : 50, 0, 1_000_000),
    maxSubscriptions: integer(env, 'MAX_SUBSCRIPTIONS', 10_000, 0, 1_000_000),
    maxSubscriptionsPerConnection: integer(env, 'MAX_SUBSCRIPTIONS_PER_CONNECTION', 100, 1, 10_000),
    // Per client (an address, or a /64): room for a NAT of browsers, a small share of the process.
    maxSubscriptionsPerClient: integer(env, 'MAX_SUBSCRIPTIONS_PER_CLIENT', 100, 1, 1_000_000),
    maxWatchedResourcesPerClient: integer(env, 'MAX_WATCHED_RESOURCES_PER_CLIENT', 50, 1, 1_000_000),
    maxWebSocketsPerClient: integer(env, 'MAX_WEBSOCKETS_PER_CLIENT', 20, 1, 1_000_000),
    maxWebSockets: integer(env, 'MAX_WEBSOCKETS', 10_000, 1, 1_000_000),
    subscriptionStartsPerClientPerMinute: integer(env, 'SUBSCRIPTION_STARTS_PER_CLIENT_PER_MINUTE', 60, 1, 1_000_000),
    tracing: tracing(env),
    sources: configuredSources,
    // A data source may be required too, once an operation uses it.
    readyzRequireUpstream: serviceList(env, 'READYZ_REQUIRE_UPSTREAM', [...SHARED_SERVICES, ...sourcesInUse(configuredSources)]),
  };
}

/** The data sources other than hiro that some read operation uses. */
function sourcesInUse({ brc20, transfers, etchings }: SourcesConfig): ServiceName[] {
  return [...new Set([brc20, transfers, etchings])].filter((name): name is 'unisat' | 'ord' => name !== 'hiro');
}

/** The data sources: one per read operation, and what each needs to be reached. */
function sources(env: Env): SourcesConfig {
  const brc20 = oneOf(env, 'BRC20_SOURCE', ['hiro', 'unisat'] as const, 'hiro');
  const transfers = oneOf(env, 'TRANSFERS_SOURCE', ['hiro', 'unisat'] as const, 'hiro');
  const etchings = oneOf(env, 'ETCHINGS_SOURCE', ['hiro', 'unisat', 'ord'] as const, 'hiro');
  const ordRaw = read(env, 'ORD_API_URL');
  if (etchings === 'ord' && ordRaw === undefined) throw new ConfigError('ORD_API_URL must be set when a source is ord');
  const ordAuth = read(env, 'ORD_API_AUTH');
  // Not echoed: it is a password.
  if (ordAuth !== undefined && !/^[^:]+:/.test(ordAuth)) throw new ConfigError('ORD_API_AUTH must be user:password');
  return {
    brc20,
    transfers,
    etchings,
    unisatUrl: baseUrl(env, 'UNISAT_API_URL', 'https://open-api.unisat.io'),
    unisatApiKey: apiKey(env, 'UNISAT_API_KEY'),
    unisatRatePerSecond: integer(env, 'UNISAT_RATE_LIMIT_PER_SECOND', 5, 1, 10_000),
    ordUrl: ordRaw === undefined ? undefined : baseUrl(env, 'ORD_API_URL', ordRaw),
    ordAuth,
  };
}

/**
 * The OpenTelemetry variables, read as the specification says: the traces endpoint is used as
 * given, the general one gets `/v1/traces` appended; either turns export on.
 */
function tracing(env: Env): TracingConfig | undefined {
  const sampler = oneOf(env, 'OTEL_TRACES_SAMPLER', SAMPLERS, 'parentbased_always_on');
  const ratio = read(env, 'OTEL_TRACES_SAMPLER_ARG');
  if (ratio !== undefined && !(/^(\d+\.?\d*|\.\d+)$/.test(ratio) && Number(ratio) <= 1)) {
    throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "${ratio}"`);
  }
  const clientSampling = oneOf(env, 'TRACE_CLIENT_SAMPLING', ['ignore', 'follow'], 'ignore');
  const disabled = oneOf(env, 'OTEL_SDK_DISABLED', ['false', 'true'], 'false') === 'true';
  const traces = read(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const general = read(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const url =
    traces !== undefined
      ? otlpUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', traces)
      : general !== undefined
        ? otlpUrl('OTEL_EXPORTER_OTLP_ENDPOINT', general.replace(/\/*$/, '/v1/traces'))
        : undefined;
  if (url === undefined || disabled) return undefined;
  return {
    url,
    serviceName: read(env, 'OTEL_SERVICE_NAME'),
    sampler,
    samplerRatio: ratio === undefined ? 1 : Number(ratio),
    clientSampling,
  };
}

/** Not echoed when malformed: a collector's URL may carry credentials. */
function otlpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must use http or https, got "${url.protocol}"`);
  return url.href;
}

/** A share in (0, 1]. */
function fraction(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^(0?\.\d+|1(\.0*)?|0)$/.test(raw) || Number(raw) <= 0) {
    throw new ConfigError(`${name} must be a number above 0 and at most 1, got "${raw}"`);
  }
  return Number(raw);
}

/** One of a few words, case-insensitive. */
function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = (read(env, name) ?? fallback).toLowerCase();
  if (!allowed.includes(value as T)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

/** A comma-separated list of shared upstream service names, each at most once. */
function serviceList(env: Env, name: string, allowed: readonly ServiceName[]): ServiceName[] {
  const names = (read(env, name) ?? '')
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean);
  for (const service of names) {
    if (!allowed.includes(service as ServiceName)) {
      throw new ConfigError(`${name} must be a comma-separated list of ${allowed.join(', ')}, got "${service}"`);
    }
  }
  return [...new Set(names)] as ServiceName[];
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

/** `off` (default), `on` (one proxy: the closest X-Forwarded-For entry is the client), or a hop count. */
function trustProxy(env: Env): number {
  const raw = read(env, 'TRUST_PROXY')?.toLowerCase();
  if (raw === undefined || raw === 'off' || raw === 'false') return 0;
  if (raw === 'on' || raw === 'true') return 1;
  if (/^\d+$/.test(raw) && Number(raw) <= 32) return Number(raw);
  throw new ConfigError(`TRUST_PROXY must be off, on or a number of proxies from 0 to 32, got "${raw}"`);
}

function corsOrigins(env: Env): string[] {
  const origins = (read(env, 'CORS_ORIGINS') ?? '*')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (origin !== '*' && !/^https?:\/\/[a-z0-9.-]+(:\d+)?$/i.test(origin)) {
      throw new ConfigError(
        `CORS_ORIGINS must be * or a comma-separated list of origins like https://app.example${echoUnlessCredentials(origin)}`,
      );
    }
  }
  return origins;
}

/**
 * The headers satgate reads (content-type, keys, request ids, revalidation, CSRF prevention, trace
 * context), `x-hiro-api-key` (clients written for Hiro's hosted APIs send it; satgate ignores it)
 * and the ones popular clients add on every request (Apollo's client awareness, Sentry's tracing,
 * an app-wide Authorization): a browser sends a request only if its preflight allows every header
 * on it, so a missing one fails the whole request ("Failed to fetch").
 */
export const DEFAULT_CORS_ALLOWED_HEADERS = [
  'content-type',
  'x-api-key',
  'x-hiro-api-key',
  'x-request-id',
  'if-none-match',
  'x-graphql-yoga-csrf',
  'apollo-require-preflight',
  'x-apollo-operation-name',
  'traceparent',
  'tracestate',
  'apollographql-client-name',
  'apollographql-client-version',
  'sentry-trace',
  'baggage',
  'authorization',
] as const;

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

function corsAllowedHeaders(env: Env): string[] {
  const given = read(env, 'CORS_ALLOWED_HEADERS');
  if (given === undefined) return [...DEFAULT_CORS_ALLOWED_HEADERS];
  const names = given
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  for (const name of names) {
    if (!HEADER_NAME.test(name))
      throw new ConfigError(`CORS_ALLOWED_HEADERS must be a comma-separated list of header names, got "${name}"`);
  }
  return [...new Set(names)];
}

/**
 * Every credential the gateway sends to some upstream, in each form an answer could quote it
 * (ord's basic auth as typed, its password alone, and as its header carries it): no upstream's
 * error text passes any of them on, whichever upstream it came from.
 */
export function configuredSecrets({ hiroApiKey, sources: { unisatApiKey, ordAuth } }: Config): string[] {
  const ord = ordAuth === undefined ? [] : [ordAuth, ordAuth.slice(ordAuth.indexOf(':') + 1), Buffer.from(ordAuth).toString('base64')];
  return [hiroApiKey, unisatApiKey, ...ord].filter((secret): secret is string => secret !== undefined && secret !== '');
}

/**
 * The configuration for the start-up log line, minus secrets: upstream origins only (a path may
 * carry a provider's token), whether a key is set (never the key), Redis on or off (its URL may
 * hold a password).
 */
export function effectiveConfig(config: Config, persistedOperations?: number) {
  return {
    upstreams: {
      metadata: config.metadataUrl.origin,
      ordinals: config.ordinalsUrl.origin,
      runes: config.runesUrl.origin,
      platform: config.platformUrl.origin,
    },
    hiroApiKey: config.hiroApiKey !== undefined,
    redis: config.redisUrl !== undefined,
    workers: config.workers,
    cache: {
      ttlMs: config.cacheTtlMs,
      notFoundTtlMs: config.cacheNotFoundTtlMs,
      staleIfErrorMs: config.staleIfErrorMs,
      maxBytes: config.cacheMaxBytes,
    },
    timeouts: {
      upstreamMs: config.upstreamTimeoutMs,
      requestMs: config.requestTimeoutMs,
      shutdownMs: config.shutdownTimeoutMs,
      shutdownDelayMs: config.shutdownDelayMs,
    },
    retries: config.upstreamRetries,
    persistedOperations: persistedOperations ?? false,
    graphiql: config.graphiql,
    readyzRequireUpstream: config.readyzRequireUpstream,
    // The collector's origin only: its URL may carry credentials.
    tracing: config.tracing
      ? { endpoint: new URL(config.tracing.url).origin, sampler: config.tracing.sampler, clientSampling: config.tracing.clientSampling }
      : false,
  };
}
