/**
 * createServer: the yoga instance: GraphQL, GraphiQL, health and operator endpoints. The REST layer
 * runs ahead of it on node:http (http-listener.ts). It never listens: main.ts decides where it runs.
 */
import { useAPQ } from '@graphql-yoga/plugin-apq';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { useEngine } from '@envelop/core';
import { GraphQLError, subscribe, type ExecutionResult } from 'graphql';
import { createGraphQLError, createYoga, type Plugin } from 'graphql-yoga';
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { Cancellation, untilClientLeaves, withDeadline } from '../lib/cancellation.js';
import type { Config } from '../config.js';
import { createContext } from './context.js';
import { createDocumentCaches } from './document-cache.js';
import type { LiveHub } from '../live/hub.js';
import { createCompiledExecution } from './compiled-execution.js';
import { causeOf, maskError } from '../errors.js';
import { DEFAULT_QUERY, renderGraphiQL, useGraphiQLAssets } from './graphiql.js';
import { useHttpCaching } from './plugins/http-caching.js';
import { useSourceProvenance } from './plugins/sources.js';
import { PERSISTED_ERRORS, useQueryLimits, useRequestParseErrors, useSecretScrubbing } from './limits/query-limits.js';
import { errorFields } from '../observe/logger.js';
import type { Metrics } from '../observe/metrics.js';
import { useGraphQLMetrics, useGraphQLTracing, useOperations, useStaleMarker } from './plugins/operations.js';
import { requestIdOf, useRequestId } from '../http/request-id.js';
import { useResultCandidates } from '../server/response-cache.js';
import { schema } from './schema/index.js';
import type { Tracing } from '../observe/tracing.js';
import type { Upstreams } from '../upstream/index.js';

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
      // GraphiQL runs subscriptions as SSE GETs: they carry the CSRF-prevention header too.
      additionalHeaders: { 'x-graphql-yoga-csrf': '1' },
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
    plugins: [
      useCors(corsPolicy(config)),
      // The whole time a GraphQL request may take: past it the client gets a clear 504 and the
      // request's signal aborts its upstream work (the REST layer applies the same deadline itself).
      useRequestDeadline(config.requestTimeoutMs, () =>
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
      ),
      // Queries and mutations compiled (graphql-jit), subscriptions on graphql-js. Both keep response
      // keys in query order (the spec's); @graphql-tools/executor 2.0.1 lets them follow resolver completion.
      useEngine({ execute: compiled.execute, subscribe }),
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
      useCsrfPreventionWithCode(),
      trusted,
      // Before the scrubbing, which may rebuild errors: this one needs the masked errors themselves.
      useUnexpectedErrorIds(logger),
      useSecretScrubbing(),
      useOperations({ upstreams, metrics, isDraining, requiredUpstreams: config.readyzRequireUpstream }),
      ...(graphiql ? [useGraphiQLAssets()] : []),
      useHttpCaching(),
      useGraphQLMetrics(metrics),
      ...(tracing ? [useGraphQLTracing()] : []),
      useStaleMarker(),
      useSourceProvenance(),
      // Last: it reads the result as the client gets it (errors masked, stale marked).
      useResultCandidates(),
    ],
  });
}
export type SatgateServer = ReturnType<typeof createServer>;

const CORS_METHODS = 'GET, POST, DELETE, OPTIONS';
/** Every request header satgate reads: a browser may send only those a preflight allows. */
const CORS_REQUEST_HEADERS =
  'content-type, x-api-key, x-request-id, if-none-match, x-graphql-yoga-csrf, apollo-require-preflight, x-apollo-operation-name, traceparent, tracestate';
const CORS_EXPOSED_HEADERS = 'etag, x-request-id, retry-after, age, warning, ratelimit-limit, ratelimit-remaining, ratelimit-reset';

/** The CORS headers of an answer, from the request's Origin header and whether it is a preflight. */
export type CorsPolicy = (origin: string | null | undefined, preflight: boolean) => Readonly<Record<string, string>>;

/**
 * The one CORS policy, for GraphQL (useCors) and the REST layer alike. With `CORS_ORIGINS=*` every
 * answer says `*` (as the upstreams do), so it does not depend on the Origin. With a list, a
 * listed origin is named and any other gets no CORS header at all (never `null`, which sandboxed
 * pages and file: URLs match); that answer depends on the Origin, so it always says `Vary: Origin`.
 * Keys travel in headers and arguments, never in cookies: no credentialed cross-origin requests.
 * The answers are built once, not per request: there are two per allowed origin.
 */
export function corsPolicy(config: Config): CorsPolicy {
  const granted = (origin: string, vary: Record<string, string>) => {
    const simple = Object.freeze({ 'access-control-allow-origin': origin, 'access-control-expose-headers': CORS_EXPOSED_HEADERS, ...vary });
    const preflight = Object.freeze({
      ...simple,
      'access-control-allow-methods': CORS_METHODS,
      'access-control-allow-headers': CORS_REQUEST_HEADERS,
    });
    return [simple, preflight] as const;
  };
  if (config.corsOrigins.includes('*')) {
    const [simple, preflight] = granted('*', {});
    return (_origin, isPreflight) => (isPreflight ? preflight : simple);
  }
  const byOrigin = new Map(config.corsOrigins.map((origin) => [origin, granted(origin, { vary: 'Origin' })]));
  const refused = Object.freeze({ vary: 'Origin' });
  return (origin, isPreflight) => (origin && byOrigin.get(origin)?.[isPreflight ? 1 : 0]) || refused;
}

/**
 * Browsers send "simple" GETs and form POSTs without a preflight: those must carry a custom
 * header. yoga's plugin refuses them without an error code; this one names it.
 */
function useCsrfPreventionWithCode(): Plugin {
  const csrf = useCSRFPrevention({ requestHeaders: ['x-graphql-yoga-csrf', 'apollo-require-preflight', 'x-apollo-operation-name'] });
  return {
    onRequestParse(payload) {
      try {
        return csrf.onRequestParse?.(payload);
      } catch (error) {
        throw createGraphQLError((error as Error).message, {
          extensions: { code: 'CSRF_HEADER_REQUIRED', http: { status: 403 } },
        });
      }
    },
  };
}

/**
 * The whole time a GraphQL request may take: past it the client gets `response()` (a clear 504) and
 * the request's cancellation aborts its upstream work. The cancellation (the context's signal, see
 * context.ts) also aborts when the client goes away. Not whatwg-node's useRequestDeadline: it
 * composes AbortSignals per request (AbortSignal.any, WeakRefs, a FinalizationRegistry), which on
 * Node 20 all die in the old generation: the GraphQL miss rows' p99 in `npm run bench`.
 */
function useRequestDeadline(timeoutMs: number, response: () => Response): Plugin<object, { cancellation?: Cancellation }> {
  return {
    onRequest({ request, serverContext, requestHandler, setRequestHandler }) {
      // On node:http the response tells when the client left; under yoga.fetch the request's signal does.
      const { res } = serverContext as { res?: ServerResponse };
      const cancellation = res ? untilClientLeaves(res) : new Cancellation();
      if (!res) request.signal.addEventListener('abort', () => cancellation.abort(request.signal.reason), { once: true });
      serverContext.cancellation = cancellation;
      setRequestHandler((req, context) => withDeadline(async () => requestHandler(req, context), timeoutMs, cancellation, response));
    },
  };
}

/** Applies the CORS policy to every yoga answer, and answers preflights (any path) with 204. */
function useCors(policy: CorsPolicy): Plugin {
  return {
    onRequest({ request, endResponse }) {
      // Safari waits for a body on a 204 without a content-length.
      if (request.method === 'OPTIONS') endResponse(new Response(null, { status: 204, headers: { 'content-length': '0' } }));
    },
    onResponse({ request, response }) {
      const headers = policy(request.headers.get('origin'), request.method === 'OPTIONS');
      for (const [name, value] of Object.entries(headers)) {
        if (name === 'vary') response.headers.append(name, value);
        else response.headers.set(name, value);
      }
    },
  };
}

/**
 * A masked (unexpected) error names the request id, so an operator can find it in the logs, where
 * it is written once, at `error`, with what it stands for (a cancelled request is no error).
 * graphql-ws answers go through it too (live/websocket.ts).
 */
export function unexpectedErrorIds(logger: Logger): (result: ExecutionResult, requestId: string) => ExecutionResult {
  return (result, requestId) => {
    if (!result.errors?.some((e) => e.extensions?.unexpected)) return result;
    return {
      ...result,
      errors: result.errors.map((error) => {
        if (!error.extensions?.unexpected) return error;
        const cause = causeOf(error);
        if (!isCancellation(cause)) logger.error({ requestId, path: error.path, error: errorFields(cause ?? error) }, 'unexpected error');
        // The field's AST nodes (or source positions) keep its `locations`, as every other field error has them.
        return new GraphQLError(`Unexpected error (request ${requestId})`, {
          nodes: error.nodes,
          source: error.source,
          positions: error.positions,
          path: error.path,
          extensions: { code: 'INTERNAL_SERVER_ERROR', requestId },
        });
      }),
    };
  };
}

function useUnexpectedErrorIds(logger: Logger): Plugin {
  const withIds = unexpectedErrorIds(logger);
  return {
    onResultProcess({ request, result, setResult }) {
      if (Symbol.asyncIterator in result) return;
      const results = Array.isArray(result) ? result : [result];
      if (!results.some((one) => one.errors?.some((e) => e.extensions?.unexpected))) return;
      const requestId = requestIdOf(request);
      setResult(Array.isArray(result) ? result.map((one) => withIds(one, requestId)) : withIds(result, requestId));
    },
  };
}

function isCancellation(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}
