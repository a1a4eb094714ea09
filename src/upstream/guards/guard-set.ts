/**
 * The guards one upstream service's requests pass, each small and named in its own file here: the
 * circuit breaker, the quota gate, a bulkhead, the retry budget and per-client call windows. All
 * are in-process; they take the clock as an argument so tests can drive them.
 *
 * The breaker and quota gate are the service's own, except for a per-tenant service (the platform,
 * whose tenants are its API keys): each tenant has its own, with a share of the pool, kept under a
 * keyed hash of the key in a bounded table.
 */
import type { Logger } from 'pino';
import { keyedHash } from '../../lib/keyed-hash.js';
import { LruTable } from '../../lib/lru-table.js';
import type { TenantCounts, UpstreamEvents } from '../../observe/metrics.js';
import type { ServiceOptions, UpstreamRequest } from '../request.js';
import { signalKeys, type SignalKeys } from '../shared-state.js';
import { Bulkhead } from './bulkhead.js';
import { CircuitBreaker, type BreakerState } from './circuit-breaker.js';
import { QuotaGate } from './quota-gate.js';

/** The breaker and quota gate requests pass, with the shares of the pool a tenant and a client may hold. */
export interface Guards {
  breaker: CircuitBreaker;
  quota: QuotaGate;
  bulkhead?: Bulkhead;
  clientBulkhead?: Bulkhead;
}

/** What /readyz says of a service. */
export type ServiceHealth = { breaker: BreakerState; quotaWaitSeconds: number } | ({ breaker: 'per-tenant' } & TenantCounts);

/**
 * Tenants whose guards are kept. An entry is a 43-character key and three small fixed-size
 * objects, about 1 KB: 10,000 tenants are ~10 MB at most.
 */
const MAX_TENANTS = 10_000;
/**
 * The clients served that a service's breaker keeps apart (circuit-breaker.ts): about 100 bytes
 * each, 400 KB a service at most. A tenant's keeps the breaker's default 32: its clients are few,
 * and there are up to MAX_TENANTS of them.
 */
const SERVICE_TRACKED_CLIENTS = 4096;

export class GuardSet {
  /** The service's breaker and quota gate; undefined where they are kept per tenant. */
  readonly service: Guards | undefined;
  /** Where the service's quota blocks and breaker openings are shared (with REDIS_URL). */
  readonly signalKeys: SignalKeys;
  /** Per tenant, by keyed hash of the tenant's key: bounded, and idle tenants are forgotten. */
  private readonly tenants: LruTable<Guards> | undefined;
  /**
   * Per client, of a per-tenant service: keys cost a client nothing, so one client asking with
   * many keys whose answers are slow would hold a quarter of the pool for each of them.
   */
  private readonly clients: LruTable<Bulkhead> | undefined;

  constructor(
    private readonly options: ServiceOptions,
    private readonly logger: Logger,
    events: UpstreamEvents,
  ) {
    const { name, retry } = options;
    const keys = (this.signalKeys = signalKeys(name, options.baseUrl, options.apiKey));
    if (options.perTenant) {
      // Nothing a tenant learnt can still be in force once it has been idle this long.
      const idleMs = Math.max(retry.maxWaitMs, retry.breakerCooldownMs) + options.timeoutMs;
      this.tenants = new LruTable<Guards>(MAX_TENANTS, idleMs);
      this.clients = new LruTable<Bulkhead>(MAX_TENANTS, idleMs);
      events.tenantStates(name, () => this.tenantCounts());
    } else {
      const guards: Guards = {
        quota: new QuotaGate(retry.maxWaitMs, (until) => options.shared?.quotaBlocked(keys, until)),
        breaker: new CircuitBreaker(
          retry.breakerThreshold,
          retry.breakerCooldownMs,
          (state) => {
            events.breaker(name, state);
            this.logger.warn({ state }, 'circuit breaker');
            if (state === 'open') options.shared?.breakerOpened(keys, guards.breaker.sharedOpenUntilTime);
          },
          options.probe !== undefined,
          SERVICE_TRACKED_CLIENTS,
        ),
      };
      this.service = guards;
    }
  }

  /** The service's guards, or the tenant's (created on its first request) with the client's share. */
  for(req: UpstreamRequest): Guards {
    if (this.service) return this.service;
    const { retry, connections } = this.options;
    // A tenant whose devnet hangs holds at most a quarter of the pool: the others keep the rest.
    // So does a client, whatever keys it asks with.
    const share = Math.max(1, Math.floor(connections / 4));
    const tenant = this.tenants!.use(keyedHash(req.tenant ?? ''), () => ({
      quota: new QuotaGate(retry.maxWaitMs),
      breaker: new CircuitBreaker(retry.breakerThreshold, retry.breakerCooldownMs, (state) =>
        this.logger.warn({ state, scope: 'tenant' }, 'circuit breaker'),
      ),
      bulkhead: new Bulkhead(share),
    }));
    return { ...tenant, clientBulkhead: this.clients!.use(req.client ?? '', () => new Bulkhead(share)) };
  }

  /**
   * /readyz: the service's breaker and quota wait; for a per-tenant service, how many tenants it
   * knows and how many of them are refused (never one tenant's state as the service's). `client`:
   * whose request would meet the breaker (CircuitBreaker.stateAt).
   */
  health(now = Date.now(), client?: string): ServiceHealth {
    if (this.service) {
      return { breaker: this.service.breaker.stateAt(now, client), quotaWaitSeconds: this.service.quota.waitSeconds(now) };
    }
    return { breaker: 'per-tenant', ...this.tenantCounts(now) };
  }

  private tenantCounts(now = Date.now()): TenantCounts {
    const counts = { tenants: 0, openBreakers: 0, quotaBlockedTenants: 0 };
    for (const guards of this.tenants?.values(now) ?? []) {
      counts.tenants++;
      // A tenant's breaker refusing its key's requests, whoever's failures opened it.
      if (guards.breaker.openUntilTime > now) counts.openBreakers++;
      if (guards.quota.waitSeconds(now) > 0) counts.quotaBlockedTenants++;
    }
    return counts;
  }
}
