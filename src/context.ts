import type { YogaInitialContext } from 'graphql-yoga';
import type { LiveHub } from './live/hub.js';
import { createLoaders, type LoaderLimits, type Loaders } from './loaders.js';
import { requestIdOf } from './request-id.js';
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
  /** Subscriptions: the process's pollers and fan-out. */
  live: LiveHub;
}

export function createContext(upstreams: Upstreams, limits: LoaderLimits, live: LiveHub) {
  return ({ request }: YogaInitialContext): GraphQLContext => {
    const stale: GraphQLContext['stale'] = { ageSeconds: undefined };
    const call: CallOptions = {
      signal: request.signal,
      requestId: requestIdOf(request),
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
      live,
    };
  };
}
