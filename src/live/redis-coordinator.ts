/**
 * With REDIS_URL, replicas share the polling: for each watched resource one replica holds a lease
 * in Redis and polls it; what it sees change goes to every replica through Redis pub/sub. Leases
 * are short (half the resource's poll interval, which each resource has its own of) and renewed
 * every third of it, so a replica that dies hands its leases on within one interval; one whose
 * polling pauses (its breaker open, its quota spent) gives them up for an interval, since another
 * replica may reach the upstream. When Redis cannot be reached each replica polls for itself: more
 * upstream calls, never a silent subscription.
 *
 * Only replicas that take each watched resource from the same place share it (liveDataScope): the
 * channel and the lease keys carry a hash of that place, so a replica of another configuration
 * (a staging upstream, UniSat where this one asks hiro) neither polls for this one nor hears it.
 *
 * Redis keys hold a hash of the resource key and a random replica id; values hold upstream answers
 * (public data), never an API key.
 */
import { hash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { keepSubscribed } from '../lib/redis-subscription.js';
import type { Coordinator, Snapshot } from './hub.js';
import { scopeDigest } from '../upstream/shared-state.js';

/**
 * Where the watched resources' data comes from: the status's service, and each list's source with
 * the base URL it is asked at. Credentials are left out: they change quotas, not the data.
 */
export function liveDataScope({ metadataUrl, ordinalsUrl, runesUrl, sources }: Config): string {
  const at = (source: 'hiro' | 'unisat' | 'ord', hiro: URL) =>
    `${source} ${(source === 'hiro' ? hiro : source === 'unisat' ? sources.unisatUrl : sources.ordUrl)?.href ?? ''}`;
  return scopeDigest([metadataUrl.href, at(sources.brc20, ordinalsUrl), at(sources.etchings, runesUrl)].join('\n'));
}

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

interface Message {
  from: string;
  key: string;
  /** Absent from older replicas' messages: a 200. */
  status?: number;
  etag?: string;
  body: string;
}

export function createRedisCoordinator(url: URL, defaultIntervalMs: number, logger: Logger, scope: string): Coordinator {
  const channel = `satgate:v1:live:${scope}:changes`;
  const leaseKey = (key: string) => `satgate:v1:live:${scope}:lease:${hash('sha256', key, 'hex').slice(0, 32)}`;
  const options = {
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 1000,
    retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
  };
  const redis = new Redis(url.href, { ...options, enableOfflineQueue: false });
  // Subscribed on each (re)connection, and again while Redis refuses it (keepSubscribed).
  const subscriber = new Redis(url.href, { ...options, enableOfflineQueue: true, autoResubscribe: false });
  redis.on('error', () => {});
  subscriber.on('error', () => {});
  const id = randomUUID();
  const log = logger.child({ component: 'live-redis' });
  /**
   * Per watched key: whether this replica holds the lease, the next renewal's timer, until when it
   * leaves the lease to others, and its poll interval (each resource has its own: poll-shares.ts).
   */
  const leases = new Map<string, { held: boolean; timer?: NodeJS.Timeout; asideUntil?: number; intervalMs: number }>();
  const listeners: Array<(key: string, snapshot: Snapshot) => void> = [];
  let redisDown = false;
  /**
   * Pub/sub delivers a change once, to the connections subscribed as it is published: while this
   * replica's subscription is down (reconnecting, or cut by Redis's pubsub output-buffer limit) it
   * hears nothing, so it polls alone; after each (re)subscription it polls each resource once more,
   * for a change published while it was deaf.
   */
  let listening = false;
  let closing = false;
  let subscriptions = 0;
  /**
   * Per watched key: the subscription this replica last polled it under, and the one a poll owed
   * since went out under. Owed until answered: a poll that paused (breaker, quota) or failed saw
   * nothing, and the change it was for would reach this replica's subscribers only with the next.
   */
  const polledUnder = new Map<string, number>();
  const owedUnder = new Map<string, number>();

  const tryLease = async (key: string) => {
    const lease = leases.get(key);
    if (!lease || (lease.asideUntil ?? 0) > Date.now()) return;
    const ttl = String(Math.max(20, Math.ceil(lease.intervalMs / 2)));
    try {
      lease.held = lease.held
        ? (await redis.eval(RENEW, 1, leaseKey(key), id, ttl)) === 1 || (await redis.set(leaseKey(key), id, 'PX', ttl, 'NX')) === 'OK'
        : (await redis.set(leaseKey(key), id, 'PX', ttl, 'NX')) === 'OK';
      if (redisDown) log.info('redis reachable again: replicas share polling');
      redisDown = false;
    } catch (error) {
      if (!redisDown) log.warn({ err: error instanceof Error ? error.message : String(error) }, 'redis unreachable: polling alone');
      redisDown = true;
    }
  };

  /**
   * Takes or renews the lease of `key` now, and again a third of its interval later: re-armed each
   * time from its interval now, since the lease's TTL follows it. A period kept from a longer
   * interval let a shorter TTL lapse between renewals, and another replica poll beside this one.
   */
  const renew = (key: string) => {
    const lease = leases.get(key);
    if (!lease) return;
    lease.timer = setTimeout(() => renew(key), Math.max(10, Math.floor(lease.intervalMs / 3)));
    lease.timer.unref();
    void tryLease(key);
  };

  keepSubscribed(subscriber, channel, () => {
    if (subscriptions > 0 && !listening) log.info('redis subscription back: replicas share polling');
    listening = true;
    subscriptions++;
  });
  subscriber.on('close', () => {
    if (listening && !closing) log.warn('redis subscription lost: polling alone');
    listening = false;
  });
  subscriber.on('message', (_channel: string, text: string) => {
    let message: Message;
    try {
      message = JSON.parse(text) as Message;
    } catch {
      return;
    }
    if (message.from === id || typeof message.key !== 'string' || typeof message.body !== 'string') return;
    const status = typeof message.status === 'number' ? message.status : 200;
    const snapshot = { status, etag: message.etag, body: Buffer.from(message.body, 'base64') };
    for (const listener of listeners) listener(message.key, snapshot);
  });

  return {
    async lead(key, interval) {
      const lease = leases.get(key);
      if (lease) lease.intervalMs = interval;
      // Without Redis, or deaf to it, every replica decides alone.
      if (redisDown || !listening) return true;
      if (polledUnder.get(key) !== subscriptions) {
        owedUnder.set(key, subscriptions);
        return true;
      }
      return lease?.held === true;
    },
    publish(key, snapshot) {
      const message: Message = { from: id, key, status: snapshot.status, etag: snapshot.etag, body: snapshot.body.toString('base64') };
      redis.publish(channel, JSON.stringify(message)).catch(() => {});
    },
    polled(key) {
      const under = owedUnder.get(key);
      if (under === undefined) return;
      owedUnder.delete(key);
      polledUnder.set(key, under);
    },
    standDown(key, ms) {
      const lease = leases.get(key);
      if (!lease) return;
      lease.asideUntil = Date.now() + ms;
      if (lease.held) redis.eval(RELEASE, 1, leaseKey(key), id).catch(() => {});
      lease.held = false;
    },
    onChange(listener) {
      listeners.push(listener);
    },
    watch(key) {
      if (leases.has(key)) return;
      leases.set(key, { held: false, intervalMs: defaultIntervalMs });
      polledUnder.set(key, subscriptions);
      renew(key);
    },
    unwatch(key) {
      const lease = leases.get(key);
      if (!lease) return;
      clearTimeout(lease.timer);
      leases.delete(key);
      polledUnder.delete(key);
      owedUnder.delete(key);
      if (lease.held) redis.eval(RELEASE, 1, leaseKey(key), id).catch(() => {});
    },
    async close() {
      closing = true;
      for (const key of [...leases.keys()]) this.unwatch(key);
      await Promise.allSettled([redis.quit(), subscriber.quit()]);
    },
  };
}
