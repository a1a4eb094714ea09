import { GraphQLError, Kind, type GraphQLErrorOptions } from 'graphql';
import { maskError as yogaMaskError } from 'graphql-yoga';

/** The error codes of docs/errors.md. */
export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'RATE_LIMITED'
  | 'UPSTREAM_TIMEOUT'
  | 'UPSTREAM_UNAVAILABLE'
  | 'UPSTREAM_ERROR'
  | 'RESPONSE_BUDGET_EXCEEDED';

export type ServiceName = 'metadata' | 'ordinals' | 'runes' | 'platform' | 'unisat' | 'ord';

/**
 * The one error the upstream layer throws. `kind` says what went wrong; `status` is the upstream's
 * HTTP status where it answered. It never carries a URL, a header or a key. Two kinds are the
 * gateway's own refusals, made without calling: `client-limit` (the client has used its share of
 * the service's calls this minute) and `over-budget` (the request has used its answer bytes).
 */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
  constructor(
    readonly service: ServiceName,
    readonly kind: 'timeout' | 'unavailable' | 'status' | 'invalid-body' | 'too-large' | 'client-limit' | 'over-budget' | 'quota',
    readonly status?: number,
    /** Seconds, from the upstream's Retry-After (capped), or until the gateway sends again. */
    readonly retryAfter?: number,
    /** The gateway's limit that refused: calls a minute (`client-limit`), bytes (`over-budget`). */
    readonly limit?: number,
  ) {
    super(describe(service, kind, status, limit));
  }

  /** The data source that failed, when it is not hiro (docs/sources.md). */
  source?: string;

  /** The upstream's own message, where it gave a short one without secrets ("Chainhook not found"). */
  detail?: string;

  /**
   * A refusal of the asking client alone, nothing sent (a breaker its own failures opened): another
   * client asking for the same may be answered (coalesce.ts asks again as each joined client).
   */
  clientOnly?: boolean;
}

function describe(service: ServiceName, kind: UpstreamError['kind'], status?: number, limit?: number): string {
  switch (kind) {
    case 'quota':
      return `The gateway's budget of ${limit} calls a second to the ${service} service is spent; retry shortly`;
    case 'client-limit':
      return `This client has used its share of the ${service} service (${limit} calls a minute)`;
    case 'over-budget':
      return `This request's upstream answers would exceed ${limit} bytes; split it`;
    case 'timeout':
      return `The ${service} service did not answer in time`;
    case 'unavailable':
      return `The ${service} service could not be reached`;
    case 'invalid-body':
      return `The ${service} service sent an answer that is not the JSON the gateway expects`;
    case 'too-large':
      return `The ${service} service sent an answer larger than the gateway accepts`;
    case 'status':
      // A platform key is the caller's: say that it was the key the platform refused.
      if (service === 'platform' && (status === 401 || status === 403)) return `The platform service refused the API key (HTTP ${status})`;
      return `The ${service} service answered with HTTP ${status}`;
  }
}

export function badUserInput(message: string, argument?: string): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: 'BAD_USER_INPUT' satisfies ErrorCode, ...(argument ? { argument } : {}) },
  });
}

export function unauthenticated(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'UNAUTHENTICATED' satisfies ErrorCode } });
}

/** The single mapping from an upstream failure to the contract's GraphQL error codes. */
export function toGraphQLError(error: UpstreamError, code: ErrorCode = graphQLCode(error)): GraphQLError {
  const extensions: Record<string, unknown> = { code, service: error.service };
  if (error.status !== undefined) extensions.httpStatus = error.status;
  if (error.retryAfter !== undefined) extensions.retryAfter = error.retryAfter;
  if (error.limit !== undefined) extensions.limit = error.limit;
  if (error.source !== undefined) extensions.source = error.source;
  return new GraphQLError(error.detail ? `${error.message}: ${error.detail}` : error.message, { extensions });
}

function graphQLCode(error: UpstreamError): ErrorCode {
  if (error.kind === 'client-limit' || error.kind === 'quota') return 'RATE_LIMITED';
  if (error.kind === 'over-budget') return 'RESPONSE_BUDGET_EXCEEDED';
  if (error.kind === 'timeout') return 'UPSTREAM_TIMEOUT';
  if (error.kind === 'unavailable') return 'UPSTREAM_UNAVAILABLE';
  if (error.kind === 'invalid-body' || error.kind === 'too-large') return 'UPSTREAM_ERROR';
  switch (error.status) {
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'FORBIDDEN';
    case 429:
      return 'RATE_LIMITED';
    default:
      return 'UPSTREAM_ERROR';
  }
}

/** Retry-After is either delta-seconds or an HTTP date; answer whole seconds, or undefined. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * User input that cannot safely become part of an upstream URL (see upstream/paths.ts): a proxy
 * path that could leave the bitcoin-node root, a malformed key, a segment without an encoding.
 * `argument` names the input; the message never echoes it.
 */
export class UnsafePathError extends Error {
  override name = 'UnsafePathError';
  constructor(
    message: string,
    readonly argument = 'path',
  ) {
    super(message);
  }
}

/** What each masked error stands for: logged by useUnexpectedErrorIds, never sent to a client. */
const causes = new WeakMap<object, unknown>();

/** The original error behind a masked (INTERNAL_SERVER_ERROR) one, if it is one. */
export function causeOf(masked: object): unknown {
  return causes.get(masked);
}

/**
 * yoga's maskError, extended: upstream failures and unsafe input become the contract's codes; any
 * other unexpected error is masked as yoga does (a generic message, no stack, no internals), in
 * production and development alike. An execution error without a code (graphql-js's own, e.g. a
 * null in a non-null field) is a bug by the contract, so it is masked too.
 */
export function maskError(error: unknown, message: string): Error {
  const original = error instanceof GraphQLError ? error.originalError : error;
  const mapped =
    original instanceof UpstreamError
      ? toGraphQLError(original)
      : original instanceof UnsafePathError
        ? badUserInput(original.message, original.argument)
        : undefined;
  if (!mapped) {
    // graphql-js reports a missing or ill-typed variable at its definition, and an argument it
    // cannot take (a null variable for a non-null argument) at the argument's value, during
    // execution: both the client's input, without a code. Its own bugs name the field's node.
    const node = error instanceof GraphQLError && !error.extensions.code ? error.nodes?.[0] : undefined;
    if (error instanceof GraphQLError && node && node.kind !== Kind.FIELD && (original === undefined || original instanceof GraphQLError)) {
      // A variable's error stops the whole request, with no data: 400 where the client accepts
      // application/graphql-response+json, 200 for application/json (`spec`), as the GraphQL over
      // HTTP spec says. The compiled executor, like graphql-js, gives it no status of its own.
      const http =
        node.kind === Kind.VARIABLE_DEFINITION ? { http: { ...(error.extensions.http as object), spec: true, status: 400 } } : {};
      return located(error, { extensions: { ...error.extensions, ...http, code: 'BAD_USER_INPUT' satisfies ErrorCode } });
    }
    // graphql-js's own execution errors (a list that is not a list, a value a scalar cannot
    // serialise) have a path and no code: by the contract, a bug. yoga would pass them on as is.
    const uncoded =
      error instanceof GraphQLError &&
      error.path !== undefined &&
      error.extensions.code === undefined &&
      (original === undefined || original instanceof GraphQLError);
    // isDev false, always: yoga would put the original error, stack included, in the answer.
    const masked = yogaMaskError(uncoded ? located(error, { originalError: new Error(error.message) }) : error, message, false);
    if (masked !== error) causes.set(masked, original ?? error);
    return masked;
  }
  return error instanceof GraphQLError ? located(error, { extensions: mapped.extensions }, mapped.message) : mapped;
}

/** A new error at the same place (nodes, source, path) as `error`. */
function located(error: GraphQLError, options: GraphQLErrorOptions, message = error.message): GraphQLError {
  return new GraphQLError(message, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, ...options });
}
