import type { YogaInitialContext } from 'graphql-yoga';
import type { Logger } from 'pino';
import { createLoaders, type Loaders } from './loaders.js';
import type { Upstreams } from './upstream/index.js';

export interface GraphQLContext {
  loaders: Loaders;
  upstreams: Upstreams;
  /** Aborts when the client goes away: threaded into every upstream call. */
  signal: AbortSignal;
  /** The request's `x-api-key` header: the platform key when a field has no `apiKey` argument. */
  apiKeyHeader: string | undefined;
  logger: Logger;
}

export function createContext(upstreams: Upstreams, logger: Logger) {
  return ({ request }: YogaInitialContext): GraphQLContext => ({
    loaders: createLoaders(upstreams, request.signal),
    upstreams,
    signal: request.signal,
    apiKeyHeader: request.headers.get('x-api-key')?.trim() || undefined,
    logger,
  });
}
