/**
 * Subscriptions without a streaming upstream: one poller per watched resource (never one per
 * subscriber), re-asking the upstream through the upstream layer (its cache sends If-None-Match)
 * every LIVE_POLL_INTERVAL_MS while at least one subscriber watches, and stopping when the last
 * one leaves. An unchanged answer (a 304: the same stored body) costs nothing more; a changed one
 * is decoded once and fanned out to every subscriber.
 *
 * Polling stays within LIVE_QUOTA_SHARE of the upstream's rate limit (intervals stretch evenly
 * when many resources are watched) and pauses, without ending subscriptions, while the service's
 * quota is spent or its breaker is open. With several replicas a Coordinator (Redis) lets one of
 * them poll each resource and hands the changes to the others.
 */
import { GraphQLError } from 'graphql';
import { Repeater, SlidingBuffer } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { noLiveEvents, type LiveEvents } from '../metrics.js';
import type { UpstreamResponse } from '../upstream/http.js';
import type { Upstreams } from '../upstream/index.js';
import { resourceDef, resourceKey, type LiveResource, type ResourceDef } from './resources.js';

/** An upstream answer as passed between replicas: enough to decode it again. */
export interface Snapshot {
  etag: string | undefined;
  body: Buffer;
}

/** Who polls what. In one process: this one, always. With Redis: the holder of a lease. */
export interface Coordinator {
  /** Whether this replica polls `key` now (takes or renews its lease). */
  lead(key: string, intervalMs: number): Promise<boolean>;
  /** Tells the other replicas of a change this replica polled. */
  publish(key: string, snapshot: Snapshot): void;
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
  onChange() {},
  watch() {},
  unwatch() {},
  close: async () => {},
});

export interface LiveSettings {
  intervalMs: number;
  quotaShare: number;
  /** Upstream requests a minute; 0 when unknown. */
  rateLimitPerMinute: number;
  maxSubscriptions: number;
}

export function liveSettings(config: Config): LiveSettings {
  return {
    intervalMs: config.livePollIntervalMs,
    quotaShare: config.liveQuotaShare,
    rateLimitPerMinute: config.liveRateLimitPerMinute,
    maxSubscriptions: config.maxSubscriptions,
  };
}

/**
 * The interval between two polls of one resource when `watched` resources are polled: the
 * configured one, stretched evenly so that all of them together stay within the quota share.
 */
export function pollIntervalMs(settings: LiveSettings, watched: number): number {
  if (settings.rateLimitPerMinute <= 0) return settings.intervalMs;
  const pollsPerMinute = settings.quotaShare * settings.rateLimitPerMinute;
  return Math.max(settings.intervalMs, Math.ceil((Math.max(1, watched) * 60_000) / pollsPerMinute));
}

/** Buffered events per subscriber: states keep the newest only, etchings a bounded backlog. */
const STATE_BUFFER = 1;
const EVENT_BUFFER = 256;

type Listener = (event: unknown) => void;

class Poller {
  readonly listeners = new Set<Listener>();
  private last: (Snapshot & { value: unknown }) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly controller = new AbortController();
  private stopped = false;

  constructor(
    readonly def: ResourceDef,
    private readonly hub: { interval(): number; coordinator: Coordinator; events: LiveEvents; logger: Logger },
  ) {}

  start(): void {
    this.hub.coordinator.watch(this.def.key);
    // The first poll gives the value now (and the baseline of what is new), whoever leads.
    void this.poll(true);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.controller.abort();
    this.hub.coordinator.unwatch(this.def.key);
  }

  /** What a new subscriber gets at once, when the value is already known. */
  initial(): unknown[] {
    return this.last ? this.def.initial(this.last.value) : [];
  }

  private async poll(first = false): Promise<void> {
    const { def, hub } = this;
    try {
      const lead = await hub.coordinator.lead(def.key, hub.interval());
      if (this.stopped) return;
      if (!lead && !first) return;
      const health = def.service.health();
      if (health.breaker === 'open' || ('quotaWaitSeconds' in health && health.quotaWaitSeconds > 0)) {
        hub.events.poll(def.kind, 'paused');
      } else {
        const response = await def.service.request({ ...def.request, signal: this.controller.signal });
        if (this.stopped) return;
        this.accept(response, lead);
      }
    } catch (error) {
      if (this.stopped) return;
      hub.events.poll(def.kind, 'error');
      hub.logger.debug({ resource: def.kind, err: error instanceof Error ? error.message : String(error) }, 'live poll failed');
    } finally {
      if (!this.stopped) this.timer = setTimeout(() => void this.poll(), hub.interval());
    }
  }

  /** An answer, polled here (`publish`) or by another replica. Unchanged answers cost nothing more. */
  accept(response: Pick<UpstreamResponse, 'status' | 'headers' | 'body'> & Partial<UpstreamResponse>, publish: boolean): void {
    const { def, hub } = this;
    if (this.last && (response.body === this.last.body || (response.headers.etag === this.last.etag && response.body.equals(this.last.body)))) {
      hub.events.poll(def.kind, 'unchanged');
      return;
    }
    const value = def.decode(response as UpstreamResponse);
    const events = def.changes(this.last?.value, value);
    this.last = { etag: response.headers.etag, body: response.body, value };
    hub.events.poll(def.kind, 'changed');
    if (publish) hub.coordinator.publish(def.key, { etag: response.headers.etag, body: response.body });
    for (const listener of this.listeners) for (const event of events) listener(event);
  }
}

export interface LiveHubDeps {
  upstreams: Upstreams;
  settings: LiveSettings;
  logger: Logger;
  events?: LiveEvents;
  coordinator?: Coordinator;
}

export function createLiveHub({ upstreams, settings, logger, events = noLiveEvents, coordinator = localCoordinator() }: LiveHubDeps) {
  const pollers = new Map<string, Poller>();
  const stops = new Set<() => void>();
  let active = 0;
  let closed = false;
  const hub = {
    interval: () => pollIntervalMs(settings, pollers.size),
    coordinator,
    events,
    logger: logger.child({ component: 'live' }),
  };
  coordinator.onChange((key, snapshot) => {
    try {
      pollers.get(key)?.accept({ status: 200, headers: snapshot.etag ? { etag: snapshot.etag } : {}, body: snapshot.body }, false);
    } catch (error) {
      hub.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'live change from another replica ignored');
    }
  });

  return {
    /**
     * The events of one resource for one subscriber, until it leaves (or the hub closes). Throws
     * when MAX_SUBSCRIPTIONS are active. Arguments are validated by the caller, before this.
     */
    subscribe(resource: LiveResource): AsyncIterableIterator<unknown> {
      // Shutting down: the stream ends at once, cleanly.
      if (closed) return (async function* () {})();
      if (active >= settings.maxSubscriptions) {
        throw new GraphQLError(`This server holds its maximum of ${settings.maxSubscriptions} subscriptions; try again later`, {
          extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit: settings.maxSubscriptions },
        });
      }
      const key = resourceKey(resource);
      active++;
      events.subscriptions(active);
      let started = false;
      const release = () => {
        active--;
        events.subscriptions(active);
      };
      const buffer = new SlidingBuffer(resource.kind === 'etchings' ? EVENT_BUFFER : STATE_BUFFER);
      const iterator = new Repeater<unknown>(async (push, stop) => {
        started = true;
        stops.add(stop);
        let poller = pollers.get(key);
        const fresh = !poller;
        if (!poller) {
          poller = new Poller(resourceDef(upstreams, resource), hub);
          pollers.set(key, poller);
        }
        const listener: Listener = (event) => {
          events.event(poller!.def.kind);
          void push(event);
        };
        poller.listeners.add(listener);
        for (const event of poller.initial()) listener(event);
        if (fresh) poller.start();
        await stop;
        stops.delete(stop);
        poller.listeners.delete(listener);
        // The last subscriber is gone: no more polls.
        if (poller.listeners.size === 0 && pollers.get(key) === poller) {
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
    get active() {
      return active;
    },
    get watched() {
      return pollers.size;
    },
    /** Completes every stream (SIGTERM) and stops every poller. */
    async close() {
      closed = true;
      for (const stop of [...stops]) stop();
      for (const poller of pollers.values()) poller.stop();
      pollers.clear();
      await coordinator.close();
    },
  };
}
export type LiveHub = ReturnType<typeof createLiveHub>;
