/** The CORS headers of every answer: GraphQL (graphql/plugins/cors.ts), REST and the response fast path share them. */
import type { Config } from '../config.js';

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
