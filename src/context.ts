import type { YogaInitialContext } from 'graphql-yoga';
import { createLoaders, type LoaderLimits, type Loaders } from './loaders.js';
import { requestIdOf } from './request-id.js';
import type { RequestStats } from './request-stats.js';
import type { CallOptions } from './upstream/http.js';
import type { Upstreams } from './upstream/index.js';

export interface GraphQLContext {
  loaders: Loaders;
  upstreams: Upstreams;
  /** Threaded into every upstream call: the client's abort signal, the request id, stale marking. */
  call: CallOptions;
  /** The request's `x-api-key` header: the platform key when a field has no `apiKey` argument. */
  apiKeyHeader: string | undefined;
  /** The oldest stale answer this request was given, in seconds (see useStaleMarker). */
  stale: { ageSeconds: number | undefined };
}

export function createContext(upstreams: Upstreams, limits: LoaderLimits) {
  /** `stats` is the listener's (server context); absent under yoga.fetch. */
  return ({ request, stats }: YogaInitialContext & { stats?: RequestStats }): GraphQLContext => {
    const stale: GraphQLContext['stale'] = { ageSeconds: undefined };
    const call: CallOptions = {
      signal: request.signal,
      requestId: requestIdOf(request),
      stats,
      onStale: (ageSeconds) => {
        stale.ageSeconds = Math.max(stale.ageSeconds ?? 0, ageSeconds);
      },
    };
    return {
      loaders: createLoaders(upstreams, call, limits),
      upstreams,
      call,
      apiKeyHeader: request.headers.get('x-api-key')?.trim() || undefined,
      stale,
    };
  };
}
