/**
 * The REST compatibility layer: answers the paths of docs/rest.md as the upstream would, through
 * the same upstream layer as GraphQL. It runs on node:http directly, ahead of yoga: a warm answer
 * is a few header writes, without building fetch Request/Response objects.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { untilClientLeaves, withDeadline, type Cancellation } from '../lib/cancellation.js';
import { clientIdOf } from '../http/client-identity.js';
import { UnsafePathError, UpstreamError } from '../errors.js';
import { etagMatches } from '../http/etag.js';
import { merged } from '../lib/merge.js';
import { headerValue, writeHead } from '../http/node-response.js';
import { errorFields, redactPath } from '../observe/logger.js';
import type { Metrics } from '../observe/metrics.js';
import type { RequestStats } from '../http/request-stats.js';
import type { CorsPolicy } from '../http/cors.js';
import type { CallOptions, UpstreamResponse } from '../upstream/request.js';
import type { Upstreams } from '../upstream/index.js';
import { MAX_PARAM_LENGTH } from '../upstream/paths.js';
import { SingleLookup } from '../upstream/request-slots.js';
import { fastifyError, jsonAnswer, routeNotFound, type RestAnswer } from './responses.js';
import { UPSTREAM_PREFIXES, routes, type RestRoute } from './routes.js';
import { redactedAll } from '../upstream/redact.js';

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

/**
 * The path as the upstream's router (find-my-way 7, url-sanitizer.js) matches it: an escape of a
 * character decodeURI leaves encoded (`# $ & + , / : ; = ? @`) stays as it is; any other escape, or
 * `%25`, has the whole path decoded with decodeURI (so `/runes/v1/etching%73` is the etchings route),
 * `%25` kept encoded; a path decodeURI refuses is Fastify's bad-URL 400. `/` is never decoded, so
 * its segments are the raw path's.
 */
function routerPath(rawPath: string): string | 'bad-url' {
  if (!/%(?!2[346BbCcFf]|3[AaBbDdFf]|40)/.test(rawPath)) return rawPath;
  try {
    return decodeURI(rawPath.replace(/%25/g, '%2525'));
  } catch {
    return 'bad-url';
  }
}

/**
 * Matches the path against the table as the upstream's router does (routerPath); params come back
 * decoded, and a wildcard's rest as the client wrote it.
 */
function match(method: string, rawPath: string, query: string): Match {
  const path = routerPath(rawPath);
  const rawParts = rawPath.split('/').slice(1);
  const parts = path === 'bad-url' || path === rawPath ? rawParts : path.split('/').slice(1);
  for (const candidate of compiled) {
    if (candidate.method !== method) continue;
    // The platform's router is not known to be find-my-way: its wildcard route checks its path itself.
    if (path === 'bad-url' && !candidate.wildcard) continue;
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
      const rest = wildcard ? rawParts.slice(segments.length).join('/') + (query ? `?${query}` : '') : '';
      return { route: candidate.route, template: candidate.template, params, rest };
    }
  }
  return path === 'bad-url' ? path : undefined;
}

/**
 * No answer from the upstream: 504 after the deadline, 429 while its quota is spent (as it would
 * answer itself) or this client has used its share (with the IETF draft's RateLimit headers),
 * else 502, in the upstream's error format.
 */
function upstreamFailure(error: UpstreamError): RestAnswer {
  if (error.kind === 'timeout') return fastifyError(504, error.message);
  if (error.kind === 'client-limit') {
    const answer = fastifyError(429, `${error.message}: retry in ${error.retryAfter} s`);
    Object.assign(answer.headers, {
      'retry-after': String(error.retryAfter),
      'ratelimit-limit': String(error.limit),
      'ratelimit-remaining': '0',
      'ratelimit-reset': String(error.retryAfter),
    });
    return answer;
  }
  if (error.status === 429 || error.kind === 'quota') {
    const answer = fastifyError(429, 'Rate limit exceeded: retry later');
    if (error.retryAfter !== undefined) answer.headers['retry-after'] = String(error.retryAfter);
    return answer;
  }
  return fastifyError(502, error.message);
}

const MIRRORED_HEADERS = ['content-type', 'etag', 'cache-control', 'retry-after', 'x-data-source'] as const;

/**
 * A mirrored body keeps the upstream's bytes and Content-Type, but it is not the gateway origin's
 * page: an upstream (or a proxy before it) answering `text/html` with a script would otherwise run
 * it on the origin GraphiQL keeps its headers on. Browsers neither sniff nor run what REST answers.
 */
const INERT: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
};

/** The upstream's status, body, ETag and Cache-Control, as the client would have got them. */
function mirror(response: UpstreamResponse): RestAnswer {
  const headers: Record<string, string> = {};
  for (const name of MIRRORED_HEADERS) {
    const value = response.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  if (response.stale) {
    // RFC 9111: a stored answer served because the upstream failed.
    headers.age = String(response.stale.ageSeconds);
    headers.warning = '111 - "Revalidation Failed"';
  }
  return { status: response.status, headers, body: response.body };
}

/**
 * An error's body as the upstream sent it, but for `secrets`: a platform that quotes the request's
 * path (a Fastify 404) would echo its key, and a hiro service refusing HIRO_API_KEY may quote it;
 * no answer echoes one (the GraphQL side leaves such messages out). Successful answers are the
 * upstream's own, passed on whole.
 */
function withoutSecrets(response: UpstreamResponse, secrets: readonly string[]): UpstreamResponse {
  if (secrets.length === 0 || response.status < 400) return response;
  const text = response.body.toString('utf8');
  const safe = redactedAll(text, secrets);
  return safe === text ? response : { ...response, body: Buffer.from(safe) };
}

/** Own properties only: `?__proto__=…` is a parameter like any other, never a prototype. */
function queryObject(params: URLSearchParams): Record<string, unknown> {
  // One pass: getAll per distinct key would be quadratic in a query string of many keys.
  const byKey = new Map<string, string[]>();
  for (const [key, value] of params) {
    const values = byKey.get(key);
    if (values) values.push(value);
    else byKey.set(key, [value]);
  }
  return Object.fromEntries([...byKey].map(([key, values]) => [key, values.length === 1 ? values[0] : values]));
}

export interface RestDeps {
  upstreams: Upstreams;
  logger: Logger;
  metrics: Metrics;
  /** The same CORS policy yoga applies to GraphQL. */
  cors: CorsPolicy;
  /** REQUEST_TIMEOUT_MS: past it the answer is a 504, and the request's upstream work is cancelled. */
  requestTimeoutMs: number;
  /** TRUST_PROXY: how many proxies' X-Forwarded-For entries to believe (who the client is). */
  trustProxy: number;
  /** MAX_CONCURRENT_UPSTREAM_CALLS_PER_REQUEST: a route's calls in flight at once (a source's further calls). */
  maxConcurrentUpstreamCalls: number;
  /** Every credential the gateway holds (configuredSecrets): never in a mirrored error body. */
  secrets?: readonly string[];
}

/** What a REST request passes to its upstream calls: its abort signal, request id, client and stats. */
type RouteCall = CallOptions & { signal: Cancellation; requestId: string };

export function createRestHandler({
  upstreams,
  logger,
  metrics,
  cors,
  requestTimeoutMs,
  trustProxy,
  maxConcurrentUpstreamCalls,
  secrets = [],
}: RestDeps) {
  /** What the upstream would answer for this raw request target; `call` goes with its upstream calls. */
  async function answer(method: string, target: string, headers: IncomingMessage['headers'], call: RouteCall): Promise<RestAnswer> {
    // Where the upstream's router (find-my-way) ends the path: at the first `?`, `;` or `#` after
    // the leading slash; all that follows is the query string (`/x;a=1?b=2` asks with a=1?b=2).
    const queryStart = target.slice(1).search(/[?;#]/) + 1;
    const rawPath = queryStart === 0 ? target : target.slice(0, queryStart);
    const rawQuery = queryStart === 0 ? '' : target.slice(queryStart + 1);
    // HEAD works on every GET route upstream.
    const found = match(method === 'HEAD' ? 'GET' : method, rawPath, rawQuery);
    if (found === 'bad-url') {
      // Fastify 4.15's FST_ERR_BAD_URL answer, as the upstream sends it: the whole request target,
      // query included (but never echoing a key).
      const message = `'${redactPath(target)}' is not a valid url component`;
      return jsonAnswer(400, { error: 'Bad Request', message, statusCode: 400 }, 'application/json');
    }
    // Under /v1/ext/ the path holds the caller's platform key: never echo it.
    if (!found) return routeNotFound(method, target);
    if (call.stats) call.stats.route = found.template;
    const started = performance.now();
    // The whole request gets REQUEST_TIMEOUT_MS, as GraphQL does: then a 504 in the upstream's
    // format, and the upstream work is cancelled.
    const result = await withDeadline(
      () => answerRoute(found.route, found.params, found.rest, rawQuery, headers, call),
      requestTimeoutMs,
      call.signal,
      () => fastifyError(504, `The request took longer than ${requestTimeoutMs} ms`),
    );
    metrics.restRequest(found.template, result.status, (performance.now() - started) / 1000);
    return result;
  }

  async function answerRoute(
    route: RestRoute,
    params: Record<string, string>,
    rest: string,
    rawQuery: string,
    headers: IncomingMessage['headers'],
    call: RouteCall,
  ): Promise<RestAnswer> {
    let query: unknown = {};
    if (route.query) {
      const result = route.query(queryObject(new URLSearchParams(rawQuery)));
      if ('message' in result) return fastifyError(400, result.message);
      query = result.value;
    }
    if (!route.upstream) return route.local({ params, query, rest });
    const local = route.local?.({ params, query, rest });
    if (local) return local;
    try {
      const input = { params, query, rest };
      // A data source other than hiro answers in hiro's shape; hiro's answers are mirrored as they are.
      const sourced = route.sourced?.(upstreams, input, call);
      let response: UpstreamResponse;
      /** What its error may not quote: the key it was asked with (a platform tenant's) and every configured one. */
      let unquotable: readonly string[] = [];
      if (sourced) response = await sourced;
      else {
        const [service, upstreamRequest] = route.upstream(upstreams, input);
        unquotable = upstreamRequest.tenant === undefined ? secrets : [upstreamRequest.tenant, ...secrets];
        response = await service.request(merged(upstreamRequest, call));
      }
      const ifNoneMatch = headers['if-none-match'];
      // A 304 says "what you have is current": a reading's answer only (GET, and HEAD as GET). A
      // DELETE was carried out, and its answer is the client's only word of it.
      const reading = route.method === 'GET';
      if (reading && etagMatches(typeof ifNoneMatch === 'string' ? ifNoneMatch : null, response.headers.etag)) {
        // As the upstream's cache hook answers: 304, empty body, only Cache-Control. A source's 304
        // also names the ETag it confirms (RFC 9110 15.4.5), its bytes' own.
        const cacheControl = response.headers['cache-control'];
        const cached: Record<string, string> = cacheControl === undefined ? {} : { 'cache-control': cacheControl };
        if (sourced)
          return { status: 304, headers: { ...cached, etag: response.headers.etag!, 'x-data-source': response.headers['x-data-source']! } };
        return { status: 304, headers: cached };
      }
      return mirror(withoutSecrets(response, unquotable));
    } catch (error) {
      if (error instanceof UnsafePathError) return fastifyError(400, error.message);
      if (error instanceof UpstreamError) return upstreamFailure(error);
      if (call.signal.aborted) return { status: 499, headers: {} };
      logger.error({ requestId: call.requestId, error: errorFields(error) }, 'unexpected error');
      return fastifyError(500, `Unexpected error (request ${call.requestId})`);
    }
  }

  return {
    /** Paths under the upstreams' prefixes belong here (OPTIONS preflights stay with yoga's CORS). */
    handles(method: string | undefined, target: string | undefined): boolean {
      if (!target || method === 'OPTIONS') return false;
      return UPSTREAM_PREFIXES.some((prefix) => target.startsWith(prefix));
    },

    async serve(req: IncomingMessage, res: ServerResponse, requestId: string, stats?: RequestStats): Promise<void> {
      const cancellation = untilClientLeaves(res);
      const method = req.method ?? 'GET';
      // The request target as sent: a URL parser would resolve `..` and `%2e%2e`, letting
      // `/v1/ext/k/bitcoin-node/%2e%2e/chainhooks/x` become another route.
      const call: RouteCall = {
        signal: cancellation,
        requestId,
        client: clientIdOf(req, trustProxy),
        stats,
        // The route is one lookup: a source's further calls (ord's height, block hashes) share its bound.
        lookups: new SingleLookup(maxConcurrentUpstreamCalls),
      };
      const result = await answer(method, req.url ?? '/', req.headers, call);
      if (res.destroyed) return;
      const body = result.status === 204 || result.status === 304 ? undefined : result.body;
      const own: Record<string, string> =
        body === undefined
          ? { 'x-request-id': requestId }
          : { 'x-request-id': requestId, 'content-length': String(Buffer.byteLength(body)) };
      writeHead(res, result.status, cors(headerValue(req.headers.origin), false), result.headers, INERT, own);
      res.end(method === 'HEAD' ? undefined : body);
    },
  };
}
export type RestHandler = ReturnType<typeof createRestHandler>;
