/**
 * useRestCompat: answers the REST paths of CONTRACT.md as the upstream would, through the same
 * upstream layer as GraphQL, or lets the request fall through to GraphQL.
 */
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { redactPath } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { requestIdOf } from '../request-id.js';
import { UnsafePathError, UpstreamError } from '../errors.js';
import { etagMatches } from '../http-caching.js';
import type { UpstreamResponse } from '../upstream/http.js';
import type { Upstreams } from '../upstream/index.js';
import { fastifyError, jsonResponse } from './responses.js';
import { UPSTREAM_PREFIXES, routes, type RestRoute } from './routes.js';

/** Fastify's default maxParamLength: a longer parameter is a route 404 upstream. */
const MAX_PARAM_LENGTH = 100;

interface CompiledRoute {
  route: RestRoute;
  template: string;
  method: string;
  segments: string[];
  wildcard: boolean;
}

const compiled: CompiledRoute[] = routes.flatMap((route) =>
  route.paths.map((path) => {
    const wildcard = path.endsWith('/*');
    const segments = (wildcard ? path.slice(0, -2) : path).split('/').slice(1);
    return { route, template: path, method: route.method, segments, wildcard };
  }),
);

type Match = { route: RestRoute; template: string; params: Record<string, string>; rest: string } | 'bad-url' | undefined;

/** Matches the raw (still percent-encoded) path against the table; params come back decoded. */
function match(method: string, rawPath: string, search: string): Match {
  const parts = rawPath.split('/').slice(1);
  for (const candidate of compiled) {
    if (candidate.method !== method) continue;
    const { segments, wildcard } = candidate;
    // A wildcard also matches its root without the trailing slash (`…/bitcoin-node`).
    if (wildcard ? parts.length < segments.length : parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    for (let i = 0; i < segments.length && matched; i++) {
      const expected = segments[i]!;
      const actual = parts[i]!;
      if (expected.startsWith(':')) {
        let value: string;
        try {
          value = decodeURIComponent(actual);
        } catch {
          return 'bad-url';
        }
        if (value.length > MAX_PARAM_LENGTH) matched = false;
        params[expected.slice(1)] = value;
      } else if (expected !== actual) {
        matched = false;
      }
    }
    if (matched) {
      const rest = wildcard ? parts.slice(segments.length).join('/') + search : '';
      return { route: candidate.route, template: candidate.template, params, rest };
    }
  }
  return undefined;
}

/**
 * No answer from the upstream: 504 after the deadline, 429 while its quota is spent (as it would
 * answer itself), else 502, in the upstream's error format.
 */
function upstreamFailure(error: UpstreamError): Response {
  if (error.kind === 'timeout') return fastifyError(504, error.message);
  if (error.status === 429) {
    const response = fastifyError(429, 'Rate limit exceeded: retry later');
    if (error.retryAfter !== undefined) response.headers.set('retry-after', String(error.retryAfter));
    return response;
  }
  return fastifyError(502, error.message);
}

/** node's `req.url`: the raw request target, when the server runs on node:http. */
function rawTarget(serverContext: unknown): string | undefined {
  const req = (serverContext as { req?: { url?: unknown } } | undefined)?.req;
  return typeof req?.url === 'string' && req.url.startsWith('/') ? req.url : undefined;
}

const MIRRORED_HEADERS = ['content-type', 'etag', 'cache-control', 'retry-after'] as const;

/** The upstream's status, body, ETag and Cache-Control, as the client would have got them. */
function mirror(response: UpstreamResponse, method: string): Response {
  const headers = new Headers();
  for (const name of MIRRORED_HEADERS) {
    const value = response.headers[name];
    if (value !== undefined) headers.set(name, value);
  }
  if (response.stale) {
    // RFC 9111: a stored answer served because the upstream failed.
    headers.set('age', String(response.stale.ageSeconds));
    headers.set('warning', '111 - "Revalidation Failed"');
  }
  const empty = method === 'HEAD' || response.status === 204 || response.status === 304;
  return new Response(empty ? null : new Uint8Array(response.body), { status: response.status, headers });
}

function queryObject(params: URLSearchParams): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  return query;
}

export function useRestCompat(upstreams: Upstreams, logger: Logger, metrics: Metrics): Plugin {
  return {
    async onRequest({ request, url, endResponse, serverContext }) {
      // Match on the request target as sent: the URL parser resolves `..` and `%2e%2e`, which
      // would let `/v1/ext/k/bitcoin-node/%2e%2e/chainhooks/x` become another route.
      const target = rawTarget(serverContext) ?? url.pathname + url.search;
      const queryStart = target.indexOf('?');
      const rawPath = queryStart === -1 ? target : target.slice(0, queryStart);
      if (!UPSTREAM_PREFIXES.some((prefix) => rawPath.startsWith(prefix))) return;
      // HEAD works on every GET route upstream.
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const found = match(method, rawPath, url.search);
      if (found === 'bad-url') {
        // Fastify 4.15's FST_ERR_BAD_URL answer, as the upstream sends it.
        return endResponse(
          jsonResponse(
            400,
            { error: 'Bad Request', message: `'${rawPath}' is not a valid url component`, statusCode: 400 },
            'application/json',
          ),
        );
      }
      if (!found) {
        return endResponse(
          // Under /v1/ext/ the path holds the caller's platform key: never echo it.
          jsonResponse(404, {
            message: `Route ${request.method}:${redactPath(target)} not found`,
            error: 'Not Found',
            statusCode: 404,
          }),
        );
      }
      const started = performance.now();
      const response = await answer(found.route, found.params, found.rest, url, request);
      metrics.restRequest(found.template, response.status, (performance.now() - started) / 1000);
      endResponse(response);
    },
  };

  async function answer(
    route: RestRoute,
    params: Record<string, string>,
    rest: string,
    url: URL,
    request: Request,
  ): Promise<Response> {
    let query: unknown = {};
    if (route.query) {
      const result = route.query(queryObject(url.searchParams));
      if ('message' in result) return fastifyError(400, result.message);
      query = result.value;
    }
    const local = route.local?.({ params, query, rest });
    if (local) return local;
    try {
      const [service, upstreamRequest] = route.upstream(upstreams, { params, query, rest });
      const response = await service.request({
        ...upstreamRequest,
        signal: request.signal,
        requestId: requestIdOf(request),
      });
      if (etagMatches(request.headers.get('if-none-match'), response.headers.etag)) {
        // As the upstream's cache hook answers: 304, empty body, only Cache-Control.
        return new Response(null, { status: 304, headers: { 'cache-control': response.headers['cache-control'] ?? '' } });
      }
      return mirror(response, request.method);
    } catch (error) {
      if (error instanceof UnsafePathError) return fastifyError(400, error.message);
      if (error instanceof UpstreamError) return upstreamFailure(error);
      if (request.signal.aborted) return new Response(null, { status: 499 });
      logger.error({ err: error }, 'REST route failed');
      return fastifyError(500, 'Internal Server Error');
    }
  }
}
