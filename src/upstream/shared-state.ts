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
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ServiceName } from '../errors.js';

export interface SharedSignals {
  quotaBlocked(service: ServiceName, until: number): void;
  breakerOpened(service: ServiceName, until: number): void;
}

export interface SharedTarget {
  name: ServiceName;
  quota: { blockUntil(until: number): void; readonly until: number };
  breaker: { openUntil(until: number): void; readonly sharedOpenUntilTime: number };
}

const key = (kind: 'quota' | 'breaker', service: ServiceName) => `satgate:v1:${kind}:${service}`;

export function createSharedSignals(redis: Redis, logger: Logger) {
  const publish = (kind: 'quota' | 'breaker', service: ServiceName, until: number) => {
    const ttl = Math.ceil(until - Date.now());
    if (ttl <= 0) return;
    redis.set(key(kind, service), String(until), 'PX', ttl).catch(() => {
      // The cache store reports Redis outages; a lost signal only means less sharing.
    });
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    quotaBlocked: (service: ServiceName, until: number) => publish('quota', service, until),
    breakerOpened: (service: ServiceName, until: number) => publish('breaker', service, until),
    /**
     * Every `intervalMs`: publishes this instance's live signals again (a publish lost to a Redis
     * hiccup is repaired on the next tick), then applies the other instances' signals.
     */
    start(targets: SharedTarget[], intervalMs = 500) {
      const keys = targets.flatMap((t) => [key('quota', t.name), key('breaker', t.name)]);
      timer = setInterval(() => {
        for (const target of targets) {
          publish('quota', target.name, target.quota.until);
          publish('breaker', target.name, target.breaker.sharedOpenUntilTime);
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
