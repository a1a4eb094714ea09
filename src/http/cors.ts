/** The CORS headers of every answer: GraphQL (graphql/plugins/cors.ts), REST and the response fast path share them. */
import type { Config } from '../config.js';

const CORS_METHODS = 'GET, POST, DELETE, OPTIONS';
const CORS_EXPOSED_HEADERS =
  'etag, x-request-id, retry-after, age, warning, ratelimit-limit, ratelimit-remaining, ratelimit-reset, x-data-source';

/** The CORS headers of an answer, from the request's Origin header and whether it is a preflight. */
export type CorsPolicy = (origin: string | null | undefined, preflight: boolean) => Readonly<Record<string, string>>;

/**
 * The one CORS policy, for GraphQL (useCors) and the REST layer alike. With `CORS_ORIGINS=*` every
 * answer says `*` (as the upstreams do), so it does not depend on the Origin. With a list, a
 * listed origin is named and any other gets no CORS header at all (never `null`, which sandboxed
 * pages and file: URLs match); that answer depends on the Origin, so it always says `Vary: Origin`.
 * Keys travel in headers and arguments, never in cookies: no credentialed cross-origin requests.
 * A preflight allows the headers of CORS_ALLOWED_HEADERS (a browser sends a request only if every
 * header on it is allowed). The answers are built once, not per request: two per allowed origin.
 */
export function corsPolicy(config: Config): CorsPolicy {
  const allowedHeaders = config.corsAllowedHeaders.join(', ');
  const granted = (origin: string, vary: Record<string, string>) => {
    const simple = Object.freeze({ 'access-control-allow-origin': origin, 'access-control-expose-headers': CORS_EXPOSED_HEADERS, ...vary });
    const preflight = Object.freeze({
      ...simple,
      'access-control-allow-methods': CORS_METHODS,
      'access-control-allow-headers': allowedHeaders,
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
