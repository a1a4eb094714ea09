/**
 * createServer: the yoga instance: GraphQL, GraphiQL, health and operator endpoints. The REST layer
 * runs ahead of it on node:http (http-listener.ts). It never listens: main.ts decides where it runs.
 */
import { useAPQ } from '@graphql-yoga/plugin-apq';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { useEngine } from '@envelop/core';
import { execute, GraphQLError, subscribe } from 'graphql';
import { useRequestDeadline, type CORSOptions } from '@whatwg-node/server';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { Config } from './config.js';
import { createContext } from './context.js';
import { createDocumentCaches } from './document-cache.js';
import { maskError } from './errors.js';
import { DEFAULT_QUERY, renderGraphiQL, useGraphiQLAssets } from './graphiql.js';
import { useHttpCaching } from './http-caching.js';
import { useQueryLimits, useRequestParseErrors, useSecretScrubbing } from './hardening.js';
import type { Metrics } from './metrics.js';
import { useGraphQLMetrics, useOperations, useStaleMarker } from './ops.js';
import { requestIdOf, useRequestId } from './request-id.js';
import { schema } from './schema/index.js';
import type { Upstreams } from './upstream/index.js';

export interface ServerDeps {
  config: Config;
  upstreams: Upstreams;
  metrics: Metrics;
  isDraining?: () => boolean;
  /** PERSISTED_OPERATIONS, loaded: only these documents run. */
  persistedOperations?: Map<string, string>;
}

export function createServer({ config, upstreams, metrics, isDraining = () => false, persistedOperations }: ServerDeps) {
  const caches = createDocumentCaches({ documentBytes: config.documentCacheMaxBytes, apqBytes: config.apqCacheMaxBytes });
  metrics.watchCacheBytes('documents', () => caches.parsed.bytes);
  metrics.watchCacheBytes('apq', () => caches.apq.bytes);
  const trusted: Plugin = persistedOperations
    ? usePersistedOperations({
        getPersistedOperation: (id) => persistedOperations.get(id) ?? null,
        allowArbitraryOperations: false,
      })
    : // Automatic persisted queries: a client may send a hash instead of the document, so GET URLs stay short and cacheable.
      useAPQ({ store: caches.apqStore });
  return createYoga({
    schema,
    context: createContext(upstreams, {
      maxCalls: config.maxUpstreamCallsPerRequest,
      maxConcurrent: config.maxConcurrentUpstreamCallsPerRequest,
    }),
    graphqlEndpoint: '/graphql',
    healthCheckEndpoint: '/healthz',
    landingPage: false,
    graphiql: { title: 'satgate', defaultQuery: DEFAULT_QUERY, shouldPersistHeaders: false },
    renderGraphiQL,
    parserAndValidationCache: caches.parserAndValidationCache,
    maskedErrors: { maskError },
    cors: corsOptions(config),
    batching: config.batchLimit > 0 ? { limit: config.batchLimit } : false,
    // yoga's own logger would print at its own levels; ours is structured and redacted.
    logging: false,
    plugins: [
      // The whole time a GraphQL request may take: past it the client gets a clear 504 and the
      // request's signal aborts its upstream work (REST requests are bounded by the upstream deadline).
      useRequestDeadline({
        timeout: config.requestTimeoutMs,
        response: () =>
          Response.json(
            {
              errors: [
                {
                  message: `The request took longer than ${config.requestTimeoutMs} ms`,
                  extensions: { code: 'REQUEST_TIMEOUT', limit: config.requestTimeoutMs },
                },
              ],
            },
            { status: 504 },
          ),
      }),
      // graphql-js's own executor: it keeps response keys in query order (the spec's ordering);
      // @graphql-tools/executor 2.0.1 lets them follow resolver completion.
      useEngine({ execute, subscribe }),
      useRequestId(),
      useRequestParseErrors(),
      useQueryLimits({
        maxTokens: config.maxQueryTokens,
        maxDepth: config.maxQueryDepth,
        maxAliases: config.maxAliases,
        maxDirectives: config.maxDirectives,
        maxCost: config.maxQueryCost,
        maxComparisons: config.maxQueryComparisons,
        maxBodyBytes: config.maxBodyBytes,
      }),
      // Browsers send "simple" GETs and form POSTs without a preflight: those must carry a custom header.
      useCSRFPrevention({ requestHeaders: ['x-graphql-yoga-csrf', 'apollo-require-preflight', 'x-apollo-operation-name'] }),
      trusted,
      useSecretScrubbing(),
      useUnexpectedErrorIds(),
      useOperations({ upstreams, metrics, isDraining }),
      useGraphiQLAssets(),
      useHttpCaching(),
      useGraphQLMetrics(metrics),
      useStaleMarker(),
    ],
  });
}
export type SatgateServer = ReturnType<typeof createServer>;

/** The one CORS policy, for GraphQL (yoga) and the REST layer alike. */
export function corsOptions(config: Config): CORSOptions {
  return {
    origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
    methods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['content-type', 'x-api-key', 'x-request-id', 'if-none-match', 'x-graphql-yoga-csrf', 'apollo-require-preflight'],
    exposedHeaders: ['etag', 'x-request-id', 'retry-after', 'age', 'warning'],
    // Keys travel in headers and arguments, never in cookies: no credentialed cross-origin requests.
    credentials: false,
  };
}

/** A masked (unexpected) error names the request id, so an operator can find it in the logs. */
function useUnexpectedErrorIds(): Plugin {
  return {
    onResultProcess({ request, result, setResult }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result || !result.errors?.length) return;
      if (!result.errors.some((e) => e.extensions?.unexpected)) return;
      const requestId = requestIdOf(request);
      setResult({
        ...result,
        errors: result.errors.map((error) =>
          error.extensions?.unexpected
            ? new GraphQLError(`Unexpected error (request ${requestId})`, {
                path: error.path,
                extensions: { code: 'INTERNAL_SERVER_ERROR', requestId },
              })
            : error,
        ),
      });
    },
  };
}
