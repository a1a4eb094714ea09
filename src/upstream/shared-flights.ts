/**
 * Identical cache misses joined across workers and replicas (REDIS_URL): the first process to miss
 * a key takes its flight (a short lock in Redis) and asks the upstream; the others wait for it to
 * land, then read the answer it stored in the shared cache. N replicas watching the same data
 * spend one call, which matters where calls are counted by the second (UniSat).
 *
 * Joining is an optimisation, never a dependency: when Redis cannot answer promptly, when the
 * landing is not heard (no subscription yet), when the flight's lock lapses (its process died) or
 * when the leader stored nothing (it failed), a waiter asks the upstream itself.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CancelSignal } from '../lib/cancellation.js';
import { keepSubscribed } from '../lib/redis-subscription.js';

/** Longest wait for Redis to say who leads: past it, this process asks alone. */
const TAKE_WAIT_MS = 200;
/** After Redis failed to say in time, this process asks alone this long, without waiting on it. */
const ALONE_AFTER_SLOW_MS = 5_000;
/** Where the leaders say "landed": the message is the cache key. */
const CHANNEL = 'satgate:v1:flights:landed';

/** KEYS[1]: the flight's lock; ARGV: owner, ms. Answers 0 (taken) or the lock's remaining ms. */
const TAKE = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 0 end
return math.max(1, redis.call('PTTL', KEYS[1]))
`;
/** KEYS[1]: the flight's lock; ARGV: owner, cache key. Frees the lock if still ours and tells the waiters. */
const LAND = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return redis.call('PUBLISH', '${CHANNEL}', ARGV[2])
`;

/** This process's part in a key's flight. */
export type Flight =
  /** It asks the upstream; `land()` once the answer is stored (or the call failed). */
  | { role: 'lead'; land(): void }
  /** Another process's flight landed, or lapsed: read the store, and ask only if it has nothing new. */
  | { role: 'followed' }
  /** Redis could not tell: ask as if there were no other process. */
  | { role: 'alone' };

export interface FlightBoard {
  /**
   * Takes `key`'s flight, or waits for the one in the air, at most `maxMs` (the leader's own
   * deadline is the lock's life). Rejects only when `signal` aborts.
   */
  take(key: string, maxMs: number, signal?: CancelSignal): Promise<Flight>;
  close(): void;
}

const ALONE: Flight = { role: 'alone' };

export function createFlightBoard(redis: Redis): FlightBoard {
  const owner = randomUUID();
  let sequence = 0;
  let aloneUntil = 0;
  /** Waiters by cache key. */
  const waiting = new Map<string, Set<() => void>>();
  const landed = (key: string) => {
    const wake = waiting.get(key);
    waiting.delete(key);
    wake?.forEach((notify) => notify());
  };
  // Landings are heard on a connection of their own (a subscribed one takes no other command),
  // subscribed on each (re)connection below: ioredis's own resubscription would leave a refusal
  // (NOPERM, a Redis restarting) as an unhandled rejection.
  const listener = redis.duplicate({ autoResubscribe: false });
  let subscribed = false;
  listener.on('error', () => {
    // Commands report Redis outages; without a subscription every process asks alone.
  });
  keepSubscribed(listener, CHANNEL, () => (subscribed = true));
  listener.on('close', () => (subscribed = false));
  listener.on('message', (_channel: string, key: string) => landed(key));
  // Only a process that hears landings waits for one; the others ask alone.
  const hearing = () => subscribed && listener.status === 'ready';

  const lockOf = (key: string) => `${key}:flight`;

  /** Answers 0 (taken), the lock's remaining ms, or undefined when Redis did not answer in time. */
  async function claim(lock: string, member: string, ms: number): Promise<number | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), TAKE_WAIT_MS)));
    try {
      const answer = await Promise.race([redis.eval(TAKE, 1, lock, member, Math.ceil(ms)), late]);
      return typeof answer === 'number' ? answer : undefined;
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  function follow(key: string, lock: string, waitMs: number, signal?: CancelSignal): Promise<Flight> {
    return new Promise<Flight>((resolve, reject) => {
      let set = waiting.get(key);
      if (!set) waiting.set(key, (set = new Set()));
      const done = (outcome: () => void) => {
        clearTimeout(timer);
        set.delete(notify);
        if (set.size === 0 && waiting.get(key) === set) waiting.delete(key);
        signal?.removeEventListener('abort', aborted);
        outcome();
      };
      const notify = () => done(() => resolve({ role: 'followed' }));
      const aborted = () => done(() => reject(signal!.reason));
      set.add(notify);
      const timer = setTimeout(notify, waitMs);
      signal?.addEventListener('abort', aborted);
      // A landing published before this waiter was listed was missed: is the lock still held?
      redis.pttl(lock).then(
        (left) => {
          if (left < 0) notify();
        },
        () => notify(),
      );
    });
  }

  return {
    async take(key, maxMs, signal) {
      if (!hearing() || Date.now() < aloneUntil) return ALONE;
      const lock = lockOf(key);
      const member = `${owner}:${sequence++}`;
      const left = await claim(lock, member, maxMs);
      if (left === undefined) {
        aloneUntil = Date.now() + ALONE_AFTER_SLOW_MS;
        // The claim may still be taken when Redis wakes: freed right after it (same connection,
        // in order), so no lock that nobody will land holds the others until it lapses.
        redis.eval(LAND, 1, lock, member, key).catch(() => {});
        return ALONE;
      }
      if (left === 0) {
        return {
          role: 'lead',
          land: () => {
            // Sent after the answer's write, on the same connection: a waiter that hears it reads the answer.
            redis.eval(LAND, 1, lock, member, key).catch(() => {});
          },
        };
      }
      if (signal?.aborted) throw signal.reason;
      return follow(key, lock, Math.min(left, maxMs), signal);
    },
    close() {
      listener.disconnect();
      for (const key of [...waiting.keys()]) landed(key);
    },
  };
}
