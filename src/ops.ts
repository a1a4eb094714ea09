/**
 * Operator endpoints and instrumentation: /readyz (per-service upstream health), /metrics
 * (Prometheus text), GraphQL metrics, and `extensions.stale` on answers that used stale data.
 */
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from './context.js';
import type { Metrics } from './metrics.js';
import type { Upstreams } from './upstream/index.js';

export interface OpsDeps {
  upstreams: Upstreams;
  metrics: Metrics;
  /** True once shutdown began: /readyz turns 503 so load balancers stop sending. */
  isDraining: () => boolean;
}

export function useOperations({ upstreams, metrics, isDraining }: OpsDeps): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      if (request.method !== 'GET') return;
      if (url.pathname === '/metrics') {
        const text = await metrics.registry.metrics();
        return endResponse(new Response(text, { headers: { 'content-type': metrics.registry.contentType } }));
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
        // The gateway can serve (cached, stale or error answers) whatever the upstreams do.
        const draining = isDraining();
        return endResponse(
          Response.json({ status: draining ? 'draining' : 'ready', services }, { status: draining ? 503 : 200 }),
        );
      }
    },
  };
}

/** Operation counts and durations, and errors by code (validation errors included). */
export function useGraphQLMetrics(metrics: Metrics): Plugin {
  return {
    onExecute({ args }) {
      const started = performance.now();
      const operation =
        getOperationAST(args.document, args.operationName)?.operation ?? 'unknown';
      return {
        onExecuteDone() {
          metrics.graphqlOperation(operation, (performance.now() - started) / 1000);
        },
      };
    },
    onResultProcess({ result }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result) return;
      const codes = (result.errors ?? []).map((e) => String(e.extensions?.code ?? 'UNKNOWN'));
      metrics.graphqlErrors(codes);
    },
  };
}

/** Marks an answer that used stale upstream data: `extensions.stale = { ageSeconds }`. */
export function useStaleMarker(): Plugin {
  return {
    onExecutionResult({ result, setResult, context }) {
      const ageSeconds = (context as Partial<GraphQLContext>).stale?.ageSeconds;
      if (ageSeconds === undefined || !result || Symbol.asyncIterator in result) return;
      setResult({ ...result, extensions: { ...result.extensions, stale: { ageSeconds } } });
    },
  };
}
