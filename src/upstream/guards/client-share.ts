import type { ClientCallLimiter, ClientRefusal } from '../client-limits.js';
import type { QuotaGate } from './quota-gate.js';

/** Of the quota an upstream advertises, the share one client may use by default. */
const FAIR_SHARE = 0.2;

/**
 * Per-client fairness: the upstream calls a minute one client may cause (a number, or `fair-share`:
 * FAIR_SHARE of the quota the service's gate has seen advertised, else of the quota it is known to
 * have, no limit before either), and where they are counted (client-limits.ts).
 */
export class ClientShare {
  constructor(
    private readonly perMinute: number | 'fair-share',
    private readonly limiter: ClientCallLimiter,
    private readonly quota: QuotaGate | undefined,
    /** The service's quota a minute where it advertises none (a data source's configured budget). */
    private readonly knownPerMinute?: number,
  ) {}

  /**
   * Counts one upstream call of `client`: undefined when it may make it (or no limit applies),
   * else why not. Only real sends are counted, retries included.
   */
  take(client: string | undefined): ClientRefusal | undefined | Promise<ClientRefusal | undefined> {
    const limit = this.limit();
    if (client === undefined || limit === undefined) return undefined;
    return this.limiter.take(client, limit);
  }

  private limit(): number | undefined {
    if (this.perMinute !== 'fair-share') return this.perMinute;
    const quota = this.quota?.limitPerMinute ?? this.knownPerMinute;
    return quota === undefined ? undefined : Math.max(1, Math.floor(quota * FAIR_SHARE));
  }
}
