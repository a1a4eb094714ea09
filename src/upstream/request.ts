/**
 * The upstream layer's request and answer, as the rooms above it use them: what a client method
 * is asked with (CallOptions), what it sends (UpstreamRequest) and answers (UpstreamResponse), and
 * the answers a stored GraphQL result rests on (UsedAnswers); and how a service is set up
 * (ServiceOptions), with the contract of the stores its answers are cached in (CacheStore). Types only.
 */
import type { Logger } from 'pino';
import type { CancelSignal } from '../lib/cancellation.js';
import type { ServiceName } from '../errors.js';
import type { RequestStats } from '../http/request-stats.js';
import type { UpstreamEvents } from '../observe/metrics.js';
import type { TraceSpan } from '../observe/tracing.js';
import type { ClientCallLimiter } from './client-limits.js';
import type { ResponseBudget } from './response-budget.js';
import type { FlightBoard } from './shared-flights.js';
import type { JoinedClients } from './joined-clients.js';
import type { SharedSignals } from './shared-state.js';

export interface UpstreamRequest {
  method?: 'GET' | 'HEAD' | 'DELETE';
  /** Encoded path below the service's base path, starting with `/` (built with paths.ts). */
  path: string;
  /** Route template for logs and metrics, e.g. `/ordinals/v1/brc-20/tokens/:ticker`: never a raw path. */
  route: string;
  query?: Record<string, string | number | string[] | undefined> | string;
  /** Set by the cache when it revalidates a stored answer. */
  ifNoneMatch?: string;
  /** The client's abort signal: a client that leaves cancels its upstream work. */
  signal?: CancelSignal;
  /** Passed upstream as x-request-id and logged. */
  requestId?: string;
  /** Told when the answer is a stored one served past freshness because the upstream failed. */
  onStale?: (ageSeconds: number) => void;
  /**
   * The tenant whose breaker, quota and share of connections the request uses, on a per-tenant
   * service (the platform's API key). Kept only as a keyed hash; never logged.
   */
  tenant?: string;
  /** Who asked (a keyed hash of the client's address): charged for the upstream calls it causes. */
  client?: string;
  /** Other clients waiting for this call (coalesced): a queue by client serves it in their turns too. */
  joined?: JoinedClients;
  /** The answer never changes (ord's deep block hashes): a stored result does not rest on it. */
  final?: boolean;
  /**
   * Asked of the upstream whatever the cache holds, the answer stored in its place: a source's
   * pages read again together when the cached ones disagree (sources/consistent-pages.ts), and a
   * live poll that must see what is there now (live/baselines.ts).
   */
  fresh?: boolean;
  /** The asking request's budget of upstream answer bytes (GraphQL requests). */
  budget?: ResponseBudget;
  /** The client request's access-log counters: upstream calls sent, cache outcomes. */
  stats?: CallStats;
  /**
   * When tracing is on: the span this request's spans are children of (a loader batch or a
   * GraphQL operation); else the client request's own (stats.trace).
   */
  trace?: TraceSpan;
  /**
   * The asking request's budget of upstream lookups. GraphQL's (MAX_UPSTREAM_CALLS_PER_REQUEST):
   * a lookup is counted once by the loaders; a data source that needs further pages for it
   * (UniSat's events, ord's runes pages) charges each here first: `take` throws when the budget is
   * spent, before the page is asked. A REST route is one lookup and counts no pages. Further calls
   * a source makes side by side (ord's block hashes) go through `spread`, within the request's
   * MAX_CONCURRENT_UPSTREAM_CALLS_PER_REQUEST, for both (request-slots.ts).
   */
  lookups?: LookupBudget;
  /**
   * Epoch ms past which nobody waits for the answer (its field's deadline, upstream/deadline.ts): a
   * request asked then fails as a timeout unsent, and no attempt or wait runs past it.
   */
  notAfter?: number;
}

/** A service's probe path: answered cheaply by the service itself (e.g. `/ordinals/v1`, its status). */
export type ProbePath = Pick<UpstreamRequest, 'path' | 'route'>;

export interface LookupBudget {
  take(): void;
  /** `run` for each item, answers in order: on the lookup's own slot and the request's free ones. */
  spread<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]>;
}

/** What a caller adds to a client method's request. */
export type CallOptions = Pick<
  UpstreamRequest,
  'signal' | 'requestId' | 'onStale' | 'client' | 'budget' | 'stats' | 'trace' | 'lookups' | 'notAfter' | 'fresh'
>;

/**
 * The client request's stats as the upstream layer updates them: its access-log counters and its
 * span (http/request-stats.ts, which imports nothing from this room), and, on a request whose
 * result the response cache may keep (server/response-cache.ts), the upstream answers it used.
 */
export interface CallStats extends RequestStats {
  used?: UsedAnswers;
}

export interface UpstreamResponse {
  status: number;
  /** The headers a client may see: content-type, etag, cache-control, retry-after (lowercase). */
  headers: Record<string, string>;
  body: Buffer;
  /**
   * The parsed body, kept from its second reading (service.ts parse): a cached answer that many
   * requests read is parsed twice, not once per request.
   */
  parsed?: unknown;
  /** Set when a stored answer is served past its freshness because the upstream failed. */
  stale?: { ageSeconds: number };
}

/**
 * A cached upstream answer a GraphQL result was built from, with what it takes to ask for it again
 * (server/response-cache.ts keeps a result only while all of its answers are current).
 */
export interface UsedAnswer {
  service: AnswerSource;
  key: string;
  request: Pick<UpstreamRequest, 'method' | 'path' | 'route' | 'query' | 'tenant'>;
  response: UpstreamResponse;
}

/**
 * What a stored result asks of the service behind each answer it rests on (UpstreamService
 * implements it): whether the answer is still current, and to ask for it again.
 */
export interface AnswerSource {
  isCurrent(used: UsedAnswer, confirmedSince?: number): boolean;
  confirm(used: UsedAnswer, call: CallOptions): Promise<boolean>;
}

/**
 * The answers one request used (CallStats.used): `complete` turns false once it used anything
 * that is not a current cached answer (an uncached call, a stale answer, a failure). `asked` holds
 * what the request already got by key: one request never asks for the same answer twice (a stored
 * result found changed is executed with the answer that showed the change).
 */
export interface UsedAnswers {
  answers: UsedAnswer[];
  complete: boolean;
  asked: Map<string, Promise<UpstreamResponse>>;
}

export interface CacheEntry {
  response: UpstreamResponse;
  /** When the upstream last confirmed this answer (stored or revalidated), epoch ms. */
  validatedAt: number;
}

export interface CacheStore {
  get(key: string): Promise<CacheEntry | undefined>;
  /** A synchronous read where the store can (in process): the warm path skips all async work. */
  peek?(key: string): CacheEntry | undefined;
  /**
   * `retainMs`: how long the entry may be kept for revalidation and stale serving. A shared store
   * writes in the background: the promise never waits for the network.
   */
  set(key: string, entry: CacheEntry, retainMs: number): Promise<void>;
  /** Told that a response it may hold now carries its parsed body (`parsed`), which costs memory too. */
  memoised?(response: UpstreamResponse): void;
  close(): Promise<void>;
}

export interface CachePolicy {
  store: CacheStore;
  /** Freshness window: inside it no upstream call is made. 0 revalidates every time. */
  ttlMs: number;
  notFoundTtlMs: number;
  /** How long past freshness a stored answer may be served when the upstream fails. */
  staleIfErrorMs: number;
  /**
   * The service's ETag is global (one value for every route: ordinals, runes), so one
   * revalidation answered 304 proves every entry carrying that ETag current.
   */
  globalEtag: boolean;
  /** With Redis: identical misses of the group's processes make one upstream call (shared-flights.ts). */
  flights?: FlightBoard;
}

export interface RetryPolicy {
  /** Extra attempts for idempotent requests (never for DELETE). */
  retries: number;
  breakerThreshold: number;
  breakerCooldownMs: number;
  /** The longest wait learnt from the upstream (Retry-After, ratelimit-reset) that is honoured or told. */
  maxWaitMs: number;
}

export interface ServiceOptions {
  name: ServiceName;
  baseUrl: URL;
  /** Sent as `x-api-key` when set. */
  apiKey?: string;
  /** Sent with every attempt (a data source's own credentials, e.g. `authorization`); never logged. */
  headers?: Record<string, string>;
  /**
   * Awaited before each attempt is sent (a data source's calls-per-second budget, which takes
   * waiting calls in turns by `client`, and by the clients that `joined` it): it may wait until
   * `deadline` (epoch ms), or throw an UpstreamError; nothing is sent then.
   */
  beforeAttempt?: (signal: AbortSignal, deadline: number, client?: string, joined?: JoinedClients) => Promise<void>;
  timeoutMs: number;
  logger: Logger;
  /** The pool's connection cap: requests beyond it queue in the pool. */
  connections: number;
  /** A larger answer is refused (UPSTREAM_ERROR), never buffered. */
  maxResponseBytes: number;
  retry: RetryPolicy;
  /** A JSON API: an answer that cannot be one of its answers is a failure (json-answer.ts). */
  answersJson?: boolean;
  /** GETs are cached and coalesced when set. */
  cache?: CachePolicy;
  events?: UpstreamEvents;
  /** With Redis: quota blocks and breaker openings are told to the other workers and replicas. */
  shared?: SharedSignals;
  /**
   * A breaker, quota gate and share of the pool per tenant (`UpstreamRequest.tenant`) instead of
   * one for the service: the platform, where each API key has its own quota and its own devnet.
   */
  perTenant?: boolean;
  /**
   * Per-client fairness: the upstream calls one client may cause a minute, or `fair-share` for 20%
   * of the quota the upstream advertises (no limit while it has advertised none). Unset: no limit.
   */
  clientCallsPerMinute?: number | 'fair-share';
  /** The quota a minute the service is known to have where it advertises none (UniSat's calls a second × 60): what `fair-share` is a share of. */
  quotaPerMinute?: number;
  /** Where clients' calls are counted (client-limits.ts); default: this process alone. */
  clientLimiter?: ClientCallLimiter;
  /**
   * A fixed, cheap path the service answers (a well-known item's lookup): the gateway asks it
   * itself as the breaker's half-open probe (guards/service-probe.ts). Unset: a client's request
   * is the probe.
   */
  probe?: ProbePath;
}
