/**
 * Prometheus metrics. Labels are route templates, services, operation types and error codes: a
 * bounded set that never holds a raw path, a ticker or a key.
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { TalliedHistogram } from './tallied-histogram.js';
import { clusterScrape } from './cluster-metrics.js';
import type { ServiceName } from '../errors.js';

export type CacheEvent = 'hit' | 'miss' | 'revalidated' | 'stale' | 'coalesced' | 'joined' | 'rejected';

/** A per-tenant service's tenants: how many are known, how many are refused and why. */
export interface TenantCounts {
  tenants: number;
  openBreakers: number;
  quotaBlockedTenants: number;
}

/** What the upstream layer reports; it knows nothing of Prometheus. */
export interface UpstreamEvents {
  request(service: ServiceName, route: string, outcome: string, seconds: number): void;
  retry(service: ServiceName, reason: string): void;
  /** A service-wide breaker changed state (per-tenant breakers are counted, see tenantStates). */
  breaker(service: ServiceName, state: 'closed' | 'open' | 'half-open'): void;
  cache(service: ServiceName, event: CacheEvent): void;
  quotaRemaining(service: ServiceName, remaining: number): void;
  /** A per-tenant service registers how to count its tenants, read at each scrape. */
  tenantStates(service: ServiceName, read: () => TenantCounts): void;
  /** One read operation a data source served (all its calls): `outcome` is `ok` or the error's kind. */
  sourceOperation(source: SourceLabel, operation: SourceOperationLabel, outcome: string, seconds: number): void;
  /** With REDIS_URL: one decision made from this process's own state because Redis could not answer. */
  redisFallback(use: RedisFallbackUse): void;
}

/**
 * What a process decides alone while Redis cannot answer: a cache read (the upstream answers
 * instead), a client's call counted in its local share, a UniSat call admitted by the local window.
 */
export type RedisFallbackUse = 'cache' | 'client_calls' | 'call_window';

/** The data sources other than hiro, and the read operations they serve (docs/sources.md). */
export type SourceLabel = Extract<ServiceName, 'unisat' | 'ord'>;
export type SourceOperationLabel = 'brc20' | 'transfers' | 'etchings' | 'etching';

export const noUpstreamEvents: UpstreamEvents = {
  request() {},
  retry() {},
  breaker() {},
  cache() {},
  quotaRemaining() {},
  tenantStates() {},
  sourceOperation() {},
  redisFallback() {},
};

/** What the live layer (src/live/) reports: labels are resource kinds, never a ticker. */
export type LiveResourceKind = 'status' | 'brc20' | 'etchings';
export type LivePollOutcome = 'changed' | 'unchanged' | 'error' | 'paused';
export interface LiveEvents {
  subscriptions(active: number): void;
  event(kind: LiveResourceKind): void;
  poll(kind: LiveResourceKind, outcome: LivePollOutcome): void;
}

export const noLiveEvents: LiveEvents = { subscriptions() {}, event() {}, poll() {} };

/** Why node's HTTP parser refused a request (server/client-errors.ts): a fixed set, never the client's bytes. */
const CLIENT_ERROR_REASONS = [
  'header_overflow',
  'request_timeout',
  'invalid_method',
  'invalid_target',
  'invalid_header',
  'malformed',
] as const;
export type ClientErrorReason = (typeof CLIENT_ERROR_REASONS)[number];

const BREAKER_VALUE = { closed: 0, 'half-open': 1, open: 2 } as const;

/**
 * A counter of a hot path with one or two labels: plain numbers, added to prom-client's counter at
 * each scrape, as its inc() builds a label string and two objects on every call.
 */
function talliedCounter(
  registry: Registry,
  name: string,
  help: string,
  labels: [string] | [string, string],
): (first: string, second?: string) => void {
  const pending = new Map<string, Map<string, number>>();
  const [outer, inner] = labels;
  new Counter({
    name,
    help,
    labelNames: labels,
    registers: [registry],
    collect() {
      for (const [first, counts] of pending) {
        for (const [second, count] of counts) this.inc(inner ? { [outer]: first, [inner]: second } : { [outer]: first }, count);
      }
      pending.clear();
    },
  });
  return (first, second = '') => {
    let counts = pending.get(first);
    if (!counts) pending.set(first, (counts = new Map()));
    counts.set(second, (counts.get(second) ?? 0) + 1);
  };
}

/** `clustered`: this process is one of several node:cluster workers; /metrics answers for them all. */
export function createMetrics({ clustered = false }: { clustered?: boolean } = {}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'satgate_' });
  const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

  // Counted for every stored answer too: see talliedCounter.
  const countOperation = talliedCounter(registry, 'satgate_graphql_operations_total', 'GraphQL operations by type', ['operation']);
  const graphqlDuration = new TalliedHistogram({
    name: 'satgate_graphql_duration_seconds',
    help: 'GraphQL operation duration',
    labelNames: ['operation'],
    buckets: latencyBuckets,
    registers: [registry],
  });
  const graphqlErrors = new Counter({
    name: 'satgate_graphql_errors_total',
    help: 'GraphQL errors by extensions.code',
    labelNames: ['code'],
    registers: [registry],
  });
  const restRequests = new TalliedHistogram({
    name: 'satgate_rest_request_duration_seconds',
    help: 'REST compatibility requests by route template and status',
    labelNames: ['route', 'status'],
    buckets: latencyBuckets,
    registers: [registry],
  });
  const upstreamRequests = new TalliedHistogram({
    name: 'satgate_upstream_request_duration_seconds',
    help: 'Upstream requests by service, route template and outcome (HTTP status, timeout, unavailable)',
    labelNames: ['service', 'route', 'outcome'],
    buckets: latencyBuckets,
    registers: [registry],
  });
  const retries = new Counter({
    name: 'satgate_upstream_retries_total',
    help: 'Upstream retries by service and reason',
    labelNames: ['service', 'reason'],
    registers: [registry],
  });
  const breakerState = new Gauge({
    name: 'satgate_upstream_breaker_state',
    help: 'Circuit breaker state by service: 0 closed, 1 half-open, 2 open (not for the platform: its breakers are per tenant)',
    labelNames: ['service'],
    registers: [registry],
    // Across workers: the worst state.
    aggregator: 'max',
  });
  const tenantReaders = new Map<ServiceName, () => TenantCounts>();
  new Gauge({
    name: 'satgate_upstream_tenants',
    help: 'Tenants (API keys) of a per-tenant service (the platform): known, breaker_open, quota_blocked',
    labelNames: ['service', 'state'],
    registers: [registry],
    collect() {
      for (const [service, read] of tenantReaders) {
        const counts = read();
        this.set({ service, state: 'known' }, counts.tenants);
        this.set({ service, state: 'breaker_open' }, counts.openBreakers);
        this.set({ service, state: 'quota_blocked' }, counts.quotaBlockedTenants);
      }
    },
  });
  // Counted for every upstream answer a request uses (twenty for a twenty-token document, each time
  // its stored result is answered).
  const countCacheEvent = talliedCounter(
    registry,
    'satgate_cache_events_total',
    'Response cache events by service: hit, miss, revalidated (304), stale (served past freshness on failure), coalesced, rejected (an entry read from Redis that failed its checks: dropped)',
    ['service', 'event'],
  );
  const countResponseCacheEvent = talliedCounter(
    registry,
    'satgate_response_cache_events_total',
    'GraphQL response fast path: hit (answered from a stored result), miss (executed), stored (a result kept), refused (a result not kept: its document was asked less often lately than the stored one it would evict)',
    ['event'],
  );
  const graphqlExecutions = new Counter({
    name: 'satgate_graphql_executions_total',
    help: 'Queries and mutations executed, by engine: compiled (graphql-jit), fallback (graphql-js: documents the compiler refused, variables it could not coerce) or incremental (graphql-tools: documents with @defer or @stream)',
    labelNames: ['engine'],
    registers: [registry],
  });
  const quotaRemaining = new Gauge({
    name: 'satgate_upstream_quota_remaining',
    help: 'The lowest remaining request count the upstream reported in its rate-limit headers',
    labelNames: ['service'],
    registers: [registry],
    aggregator: 'min',
  });
  for (const service of ['metadata', 'ordinals', 'runes']) breakerState.set({ service }, 0);

  const subscriptionsActive = new Gauge({
    name: 'satgate_subscriptions_active',
    help: 'Active GraphQL subscriptions (SSE and WebSocket)',
    registers: [registry],
  });
  const subscriptionEvents = new Counter({
    name: 'satgate_subscription_events_total',
    help: 'Subscription events sent, by watched resource kind',
    labelNames: ['resource'],
    registers: [registry],
  });
  const livePolls = new Counter({
    name: 'satgate_live_polls_total',
    help: 'Polls of watched upstream resources by kind and outcome: changed, unchanged (304), error, paused (quota or breaker)',
    labelNames: ['resource', 'outcome'],
    registers: [registry],
  });
  const live: LiveEvents = {
    subscriptions: (active) => subscriptionsActive.set(active),
    event: (resource) => subscriptionEvents.inc({ resource }),
    poll: (resource, outcome) => livePolls.inc({ resource, outcome }),
  };
  const watchedCaches = new Map<string, () => number>();
  new Gauge({
    name: 'satgate_document_cache_bytes',
    help: 'Bytes held by the parsed-document cache (documents), the automatic persisted query store (apq), the compiled queries (compiled) and the GraphQL response cache (responses)',
    labelNames: ['cache'],
    registers: [registry],
    collect() {
      for (const [cache, bytes] of watchedCaches) this.set({ cache }, bytes());
    },
  });

  // Per source and operation: a GraphQL field or REST answer from a source may take several calls
  // (pages, a block hash), each also in satgate_upstream_request_duration_seconds under the source's name.
  const sourceOperations = new TalliedHistogram({
    name: 'satgate_source_operation_duration_seconds',
    help: 'Read operations served by a data source other than hiro, by source, operation and outcome (ok or the error kind)',
    labelNames: ['source', 'operation', 'outcome'],
    buckets: latencyBuckets,
    registers: [registry],
  });

  const clientErrors = new Counter({
    name: 'satgate_http_client_errors_total',
    help: "Requests node's HTTP parser refused before any handler saw them, by reason: header_overflow (431), request_timeout (408: not received within REQUEST_TIMEOUT_MS), invalid_method, invalid_target, invalid_header, malformed (400)",
    labelNames: ['reason'],
    registers: [registry],
  });
  // Every reason from 0: a first refusal is an increase, not a new series.
  for (const reason of CLIENT_ERROR_REASONS) clientErrors.inc({ reason }, 0);

  // Counted for every request that meets Redis down: see talliedCounter.
  const countRedisFallback = talliedCounter(
    registry,
    'satgate_redis_fallbacks_total',
    'With REDIS_URL: decisions made from local state because Redis could not answer: cache (a read that went to the upstream instead), client_calls (a call counted in the local share), call_window (a UniSat call admitted by the local window)',
    ['use'],
  );

  const upstream: UpstreamEvents = {
    request: (service, route, outcome, seconds) => upstreamRequests.observe([service, route, outcome], seconds),
    retry: (service, reason) => retries.inc({ service, reason }),
    breaker: (service, state) => breakerState.set({ service }, BREAKER_VALUE[state]),
    cache: (service, event) => countCacheEvent(service, event),
    quotaRemaining: (service, remaining) => quotaRemaining.set({ service }, remaining),
    tenantStates: (service, read) => void tenantReaders.set(service, read),
    sourceOperation: (source, operation, outcome, seconds) => sourceOperations.observe([source, operation, outcome], seconds),
    redisFallback: (use) => countRedisFallback(use),
  };

  return {
    registry,
    /** The Prometheus text of this process, or of the whole worker group. */
    scrape: clustered ? clusterScrape(registry) : () => registry.metrics(),
    upstream,
    live,
    graphqlOperation(operation: string, seconds: number) {
      countOperation(operation);
      graphqlDuration.observe([operation], seconds);
    },
    graphqlExecution(engine: 'compiled' | 'fallback' | 'incremental') {
      graphqlExecutions.inc({ engine });
    },
    responseCache(event: 'hit' | 'miss' | 'stored' | 'refused') {
      countResponseCacheEvent(event);
    },
    graphqlErrors(codes: string[]) {
      for (const code of codes) graphqlErrors.inc({ code });
    },
    clientError(reason: ClientErrorReason) {
      clientErrors.inc({ reason });
    },
    restRequest(route: string, status: number, seconds: number) {
      restRequests.observe([route, String(status)], seconds);
    },
    /** With REDIS_URL: whether Redis is in use, read at each scrape. */
    watchRedis(up: () => boolean) {
      // Registered only then: without Redis no series, rather than a 0 that reads as an outage.
      new Gauge({
        name: 'satgate_redis_up',
        help: 'With REDIS_URL: 1 while Redis is in use, 0 while the gateway serves from local state without it (disconnected, or its commands fail)',
        registers: [registry],
        // Across workers: 0 when any worker is without Redis.
        aggregator: 'min',
        collect() {
          this.set(up() ? 1 : 0);
        },
      });
    },
    /** A cache whose size in bytes is read at each scrape. */
    watchCacheBytes(cache: string, bytes: () => number) {
      watchedCaches.set(cache, bytes);
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
