import type { IncomingMessage, ServerResponse } from 'node:http';
import type { YogaInitialContext } from 'graphql-yoga';
import type { Cancellation } from '../lib/cancellation.js';
import { clientIdOf } from '../http/client-identity.js';
import type { LiveHub } from '../live/hub.js';
import { createLoaders, type Loaders } from './loaders.js';
import { requestLimiter, type LoaderLimits, type RequestLimiter } from './request-limiter.js';
import { requestIdOf } from '../http/request-id.js';
import type { RequestStats } from '../http/request-stats.js';
import type { CallOptions } from '../upstream/request.js';
import { ResponseBudget } from '../upstream/response-budget.js';
import type { Upstreams } from '../upstream/index.js';
import { SourcesUsed } from '../sources/provenance.js';

export interface GraphQLContext {
  loaders: Loaders;
  upstreams: Upstreams;
  /**
   * Threaded into every upstream call: the client's abort signal, the request id, stale marking,
   * who is charged for the calls, and the request's budget of upstream answer bytes.
   */
  call: CallOptions;
  /** The request's `x-api-key` header: the platform key when a field has no `apiKey` argument. */
  apiKeyHeader: string | undefined;
  /** The oldest stale answer this request was given, in seconds (see useStaleMarker). */
  stale: { ageSeconds: number | undefined };
  /** Subscriptions: the process's pollers and fan-out. */
  live: LiveHub;
  /** node:http's response over HTTP (yoga's server context, merged in); absent over WebSocket and yoga.fetch. */
  res?: ServerResponse;
  /** The data sources other than hiro this request used (extensions.sources). */
  sources: SourcesUsed;
}

export interface ContextOptions extends LoaderLimits {
  /** MAX_RESPONSE_BYTES_PER_REQUEST. */
  maxResponseBytes: number;
  /** TRUST_PROXY: how many proxies' X-Forwarded-For entries to believe. */
  trustProxy: number;
  /** GRAPHQL_BATCH_LIMIT above 0: one request may carry several operations. */
  batching?: boolean;
}

/** One HTTP request's budgets: MAX_UPSTREAM_CALLS_PER_REQUEST's lookups and MAX_RESPONSE_BYTES_PER_REQUEST's bytes. */
interface RequestBudgets {
  limit: RequestLimiter;
  budget: ResponseBudget;
}

export function createContext(upstreams: Upstreams, { maxResponseBytes, trustProxy, batching, ...limits }: ContextOptions, live: LiveHub) {
  const budgetsOf = (): RequestBudgets => ({ limit: requestLimiter(limits), budget: new ResponseBudget(maxResponseBytes) });
  // A batch's operations are one request: they share its budgets, or a batch of n would spend n
  // times each. Kept by the Request they share only where batching is on (a WeakMap entry per
  // request is work for every scavenge).
  const batches = batching ? new WeakMap<Request, RequestBudgets>() : undefined;
  const budgetsFor = (request: Request): RequestBudgets => {
    if (!batches) return budgetsOf();
    let budgets = batches.get(request);
    if (!budgets) batches.set(request, (budgets = budgetsOf()));
    return budgets;
  };
  // On node:http, yoga's server context carries the node request (`req`) and the listener's
  // `stats`; under yoga.fetch it has neither.
  return ({
    request,
    req,
    stats,
    cancellation,
  }: YogaInitialContext & { req?: IncomingMessage; stats?: RequestStats; cancellation?: Cancellation }): GraphQLContext => {
    const stale: GraphQLContext['stale'] = { ageSeconds: undefined };
    const { limit, budget } = budgetsFor(request);
    const call: CallOptions = {
      // The request deadline's (plugins/request-deadline.ts): it aborts when the client leaves or the deadline passes.
      signal: cancellation ?? request.signal,
      requestId: requestIdOf(request),
      stats,
      onStale: (ageSeconds) => {
        stale.ageSeconds = Math.max(stale.ageSeconds ?? 0, ageSeconds);
      },
      client: req ? clientIdOf(req, trustProxy) : undefined,
      budget,
    };
    const sources = new SourcesUsed();
    return {
      loaders: createLoaders(upstreams, call, limit, sources),
      sources,
      upstreams,
      call,
      apiKeyHeader: request.headers.get('x-api-key')?.trim() || undefined,
      stale,
      live,
    };
  };
}
