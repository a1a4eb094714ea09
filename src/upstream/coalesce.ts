/**
 * Coalescing of one service's cached GETs: a fresh answer the store holds in process is answered at
 * once; otherwise identical concurrent requests share one lookup through the HTTP cache
 * (http-cache.ts), which is cancelled only when the last of its waiters has gone away.
 */
import { UpstreamError, type ServiceName } from '../errors.js';
import { Cancellation, type CancelSignal } from '../lib/cancellation.js';
import { merged } from '../lib/merge.js';
import type { UpstreamEvents } from '../observe/metrics.js';
import type { TraceSpan } from '../observe/tracing.js';
import type { Cached, HttpCache } from './http-cache.js';
import { JoinedClients } from './joined-clients.js';
import type { UpstreamRequest, UpstreamResponse } from './request.js';

export class Coalescer {
  /** In-flight GETs by cache key: concurrent identical requests share one upstream call. */
  private readonly inflight = new Map<string, SharedCall>();

  constructor(
    private readonly name: ServiceName,
    /** The stage below: the HTTP cache. */
    private readonly cache: HttpCache,
    private readonly events: UpstreamEvents,
  ) {}

  /** The answer under cache key `key`: fresh in process, or from the lookup shared by every identical request. */
  answer(key: string, req: UpstreamRequest): Promise<UpstreamResponse> {
    // Past the cache, and past calls already in flight: they may have started before what it must see.
    if (req.fresh) {
      return this.cache.throughCache(key, req).then(({ response, outcome }) => {
        req.stats?.noteCache(outcome);
        if (response.stale) req.onStale?.(response.stale.ageSeconds);
        return response;
      });
    }
    const peeked = this.cache.peekFresh(key);
    if (peeked) {
      this.events.cache(this.name, 'hit');
      req.stats?.noteCache('hit');
      req.trace?.set('satgate.cache.outcome', 'hit');
      return Promise.resolve(peeked.response);
    }
    let shared = this.inflight.get(key);
    const joined = shared !== undefined;
    if (shared) {
      this.events.cache(this.name, 'coalesced');
      req.trace?.set('satgate.cache.outcome', 'coalesced');
      if (shared.trace) req.trace?.link(shared.trace);
    } else {
      // One call for every waiter: it is cancelled only when the last of them has gone away.
      const cancellation = new Cancellation();
      const joiners = new JoinedClients();
      const call: SharedCall = {
        waiters: 0,
        cancellation,
        client: req.client,
        joiners,
        trace: req.trace,
        promise: this.cache
          .throughCache(key, merged(req, { signal: cancellation, joined: joiners }))
          .finally(() => this.inflight.delete(key)),
      };
      this.inflight.set(key, call);
      shared = call;
    }
    const { client } = shared;
    // Another client waits for the call too: where calls queue in turns by client, it goes in this one's.
    if (joined && req.client !== undefined && req.client !== client) shared.joiners.add(req.client);
    return wait(shared, req.signal).then(
      ({ response, outcome }) => {
        req.stats?.noteCache(outcome);
        if (!joined) req.trace?.set('satgate.cache.outcome', outcome);
        if (response.stale) req.onStale?.(response.stale.ageSeconds);
        return response;
      },
      (error: unknown) => {
        req.stats?.noteCache('miss');
        if (!joined) req.trace?.set('satgate.cache.outcome', 'miss');
        // Refused for the client that started the call (its share spent, a breaker its own failures
        // opened), not for this one: a client joining a call never pays for it, nor is it refused
        // for another's share or failures. Ask as itself.
        if (joined && client !== req.client && error instanceof UpstreamError && (error.kind === 'client-limit' || error.clientOnly)) {
          return this.answer(key, req);
        }
        throw error;
      },
    );
  }
}

/** An in-flight GET shared by every identical request. */
interface SharedCall {
  promise: Promise<Cached>;
  cancellation: Cancellation;
  waiters: number;
  /** Who started it: charged for its upstream calls. */
  client: string | undefined;
  /** The other clients waiting for it. */
  joiners: JoinedClients;
  /** Its lookup span, when traced: the joiners' spans link to it. */
  trace: TraceSpan | undefined;
}

/**
 * Waits for a shared call, but lets one waiter leave when its own client goes away; when the last
 * waiter leaves, the upstream call itself is cancelled.
 */
function wait(call: SharedCall, signal: CancelSignal | undefined): Promise<Cached> {
  if (!signal) {
    call.waiters++;
    return call.promise;
  }
  if (signal.aborted) return Promise.reject(signal.reason);
  call.waiters++;
  return new Promise<Cached>((resolve, reject) => {
    const stopWatching = onAbort(signal, () => {
      if (--call.waiters === 0) call.cancellation.abort(signal.reason);
      reject(signal.reason);
    });
    call.promise.then(
      (value) => {
        stopWatching();
        resolve(value);
      },
      (error: unknown) => {
        stopWatching();
        reject(error);
      },
    );
  });
}

/**
 * Calls `listener` when `signal` aborts, until the returned function is called. A Cancellation
 * (every request the gateway serves) keeps its listeners in a set of its own. On an AbortSignal,
 * one listener per signal, however many lookups wait on it: a query with dozens of fields would
 * otherwise add one listener per lookup to the same signal (and Node warns past 10).
 */
const abortWatchers = new WeakMap<CancelSignal, Set<() => void>>();
function onAbort(signal: CancelSignal, listener: () => void): () => void {
  if (signal instanceof Cancellation) {
    signal.addEventListener('abort', listener);
    return () => signal.removeEventListener('abort', listener);
  }
  let listeners = abortWatchers.get(signal);
  if (!listeners) {
    const watching = new Set<() => void>();
    signal.addEventListener('abort', () => watching.forEach((notify) => notify()), { once: true });
    abortWatchers.set(signal, watching);
    listeners = watching;
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}
