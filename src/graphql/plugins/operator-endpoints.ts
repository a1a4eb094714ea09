/**
 * Operator endpoints: /readyz (per-service upstream health) and /metrics (Prometheus text).
 */
import type { Plugin } from 'graphql-yoga';
import type { ServiceName } from '../../errors.js';
import type { Metrics } from '../../observe/metrics.js';
import type { Upstreams } from '../../upstream/index.js';

export interface OpsDeps {
  upstreams: Upstreams;
  metrics: Metrics;
  /** True once shutdown began: /readyz turns 503 so load balancers stop sending. */
  isDraining: () => boolean;
  /** READYZ_REQUIRE_UPSTREAM: /readyz is 503 while one of these services' breakers is not closed. */
  requiredUpstreams?: readonly ServiceName[];
}

export function useOperations({ upstreams, metrics, isDraining, requiredUpstreams = [] }: OpsDeps): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      if (request.method !== 'GET') return;
      if (url.pathname === '/metrics') {
        // A failed scrape throws: the listener answers a generic 500 and logs it with the request id.
        const scraped = await metrics.scrape();
        return endResponse(new Response(scraped, { headers: { 'content-type': metrics.registry.contentType } }));
      }
      if (url.pathname === '/readyz') {
        const services = Object.fromEntries(
          upstreams.services.map((service) => [
            service.name,
            {
              // The platform's breakers and quotas are per tenant: reported as counts, never one tenant's.
              ...service.health(),
              lastOutcome: service.lastOutcome?.outcome ?? null,
              lastOutcomeAt: service.lastOutcome ? new Date(service.lastOutcome.at).toISOString() : null,
            },
          ]),
        );
        // The gateway can serve (cached, stale or error answers) whatever the upstreams do, unless
        // the operator said it must not without some of them.
        const unavailable = requiredUpstreams.filter((name) => services[name]?.breaker !== 'closed');
        const status = isDraining() ? 'draining' : unavailable.length ? 'unready' : 'ready';
        return endResponse(
          Response.json({ status, ...(unavailable.length ? { unavailable } : {}), services }, { status: status === 'ready' ? 200 : 503 }),
        );
      }
    },
  };
}
