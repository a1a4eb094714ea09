/**
 * createServer: the yoga instance with the REST layer, GraphiQL, health and operator endpoints. It
 * never listens: main.ts and the tests decide where it runs.
 */
import { createYoga, type Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { createContext } from './context.js';
import { maskError } from './errors.js';
import { DEFAULT_QUERY, renderGraphiQL, useGraphiQLAssets } from './graphiql.js';
import { useHttpCaching } from './http-caching.js';
import { redactPath } from './logger.js';
import type { Metrics } from './metrics.js';
import { useGraphQLMetrics, useOperations, useStaleMarker } from './ops.js';
import { requestIdOf, useRequestId } from './request-id.js';
import { useRestCompat } from './rest/plugin.js';
import { schema } from './schema/index.js';
import type { Upstreams } from './upstream/index.js';

export interface ServerDeps {
  config: Config;
  upstreams: Upstreams;
  logger: Logger;
  metrics: Metrics;
  isDraining?: () => boolean;
}

export function createServer({ config, upstreams, logger, metrics, isDraining = () => false }: ServerDeps) {
  return createYoga({
    schema,
    context: createContext(upstreams, logger, {
      maxCalls: config.maxUpstreamCallsPerRequest,
      maxConcurrent: config.maxConcurrentUpstreamCallsPerRequest,
    }),
    graphqlEndpoint: '/graphql',
    healthCheckEndpoint: '/healthz',
    landingPage: false,
    graphiql: { title: 'satgate', defaultQuery: DEFAULT_QUERY, shouldPersistHeaders: false },
    renderGraphiQL,
    maskedErrors: { maskError },
    // yoga's own logger would print at its own levels; ours is structured and redacted.
    logging: false,
    plugins: [
      useRequestId(),
      useAccessLog(logger),
      useOperations({ upstreams, metrics, isDraining }),
      useGraphiQLAssets(),
      useRestCompat(upstreams, logger, metrics),
      useHttpCaching(),
      useGraphQLMetrics(metrics),
      useStaleMarker(),
    ],
  });
}
export type SatgateServer = ReturnType<typeof createServer>;

/** One line per request at info: request id, method, key-free path, status, duration. */
function useAccessLog(logger: Logger): Plugin {
  const started = new WeakMap<Request, number>();
  return {
    onRequest({ request }) {
      started.set(request, performance.now());
    },
    onResponse({ request, response }) {
      const begin = started.get(request);
      logger.info(
        {
          requestId: requestIdOf(request),
          method: request.method,
          path: redactPath(new URL(request.url).pathname),
          status: response.status,
          ms: begin === undefined ? undefined : Math.round((performance.now() - begin) * 10) / 10,
        },
        'request',
      );
    },
  };
}
