/**
 * createServer: the yoga instance: GraphQL, GraphiQL, health and operator endpoints. The REST layer
 * runs ahead of it on node:http (server/listener.ts). It never listens: main.ts decides where it runs.
 */
import { useAPQ } from '@graphql-yoga/plugin-apq';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { useEngine } from '@envelop/core';
import { GraphQLError, subscribe } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { ByteResponse } from './byte-responses.js';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { createContext } from './context.js';
import { createDocumentCaches } from './document-cache.js';
import type { LiveHub } from '../live/hub.js';
import { createCompiledExecution } from './compiled-execution.js';
import { maskError } from '../errors.js';
import { corsPolicy } from '../http/cors.js';
import { DEFAULT_QUERY, renderGraphiQL, useGraphiQLAssets } from './graphiql.js';
import { useHttpCaching } from './plugins/http-caching.js';
import { useSourceProvenance } from './plugins/sources.js';
import { PERSISTED_ERRORS } from './limits/persisted-operations.js';
import { useQueryLimits } from './limits/query-limits.js';
import { useRequestParseErrors } from './plugins/request-parse-errors.js';
import { useParsedParams } from './plugins/parsed-params.js';
import { useSecretScrubbing } from './plugins/secret-scrubbing.js';
import { useCors } from './plugins/cors.js';
import { useCsrfPreventionWithCode } from './plugins/csrf.js';
import { useUnsupportedMediaType } from './plugins/unsupported-media-type.js';
import { useNotAcceptableAnswer } from './plugins/not-acceptable.js';
import { useOperationResolutionErrors } from './plugins/operation-resolution.js';
import { useIncrementalErrorMasking } from './plugins/incremental-errors.js';
import { useMultipartSubscriptions } from './plugins/multipart-subscriptions.js';
import { useRequestDeadline } from './plugins/request-deadline.js';
import { useSubscriptionTurns } from './plugins/subscription-turns.js';
import { useUnexpectedErrorIds } from './plugins/unexpected-errors.js';
import type { Metrics } from '../observe/metrics.js';
import { useGraphQLMetrics, useGraphQLTracing, useStaleMarker } from './plugins/instrumentation.js';
import { useOperations } from './plugins/operator-endpoints.js';
import { useRequestId } from '../http/request-id.js';
import { useResultCandidates } from './plugins/result-candidates.js';
import { schema } from './schema/index.js';
import type { Tracing } from '../observe/tracing.js';
import type { Upstreams } from '../upstream/index.js';

/** Apollo's multipart subscriptions: a heartbeat part this often while no event comes (Apollo Router's interval). */
const MULTIPART_HEARTBEAT_MS = 5_000;

export interface ServerDeps {
  config: Config;
  upstreams: Upstreams;
  metrics: Metrics;
  /** Unexpected errors are logged here, with their request id. */
  logger: Logger;
  isDraining?: () => boolean;
  /** PERSISTED_OPERATIONS, loaded: only these documents run. */
  persistedOperations?: Map<string, string>;
  /** Subscriptions' pollers and fan-out (main.ts closes it on SIGTERM). */
  live: LiveHub;
  /** Set when spans are exported: each operation gets its own. */
  tracing?: Tracing;
}

export function createServer({
  config,
  upstreams,
  metrics,
  logger,
  isDraining = () => false,
  persistedOperations,
  live,
  tracing,
}: ServerDeps) {
  const caches = createDocumentCaches({ documentBytes: config.documentCacheMaxBytes, apqBytes: config.apqCacheMaxBytes });
  metrics.watchCacheBytes('documents', () => caches.parsed.bytes);
  metrics.watchCacheBytes('apq', () => caches.apq.bytes);
  // Compiled queries accompany parsed documents: the same bound.
  const compiled = createCompiledExecution({
    maxBytes: config.documentCacheMaxBytes,
    mode: config.compiledExecution,
    onExecution: (engine) => metrics.graphqlExecution(engine),
  });
  metrics.watchCacheBytes('compiled', () => compiled.bytes);
  const trusted: Plugin = persistedOperations
    ? usePersistedOperations({
        getPersistedOperation: (id) => persistedOperations.get(id) ?? null,
        allowArbitraryOperations: false,
        customErrors: PERSISTED_ERRORS,
      })
    : // Automatic persisted queries: a client may send a hash instead of the document, so GET URLs stay short and cacheable.
      useAPQ({ store: caches.apqStore });
  // GraphiQL sends its own documents: pointless where only persisted ones run, unless asked for.
  const graphiql = config.graphiql === 'on' || (config.graphiql === 'auto' && !persistedOperations);
  return createYoga({
    schema,
    context: createContext(
      upstreams,
      {
        maxCalls: config.maxUpstreamCallsPerRequest,
        maxConcurrent: config.maxConcurrentUpstreamCallsPerRequest,
        maxResponseBytes: config.maxResponseBytesPerRequest,
        trustProxy: config.trustProxy,
        batching: config.batchLimit > 0,
      },
      live,
    ),
    graphqlEndpoint: '/graphql',
    healthCheckEndpoint: '/healthz',
    landingPage: false,
    graphiql: graphiql && {
      title: 'satgate',
      defaultQuery: DEFAULT_QUERY,
      shouldPersistHeaders: false,
    },
    renderGraphiQL,
    parserAndValidationCache: caches.parserAndValidationCache,
    maskedErrors: { maskError, isDev: false },
    // useCors below: yoga's would answer an unlisted origin `Access-Control-Allow-Origin: null`.
    cors: false,
    batching: config.batchLimit > 0 ? { limit: config.batchLimit } : false,
    // useQueryLimits bounds every POST body already (a Content-Length is required and at most
    // MAX_BODY_BYTES, and node:http reads no more than it says). yoga's own limit would pipe each
    // body through a TransformStream: per request, streams and AbortControllers that die in the old
    // generation on Node 20.
    maxRequestBodySize: false,
    // yoga's own logger would print at its own levels; ours is structured and redacted.
    logging: false,
    // Answers held as bytes, not as strings old promises keep alive (byte-responses.ts).
    fetchAPI: { Response: ByteResponse },
    plugins: [
      useCors(corsPolicy(config)),
      // The whole time a GraphQL request may take: past it the client gets a clear 504 and the
      // request's signal aborts its upstream work (the REST layer applies the same deadline itself).
      useRequestDeadline(
        config.requestTimeoutMs,
        () => Response.json({ errors: [requestTimeout(config.requestTimeoutMs)] }, { status: 504 }),
        () => requestTimeoutError(config.requestTimeoutMs),
      ),
      // Queries and mutations compiled (graphql-jit), subscriptions on graphql-js. Both keep response
      // keys in query order (the spec's); so does @graphql-tools/executor for @defer/@stream, as
      // vendored (vendor/graphql-tools-executor: 2.0.1 let them follow resolver completion).
      useEngine({ execute: compiled.execute, subscribe }),
      // @defer and @stream: the directives and their validation rules; documents that use them run
      // on graphql-tools' executor (compiled-execution.ts) and answer multipart/mixed or SSE.
      useDeferStream(),
      useIncrementalErrorMasking(maskError),
      useRequestId(),
      useRequestParseErrors(),
      useParsedParams(),
      useQueryLimits({
        maxTokens: config.maxQueryTokens,
        maxDepth: config.maxQueryDepth,
        maxAliases: config.maxAliases,
        maxDirectives: config.maxDirectives,
        maxCost: config.maxQueryCost,
        maxComparisons: config.maxQueryComparisons,
        maxResultFields: config.maxResultFields,
        maxBodyBytes: config.maxBodyBytes,
        // Keys are document texts, a fraction of what their parses weigh.
        validatedShapesBytes: config.documentCacheMaxBytes / 8,
      }),
      useCsrfPreventionWithCode(),
      useUnsupportedMediaType(),
      // A subscription's set-up waits for a turn of the loop of its own: a burst of them cannot hold other requests.
      useSubscriptionTurns(),
      useOperationResolutionErrors(),
      trusted,
      // Before the scrubbing, which may rebuild errors: this one needs the masked errors themselves.
      useUnexpectedErrorIds(logger),
      useSecretScrubbing(),
      useOperations({ upstreams, metrics, isDraining, requiredUpstreams: config.readyzRequireUpstream }),
      ...(graphiql ? [useGraphiQLAssets()] : []),
      useHttpCaching(),
      // Subscriptions as Apollo Client's HttpLink asks for them (multipart/mixed;subscriptionSpec=1.0).
      useMultipartSubscriptions({ heartbeatMs: MULTIPART_HEARTBEAT_MS }),
      useGraphQLMetrics(metrics),
      ...(tracing ? [useGraphQLTracing()] : []),
      useStaleMarker(),
      useSourceProvenance(),
      // After every result processor: it answers what none of them could.
      useNotAcceptableAnswer(),
      // Last: it reads the result as the client gets it (errors masked, stale marked).
      useResultCandidates(),
    ],
  });
}
/** REQUEST_TIMEOUT: the whole answer, or the fields of a later part of @defer/@stream still waiting. */
function requestTimeout(limit: number) {
  return { message: `The request took longer than ${limit} ms`, extensions: { code: 'REQUEST_TIMEOUT', limit } };
}

/** REQUEST_TIMEOUT as a field's error: what the fields still waiting at the deadline answer. */
export function requestTimeoutError(limit: number): GraphQLError {
  const { message, extensions } = requestTimeout(limit);
  return new GraphQLError(message, { extensions });
}

export type SatgateServer = ReturnType<typeof createServer>;
