/**
 * Subscriptions without a streaming upstream: one poller per watched resource (never one per
 * subscriber), re-asking the upstream through the upstream layer (its cache sends If-None-Match)
 * every LIVE_POLL_INTERVAL_MS while at least one subscriber watches, and stopping when the last
 * one leaves. An unchanged answer (a 304: the same stored body) costs nothing more; a changed one
 * is decoded once and fanned out to every subscriber.
 *
 * Polling stays within LIVE_QUOTA_SHARE of the upstream's rate limit, split between the watched
 * resources by weight: 1 / the number a client watches, the most any watcher gives
 * (poll-shares.ts), so one client's many resources slow only its own; every poll, a new poller's
 * first one included, is admitted by the plan (poll-plan.ts), so a new subscription's first value
 * may come later, never outside it. Waiting polls take turns by client (a first poll is the paying
 * client's; re-polls are the process's, one more turn), so one client's backlog delays only
 * itself. Until a poller has its value, its calls are charged to the client of the oldest
 * subscriber waiting for it
 * (CLIENT_UPSTREAM_CALLS_PER_MINUTE, through the upstream layer's client windows); a client whose
 * share is spent gets RATE_LIMITED with retryAfter on that subscription, which then ends, as a
 * query's field would. A new subscriber of an event resource (etchingAdded) starts from a poll that
 * began after it joined, made for it like a first poll (baselines.ts). Unknown tickers are
 * remembered (unknown-resources.ts), and each client's subscriptions and watched resources are
 * bounded (client-seats.ts). Polling pauses, without ending subscriptions, while the service's
 * quota is spent or its breaker is open. With several replicas a Coordinator (Redis) lets one of
 * them poll each resource and hands the changes to the others; a replica without the lease still
 * makes its own subscribers' baseline polls.
 */
import { Repeater, SlidingBuffer } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { UpstreamError } from '../errors.js';
import { RequestStats } from '../http/request-stats.js';
import { noLiveEvents, type LiveEvents } from '../observe/metrics.js';
import type { UpstreamResponse } from '../upstream/request.js';
import type { Upstreams } from '../upstream/index.js';
import { Baselines } from './baselines.js';
import { ClientSeats, tooManySubscriptions } from './client-seats.js';
import { PollPlan } from './poll-plan.js';
import { PollShares } from './poll-shares.js';
import { resourceDef, resourceKey, type LiveResource, type ResourceDef } from './resources.js';
import { UnknownResources } from './unknown-resources.js';

/** An upstream answer as passed between replicas: enough to decode it again. */
export interface Snapshot {
  /** 200 when absent (a state); 404 for a resource that does not exist. */
  status?: number;
  etag: string | undefined;
  body: Buffer;
}

/**
 * An event that ends one subscription with an error: the subscription field's resolver throws
 * `error`, so the client gets it as a query's field error (code, retryAfter), then the stream ends.
 */
export class LiveFailure {
  constructor(readonly error: Error) {}
}

/** Who polls what. In one process: this one, always. With Redis: the holder of a lease. */
export interface Coordinator {
  /** Whether this replica polls `key` now (takes or renews its lease). */
  lead(key: string, intervalMs: number): Promise<boolean>;
  /** Tells the other replicas of a change this replica polled. */
  publish(key: string, snapshot: Snapshot): void;
  /**
   * This replica cannot poll `key` now (its breaker is open, its quota spent): it gives the lease
   * up and leaves it to another replica for `ms`, which may see the upstream answer.
   */
  standDown(key: string, ms: number): void;
  /** This replica's poll of `key` was answered by the upstream (not from a stale store). */
  polled(key: string): void;
  /** Changes polled by other replicas. */
  onChange(listener: (key: string, snapshot: Snapshot) => void): void;
  /** This replica watches `key` (again) or no longer. */
  watch(key: string): void;
  unwatch(key: string): void;
  close(): Promise<void>;
}

export const localCoordinator = (): Coordinator => ({
  lead: async () => true,
  publish() {},
  standDown() {},
  polled() {},
  onChange() {},
  watch() {},
  unwatch() {},
  close: async () => {},
});

export interface LiveSettings {
  intervalMs: number;
  /** This process's part of the rate limit: LIVE_QUOTA_SHARE split between the WORKERS. */
  quotaShare: number;
  /** Upstream requests a minute; 0 when unknown. */
  rateLimitPerMinute: number;
  maxSubscriptions: number;
  /** Active subscriptions per client, SSE and WebSocket together. */
  maxSubscriptionsPerClient: number;
  /** Distinct resources one client's subscriptions may watch. */
  maxWatchedResourcesPerClient: number;
  /** Subscriptions one client may start in a minute. */
  subscriptionStartsPerClientPerMinute: number;
}

export function liveSettings(config: Config): LiveSettings {
  return {
    intervalMs: config.livePollIntervalMs,
    // Each worker polls for its own subscribers (with Redis, the resources it holds the lease of):
    // split, the group's polls stay within LIVE_QUOTA_SHARE of the one quota they all spend.
    quotaShare: config.liveQuotaShare / config.workers,
    rateLimitPerMinute: plannedRateLimit(config),
    maxSubscriptions: config.maxSubscriptions,
    maxSubscriptionsPerClient: config.maxSubscriptionsPerClient,
    maxWatchedResourcesPerClient: config.maxWatchedResourcesPerClient,
    subscriptionStartsPerClientPerMinute: config.subscriptionStartsPerClientPerMinute,
  };
}

/**
 * The rate limit polling plans with: Hiro's (LIVE_RATE_LIMIT_PER_MINUTE), or UniSat's budget
 * (UNISAT_RATE_LIMIT_PER_SECOND × 60) when UniSat serves a resource subscriptions watch and its
 * budget is the smaller, so that polls spend at most LIVE_QUOTA_SHARE of UniSat's calls too.
 */
function plannedRateLimit(config: Config): number {
  const { brc20, etchings, unisatRatePerSecond } = config.sources;
  if (brc20 !== 'unisat' && etchings !== 'unisat') return config.liveRateLimitPerMinute;
  const unisat = unisatRatePerSecond * 60;
  return config.liveRateLimitPerMinute > 0 ? Math.min(config.liveRateLimitPerMinute, unisat) : unisat;
}

type PlanSettings = Pick<LiveSettings, 'intervalMs' | 'quotaShare' | 'rateLimitPerMinute'>;

/** The polls a minute the plan allows: the quota share of the known rate limit; Infinity when unknown. */
export function pollsPerMinute(settings: PlanSettings): number {
  return settings.rateLimitPerMinute > 0 ? settings.quotaShare * settings.rateLimitPerMinute : Infinity;
}

/**
 * The plan's turn for re-polls of watched resources: charged to no client, they take turns with
 * the clients' first polls as one more client, so neither can starve the other.
 */
const REPOLLS = Symbol('re-polls');

/** Buffered events per subscriber: states keep the newest only, etchings a bounded backlog. */
const STATE_BUFFER = 1;
const EVENT_BUFFER = 256;

/** One subscription, as its poller sees it. */
interface Subscriber {
  /** Who subscribed (a keyed hash, as the fairness windows key clients); undefined: unknown. */
  client: string | undefined;
  push(event: unknown): void;
  /** Ends the subscription with `error` (as its last event). */
  fail(error: Error): void;
}

interface PollerHub {
  /** The interval between two polls of `key` now (poll-shares.ts). */
  interval(key: string): number;
  coordinator: Coordinator;
  events: LiveEvents;
  logger: Logger;
  plan: PollPlan;
  unknown: UnknownResources;
}

class Poller {
  readonly subscribers = new Set<Subscriber>();
  /** Subscribers of an event resource still waiting for a poll started after they joined. */
  private readonly baselines = new Baselines<Subscriber>();
  private last: (Snapshot & { value: unknown }) | undefined;
  /** Set while the next poll waits for its time; unset while one runs. */
  private timer: NodeJS.Timeout | undefined;
  private readonly controller = new AbortController();
  private stopped = false;

  constructor(
    readonly def: ResourceDef,
    private readonly hub: PollerHub,
  ) {}

  start(): void {
    this.hub.coordinator.watch(this.def.key);
    const absence = this.hub.unknown.get(this.def.key);
    if (!absence) {
      // The first poll gives the value (and the baseline of what is new), whoever leads.
      void this.poll();
      return;
    }
    // Lately answered 404: that answer is the value now, and the next poll comes at the plan's pace.
    this.accept({ status: 404, headers: absence.etag ? { etag: absence.etag } : {}, body: absence.body }, false, false);
    this.schedule(this.hub.interval(this.def.key));
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.controller.abort();
    this.hub.coordinator.unwatch(this.def.key);
  }

  /**
   * A subscriber joins: a state's gets the value at once, when it is known; an event resource's
   * waits for a poll that starts from now on, asked now unless one is already running (then the
   * next one, right after it, serves every join meanwhile).
   */
  add(subscriber: Subscriber): void {
    this.subscribers.add(subscriber);
    if (!this.def.baselineAfterJoin) {
      if (this.last) for (const event of this.def.initial(this.last.value)) subscriber.push(event);
      return;
    }
    this.baselines.join(subscriber);
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    void this.poll();
  }

  remove(subscriber: Subscriber): void {
    this.subscribers.delete(subscriber);
    this.baselines.leave(subscriber);
  }

  private schedule(delayMs: number): void {
    if (!this.stopped) this.timer = setTimeout(() => void this.poll(), delayMs);
  }

  /** The subscribers without a value yet: a state's until its first, an event resource's until their baseline. */
  private waiters(): Iterable<Subscriber> {
    if (this.def.baselineAfterJoin) return this.baselines.waiters();
    return this.last ? [] : this.subscribers;
  }

  private async poll(): Promise<void> {
    const { def, hub } = this;
    const signal = this.controller.signal;
    this.timer = undefined;
    let next = hub.interval(def.key);
    let sent = false;
    try {
      const lead = await hub.coordinator.lead(def.key, next);
      if (this.stopped) return;
      const asker = this.payer();
      const waiting = asker !== NO_ONE;
      // Another replica polls it: this one asks only for subscribers without a value (a baseline
      // must come from a poll started after the join, which another replica's change cannot show).
      if (!lead && !waiting) return;
      // As this poll's client would meet the breaker: one opened by that client's failures (or the
      // gateway's own polls') alone refuses it, so the poll pauses and hands its lease on.
      const pause = () => {
        hub.events.poll(def.kind, 'paused');
        // Another replica may reach the upstream: it polls for every replica meanwhile.
        if (lead) hub.coordinator.standDown(def.key, next);
      };
      const health = def.service.health(undefined, (waiting && asker) || '');
      if (health.breaker === 'open' || ('quotaWaitSeconds' in health && health.quotaWaitSeconds > 0)) {
        pause();
        return;
      }
      // A poll for subscribers without a value waits in the turn of the client it will be charged
      // to, re-polls in the process's. A client has at most one waiting per resource it watches:
      // MAX_WATCHED_RESOURCES_PER_CLIENT.
      const slot = await hub.plan.admit(signal, waiting ? this.payer() : REPOLLS);
      // Made for the subscribers waiting for a value: the oldest one's client pays.
      const payer = this.payer();
      const client = payer === NO_ONE ? undefined : payer;
      const poll = this.baselines.start();
      sent = true;
      // Counts the upstream calls this poll sends: none, and its slot was not spent.
      const stats = new RequestStats();
      let response: UpstreamResponse;
      try {
        // A baseline is asked past the cache and past calls in flight: they may predate the join.
        const fresh = def.baselineAfterJoin && payer !== NO_ONE ? true : undefined;
        response = await def.service.request({ ...def.request, signal, client, fresh, stats });
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        if (error.kind === 'unavailable' && stats.upstreamCalls === 0) {
          // The breaker refused it before any call (it opened for this client since the check above,
          // the client changed, or another request holds its half-open probe): the slot goes to the
          // next poll, and this one pauses as it would have before its admission.
          slot.refund();
          sent = false;
          pause();
          return;
        }
        if (error.kind !== 'client-limit') throw error;
        // Refused before any call: the slot goes to the next poll, and the others waiting ask as themselves, now.
        slot.refund();
        if (this.stopped || payer === NO_ONE) return;
        this.refuse(client, error);
        if (this.payer() !== NO_ONE) next = 0;
        return;
      }
      if (this.stopped) return;
      // A stored answer served because the upstream failed is no poll of now: nobody's baseline.
      this.accept(response, lead, true, response.stale ? undefined : poll);
      if (!response.stale) hub.coordinator.polled(def.key);
    } catch (error) {
      if (this.stopped) return;
      hub.events.poll(def.kind, 'error');
      hub.logger.debug({ resource: def.kind, err: error instanceof Error ? error.message : String(error) }, 'live poll failed');
    } finally {
      // Subscribers that joined while this poll was sent wait for the next: it goes now (not after
      // a paused or skipped poll: that one waits for its time).
      this.schedule(sent && this.baselines.needsPoll() ? 0 : next);
    }
  }

  /** The client of the oldest subscriber waiting for a value (a poll is made for it); NO_ONE when none waits. */
  private payer(): string | undefined | typeof NO_ONE {
    for (const subscriber of this.waiters()) return subscriber.client;
    return NO_ONE;
  }

  /** The waiting subscribers of `client` have spent its share: each gets the error, and leaves. */
  private refuse(client: string | undefined, error: UpstreamError): void {
    for (const subscriber of [...this.waiters()]) {
      if (subscriber.client !== client) continue;
      this.remove(subscriber);
      subscriber.fail(error);
    }
  }

  /**
   * An answer, polled here (`publish`) or by another replica. An unchanged body costs nothing more,
   * whatever its ETag (a global ETag moves with every block). `remember`: a 404 is noted as unknown.
   * `poll`: the number of this replica's poll that answered it, the baseline of the subscribers
   * that joined before it started (they get nothing of it).
   */
  accept(
    response: Pick<UpstreamResponse, 'status' | 'headers' | 'body'> & Partial<UpstreamResponse>,
    publish: boolean,
    remember = true,
    poll?: number,
  ): void {
    const { def, hub } = this;
    if (this.last && this.last.status === response.status && (response.body === this.last.body || response.body.equals(this.last.body))) {
      hub.events.poll(def.kind, 'unchanged');
      if (poll !== undefined) this.baselines.settle(poll);
      return;
    }
    const value = def.decode(response as UpstreamResponse);
    const events = def.changes(this.last?.value, value);
    const snapshot: Snapshot = { status: response.status, etag: response.headers.etag, body: response.body };
    this.last = { ...snapshot, value };
    if (remember && response.status === 404) hub.unknown.remember(def.key, snapshot);
    else if (remember) hub.unknown.forget(def.key);
    hub.events.poll(def.kind, 'changed');
    if (publish) hub.coordinator.publish(def.key, snapshot);
    for (const subscriber of this.subscribers) {
      if (!this.baselines.waits(subscriber)) for (const event of events) subscriber.push(event);
    }
    if (poll !== undefined) this.baselines.settle(poll);
  }
}

/** No subscriber waits for a value (payer()). */
const NO_ONE = Symbol('no one');

export interface LiveHubDeps {
  upstreams: Upstreams;
  settings: LiveSettings;
  logger: Logger;
  events?: LiveEvents;
  coordinator?: Coordinator;
}

export function createLiveHub({ upstreams, settings, logger, events = noLiveEvents, coordinator = localCoordinator() }: LiveHubDeps) {
  const pollers = new Map<string, Poller>();
  /** Each open stream's end, and how to drop its connection (HTTP streams; see `suspend`). */
  const streams = new Map<() => void, (() => void) | undefined>();
  const seats = new ClientSeats(settings);
  const shares = new PollShares(settings.intervalMs, pollsPerMinute(settings));
  let active = 0;
  let closed = false;
  const hub: PollerHub = {
    interval: (key) => shares.interval(key),
    coordinator,
    events,
    logger: logger.child({ component: 'live' }),
    plan: new PollPlan(pollsPerMinute(settings), REPOLLS),
    unknown: new UnknownResources(),
  };
  coordinator.onChange((key, snapshot) => {
    try {
      pollers
        .get(key)
        ?.accept({ status: snapshot.status ?? 200, headers: snapshot.etag ? { etag: snapshot.etag } : {}, body: snapshot.body }, false);
    } catch (error) {
      hub.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'live change from another replica ignored');
    }
  });

  /**
   * SIGTERM: polling stops, new subscriptions end at once, and each stream over HTTP has its
   * connection dropped, with no `complete` event or closing boundary: graphql-sse's client and
   * `EventSource` take that for a broken connection and subscribe again, through the load balancer,
   * to a replica that serves. The other streams (graphql-ws) stay open, silent, until their socket
   * closes with 1001, which graphql-ws's client retries too. A `complete` would end them for good.
   */
  const suspend = () => {
    if (closed) return;
    closed = true;
    for (const poller of pollers.values()) poller.stop();
    pollers.clear();
    for (const drop of [...streams.values()]) drop?.();
  };

  return {
    /**
     * The events of one resource for one subscriber (`client`: a keyed hash, as the fairness
     * windows key it), until it leaves, is refused its first value (a LiveFailure event), or the
     * hub closes; `drop` closes its HTTP connection (see `suspend`). Throws TOO_MANY_SUBSCRIPTIONS
     * when MAX_SUBSCRIPTIONS are active, or when the client holds its share (client-seats.ts).
     * Arguments are validated by the caller, before this.
     */
    subscribe(resource: LiveResource, client?: string, drop?: () => void): AsyncIterableIterator<unknown> {
      // Shutting down: the stream ends at once, cleanly.
      if (closed) return (async function* () {})();
      if (active >= settings.maxSubscriptions) {
        throw tooManySubscriptions(
          `This server holds its maximum of ${settings.maxSubscriptions} subscriptions; try again later`,
          settings.maxSubscriptions,
        );
      }
      const key = resourceKey(resource);
      const releaseSeat = seats.take(client, key);
      active++;
      events.subscriptions(active);
      let started = false;
      const release = () => {
        active--;
        releaseSeat();
        events.subscriptions(active);
      };
      const buffer = new SlidingBuffer(resource.kind === 'etchings' ? EVENT_BUFFER : STATE_BUFFER);
      const iterator = new Repeater<unknown>(async (push, stop) => {
        started = true;
        streams.set(stop, drop);
        let poller = pollers.get(key);
        const fresh = !poller;
        if (!poller) {
          poller = new Poller(resourceDef(upstreams, resource), hub);
          pollers.set(key, poller);
        }
        const subscriber: Subscriber = {
          client,
          push: (event) => {
            events.event(poller!.def.kind);
            void push(event);
          },
          fail: (error) => {
            void push(new LiveFailure(error));
            stop();
          },
        };
        shares.join(client, key);
        poller.add(subscriber);
        if (fresh) poller.start();
        await stop;
        streams.delete(stop);
        poller.remove(subscriber);
        shares.leave(client, key);
        // The last subscriber is gone: no more polls.
        if (poller.subscribers.size === 0 && pollers.get(key) === poller) {
          poller.stop();
          pollers.delete(key);
        }
        release();
      }, buffer);
      // An iterator closed before it started never ran its executor: release its slot here.
      const close = iterator.return.bind(iterator);
      iterator.return = (value?: unknown) => {
        if (!started) {
          started = true;
          release();
        }
        return close(value);
      };
      return iterator;
    },
    /** What a new subscription of `client` would be refused with now (client-seats.ts); undefined when it may start. */
    startRefusal(client: string | undefined) {
      return seats.startRefusal(client);
    },
    // eslint-disable-next-line no-restricted-syntax -- made once per process
    get active() {
      return active;
    },
    // eslint-disable-next-line no-restricted-syntax -- made once per process
    get watched() {
      return pollers.size;
    },
    suspend,
    /** After `suspend` and the sockets' close: completes any stream still open, and closes the coordinator. */
    async close() {
      suspend();
      for (const stop of [...streams.keys()]) stop();
      await coordinator.close();
    },
  };
}
export type LiveHub = ReturnType<typeof createLiveHub>;
