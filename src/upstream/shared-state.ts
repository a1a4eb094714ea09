/**
 * With REDIS_URL, what one worker or replica learns about an upstream's quota ("blocked until")
 * and health ("breaker open until") is shared, so ten replicas do not spend the quota ten times
 * over or hammer a service that one of them already found down. Publishing is fire-and-forget; a
 * poll applies the others' state. Redis being down only means each replica decides alone.
 *
 * Values read back are cut by their targets (a quota block to MAX_UPSTREAM_WAIT_MS, a breaker to
 * one cooldown), so a bad or old value cannot block a service for longer; the next publish then
 * replaces it. Only service-wide signals are shared: the platform's per-tenant state stays in
 * each process (sharing it would need a secret common to every replica, and a poll per tenant).
 */
import { hash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ServiceName } from '../errors.js';

/** The Redis keys of one service's signals. */
export interface SignalKeys {
  quota: string;
  breaker: string;
}

/** A short digest of what a Redis key is scoped to (a configuration, a URL and key): never the text itself. */
export function scopeDigest(text: string): string {
  return hash('sha256', text, 'base64url').slice(0, 22);
}

/** An upstream as the replicas that ask it share its state: its base URL, and the key it is asked with. */
export function upstreamScope(baseUrl: URL, apiKey?: string): string {
  return scopeDigest(`${baseUrl.href}\n${apiKey ?? ''}`);
}

/**
 * A service's signals are shared by the replicas that ask it at the same base URL: a staging
 * replica's upstream down is not production's. A quota is also the API key's own (the key never
 * reaches Redis, only upstreamScope's digest).
 */
export function signalKeys(name: ServiceName, baseUrl: URL, apiKey?: string): SignalKeys {
  return {
    quota: `satgate:v1:quota:${name}:${upstreamScope(baseUrl, apiKey)}`,
    breaker: `satgate:v1:breaker:${name}:${upstreamScope(baseUrl)}`,
  };
}

export interface SharedSignals {
  quotaBlocked(keys: SignalKeys, until: number): void;
  breakerOpened(keys: SignalKeys, until: number): void;
}

export interface SharedTarget {
  keys: SignalKeys;
  quota: { blockUntil(until: number): void; readonly until: number };
  breaker: { openUntil(until: number): void; readonly sharedOpenUntilTime: number };
}

export function createSharedSignals(redis: Redis, logger: Logger) {
  const publish = (key: string, until: number) => {
    const ttl = Math.ceil(until - Date.now());
    if (ttl <= 0) return;
    redis.set(key, String(until), 'PX', ttl).catch(() => {
      // The cache store reports Redis outages; a lost signal only means less sharing.
    });
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    quotaBlocked: (keys: SignalKeys, until: number) => publish(keys.quota, until),
    breakerOpened: (keys: SignalKeys, until: number) => publish(keys.breaker, until),
    /**
     * Every `intervalMs`: publishes this instance's live signals again (a publish lost to a Redis
     * hiccup is repaired on the next tick), then applies the other instances' signals.
     */
    start(targets: SharedTarget[], intervalMs = 500) {
      const keys = targets.flatMap((t) => [t.keys.quota, t.keys.breaker]);
      timer = setInterval(() => {
        for (const target of targets) {
          publish(target.keys.quota, target.quota.until);
          publish(target.keys.breaker, target.breaker.sharedOpenUntilTime);
        }
        redis
          .mget(keys)
          .then((values) => {
            targets.forEach((target, i) => {
              const quota = Number(values[2 * i]);
              const breaker = Number(values[2 * i + 1]);
              if (quota > Date.now()) target.quota.blockUntil(quota);
              if (breaker > Date.now()) target.breaker.openUntil(breaker);
            });
          })
          .catch((error: unknown) => logger.trace({ err: String(error) }, 'shared upstream state poll failed'));
      }, intervalMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
