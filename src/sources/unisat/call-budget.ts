/**
 * UniSat's quota (UNISAT_RATE_LIMIT_PER_SECOND): satgate never sends more calls than the limit in
 * any sliding one-second window, (t - 1000 ms, t].
 *
 * rate-limiter-flexible, which the per-client limits use, counts fixed windows only: two bursts
 * astride a window's edge would send twice the limit within one second. So the window is a sorted
 * set of call times, trimmed and counted in one Lua script (Redis's own clock, so replicas with
 * skewed clocks share one timeline); without Redis, or while it cannot answer, the window is in
 * memory: the process's own, or with WORKERS > 1 the cluster primary's, which every worker asks
 * (cluster-window.ts). Calls Redis admits are noted in that window too, and for a second after it
 * decided a call must fit in both, so that neither change of hands sends twice the limit. A call
 * that finds the window full waits until its oldest call leaves it, within the call's deadline;
 * one that cannot fit in its deadline is refused at once (RATE_LIMITED with retryAfter), nothing
 * sent.
 */
import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { UpstreamError, type ServiceName } from '../../errors.js';
import type { UpstreamEvents } from '../../observe/metrics.js';
import { Turns } from '../../lib/turns.js';
import type { JoinedClients } from '../../upstream/joined-clients.js';
import { ClusterWindow } from './cluster-window.js';
import { LocalWindow, WINDOW_MS, type Window } from './local-window.js';

/** Longest wait for Redis's answer before the local share decides: the budget never stalls a call. */
const REDIS_WAIT_MS = 200;
/** After Redis failed to answer, the local share decides for this long. */
const REDIS_RETRY_MS = 5_000;

/** KEYS[1]: the window; ARGV: limit, window ms, a unique member. Answers 0 (admitted) or the ms to wait. */
const SLIDING_WINDOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + window - now)
`;

/** One window for every worker and replica, in Redis; the local share while Redis cannot answer. */
export class RedisWindow implements Window {
  private downUntil = 0;
  private readonly prefix = randomUUID();
  private sequence = 0;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly limit: number,
    private readonly local: Window,
    private readonly retryMs = REDIS_RETRY_MS,
    private readonly events?: Pick<UpstreamEvents, 'redisFallback'>,
  ) {}

  take(): number | Promise<number> {
    if (Date.now() < this.downUntil) return this.locally();
    return this.counted();
  }

  private locally(): number | Promise<number> {
    this.events?.redisFallback('call_window');
    return this.local.take();
  }

  private async counted(): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(resolve, REDIS_WAIT_MS, 'timeout')));
    try {
      const member = `${this.prefix}:${this.sequence++}`;
      const answer = await Promise.race([this.redis.eval(SLIDING_WINDOW, 1, this.key, this.limit, WINDOW_MS, member), timedOut]);
      if (typeof answer === 'number') return answer > 0 ? answer : this.admitted();
    } catch {
      // Redis is down or refused: the local share decides below.
    } finally {
      clearTimeout(timer);
    }
    this.downUntil = Date.now() + this.retryMs;
    return this.locally();
  }

  /**
   * A call Redis admitted. The local window records it, so that it knows this second's calls if
   * Redis fails next. In the second after the local window last decided, Redis does not know the
   * calls that window admitted: the call must fit in both, or twice the limit could go out.
   */
  private admitted(): number | Promise<number> {
    if (Date.now() < this.downUntil + WINDOW_MS) return this.local.take();
    this.local.note();
    return 0;
  }

  note(): void {
    // Nothing admits calls beside this window.
  }
}

export interface CallBudgetOptions {
  /** Calls per sliding second, for the whole group. */
  perSecond: number;
  /** Processes sharing it without Redis (WORKERS). */
  workers: number;
  redis?: Redis;
  /** Names the service in refusals, and the Redis key. */
  service: ServiceName;
  /** Whose budget it is (upstreamScope's digest of the URL and key): the replicas that give the same share one. */
  scope?: string;
  events?: Pick<UpstreamEvents, 'redisFallback'>;
}

/** A call waiting for room in the window. */
interface Waiter {
  deadline: number;
  /** The clients in whose turns it waits: its own, and those that joined its call (coalesced). */
  owners: Set<string>;
  admit(): void;
  refuse(error: unknown): void;
}

/**
 * What ServiceOptions.beforeAttempt awaits: resolves when the call may be sent.
 *
 * Calls that find the window full wait in turns by client (lib/turns.ts, as live polls do): each
 * time there is room, the next waiting client's oldest call goes, and that client goes to the back.
 * So a client that sends a burst within its own share (CLIENT_UPSTREAM_CALLS_PER_MINUTE: 60 calls
 * at once fill 12 s of a 5-a-second budget) waits behind every other client's next call instead of
 * holding the budget until their deadlines pass. A call another client joined (an identical GET,
 * coalesced) waits in that client's turn too: it goes in whichever comes first.
 */
export function createCallBudget({ perSecond, workers, redis, service, scope = '', events }: CallBudgetOptions) {
  const share = new LocalWindow(Math.max(1, Math.floor(perSecond / workers)));
  const local = cluster.isWorker ? new ClusterWindow(`${service}:${scope}`, perSecond, share) : share;
  const window: Window = redis
    ? new RedisWindow(redis, `satgate:v1:call-window:${service}:${scope}`, perSecond, local, REDIS_RETRY_MS, events)
    : local;
  const refusal = (waitMs: number) => new UpstreamError(service, 'quota', undefined, Math.max(1, Math.ceil(waitMs / 1000)), perSecond);
  const waiting = new Turns<string, Waiter>();
  let serving = false;

  /** Takes `call` out of every turn it waits in. */
  function dequeue(call: Waiter): void {
    for (const owner of call.owners) waiting.remove(owner, call);
  }

  /** The next client's oldest call; calls past their deadline refused. */
  function next(): Waiter | undefined {
    for (const client of waiting.owners()) {
      const call = waiting.serve(client);
      dequeue(call);
      if (call.deadline > Date.now()) return call;
      call.refuse(refusal(0));
    }
    return undefined;
  }

  /** Gives each room in the window to the next waiting call, until none waits. */
  async function serve(): Promise<void> {
    serving = true;
    try {
      while (waiting.size > 0) {
        const waitMs = await window.take();
        if (waitMs <= 0) {
          next()?.admit();
          continue;
        }
        // A call that cannot fit before its deadline is refused now, nothing sent.
        const now = Date.now();
        for (const [, call] of waiting.waiters()) {
          if (now + waitMs < call.deadline) continue;
          dequeue(call);
          call.refuse(refusal(waitMs));
        }
        if (waiting.size > 0) await sleep(waitMs);
      }
    } finally {
      serving = false;
    }
  }

  return async (signal: AbortSignal, deadline: number, client = '', joined?: JoinedClients): Promise<void> => {
    if (waiting.size === 0) {
      const waitMs = await window.take();
      if (waitMs <= 0) return;
      if (Date.now() + waitMs >= deadline) throw refusal(waitMs);
    }
    if (signal.aborted) throw refusal(0);
    await new Promise<void>((resolve, reject) => {
      let unwatch = () => {};
      const settle = () => {
        unwatch();
        signal.removeEventListener('abort', abandon);
      };
      const waiter: Waiter = {
        deadline,
        owners: new Set([client]),
        admit: () => {
          settle();
          resolve();
        },
        refuse: (error) => {
          settle();
          reject(error);
        },
      };
      function abandon() {
        dequeue(waiter);
        unwatch();
        // The deadline passed in the queue (or the client left, which the exchange reports itself).
        reject(refusal(0));
      }
      signal.addEventListener('abort', abandon, { once: true });
      waiting.add(client, waiter);
      // Each client that joins the call while it waits gives it a place in its own turn.
      if (joined) {
        unwatch = joined.each((other) => {
          if (waiter.owners.has(other)) return;
          waiter.owners.add(other);
          waiting.add(other, waiter);
        });
      }
      if (!serving) void serve();
    });
  };
}
