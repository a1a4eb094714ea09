/**
 * Operator endpoints: /readyz (per-service upstream health, and Redis's) and /metrics (Prometheus text).
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
          // The data sources' pools beside hiro's: `unisat`, `ord` when configured.
          [...upstreams.services, ...upstreams.sources.services].map((service) => [
            service.name,
            {
              // The platform's breakers and quotas are per tenant: reported as counts, never one tenant's.
              ...service.health(),
              lastOutcome: service.lastOutcome?.outcome ?? null,
              lastOutcomeAt: service.lastOutcome ? new Date(service.lastOutcome.at).toISOString() : null,
            },
          ]),
        );
        // Which operations each source serves and the indexed height it last reported (docs/sources.md).
        const status = upstreams.sources.status();
        const sources = Object.fromEntries(
          status.map(({ source, serves, height, heightAt }) => [
            source,
            { serves, height, heightAt: heightAt === null ? null : new Date(heightAt).toISOString() },
          ]),
        );
        // The gateway can serve (cached, stale or error answers) whatever the upstreams do, unless
        // the operator said it must not without some of them. Only while a breaker cools down: past
        // it (half-open) the load balancer must send a request, which has the gateway probe the
        // service, or a replica out of rotation would never see it back.
        const unavailable = requiredUpstreams.filter((name) => services[name]?.breaker === 'open');
        const readiness = isDraining() ? 'draining' : unavailable.length ? 'unready' : 'ready';
        // Redis down is not unready: every replica serves from local state meanwhile (docs/operating.md#redis).
        const redis = upstreams.redisHealth?.();
        const body = {
          status: readiness,
          ...(unavailable.length ? { unavailable } : {}),
          services,
          ...(status.length ? { sources } : {}),
          ...(redis ? { redis } : {}),
        };
        return endResponse(Response.json(body, { status: readiness === 'ready' ? 200 : 503 }));
      }
    },
  };
}
