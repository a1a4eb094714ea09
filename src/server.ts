/**
 * createServer: the yoga instance with the REST layer, GraphiQL and health endpoints. It never
 * listens: main.ts and the tests decide where it runs.
 */
import { createYoga, type Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { createContext } from './context.js';
import { maskError } from './errors.js';
import { DEFAULT_QUERY, renderGraphiQL, useGraphiQLAssets } from './graphiql.js';
import { useHttpCaching } from './http-caching.js';
import { redactPath } from './logger.js';
import { useRestCompat } from './rest/plugin.js';
import { schema } from './schema/index.js';
import type { Upstreams } from './upstream/index.js';

export interface ServerDeps {
  upstreams: Upstreams;
  logger: Logger;
}

export function createServer({ upstreams, logger }: ServerDeps) {
  return createYoga({
    schema,
    context: createContext(upstreams, logger),
    graphqlEndpoint: '/graphql',
    healthCheckEndpoint: '/healthz',
    landingPage: false,
    graphiql: { title: 'satgate', defaultQuery: DEFAULT_QUERY, shouldPersistHeaders: false },
    renderGraphiQL,
    maskedErrors: { maskError },
    // yoga's own logger would print at its own levels; ours is structured and redacted.
    logging: false,
    plugins: [useAccessLog(logger), useGraphiQLAssets(), useRestCompat(upstreams, logger), useHttpCaching()],
  });
}
export type SatgateServer = ReturnType<typeof createServer>;

/** One line per request at info: method, key-free path, status, duration. */
function useAccessLog(logger: Logger): Plugin {
  const started = new WeakMap<Request, number>();
  return {
    onRequest({ request }) {
      started.set(request, performance.now());
    },
    onResponse({ request, response }) {
      const begin = started.get(request);
      const url = new URL(request.url);
      logger.info(
        {
          method: request.method,
          path: redactPath(url.pathname),
          status: response.status,
          ms: begin === undefined ? undefined : Math.round((performance.now() - begin) * 10) / 10,
        },
        'request',
      );
    },
  };
}
