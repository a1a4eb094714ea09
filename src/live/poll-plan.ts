/**
 * The polling plan (LIVE_QUOTA_SHARE of LIVE_RATE_LIMIT_PER_MINUTE): every live poll of the
 * process, a new poller's first one included, is admitted here, and at most `capacity` are admitted
 * in any sliding minute. A poll past it waits, and waiting polls take turns by owner (a client, or
 * the process for re-polls): each admission takes the oldest waiting poll of the owner served
 * least recently, so one owner's backlog delays only itself. A new subscription's first value may
 * come later, never outside the plan. A slot whose poll sent nothing (the client's share was spent,
 * or the breaker refused it) is given back.
 *
 * Turns alone cannot help a window that one client has already emptied: a client that asks for
 * ten new tickers at once would take all ten polls of a 10-a-minute plan in its first second, and
 * every other client's first value would wait a minute. So a client may hold at most `CLIENT_SHARE`
 * of the window (at least one poll); what is left stays for the others. Re-polls (the process's
 * own owner, `shared`) keep the resources that subscribers already watch fresh and have no cap.
 */
import { Turns } from '../lib/turns.js';

const MINUTE_MS = 60_000;
/** The part of the plan's window one client may hold. */
export const CLIENT_SHARE = 0.5;

export interface PlanSlot {
  /** The poll sent nothing upstream: its slot goes to the next poll. */
  refund(): void;
}

/** Whose turn a poll waits in: a client (a keyed hash; undefined: not told apart), or any other key. */
export type PollOwner = string | symbol | undefined;

const FREE_SLOT: PlanSlot = { refund() {} };

interface Waiter {
  grant(slot: PlanSlot): void;
}

export class PollPlan {
  /** Polls a minute; Infinity when the upstream's rate limit is unknown (no plan). */
  readonly capacity: number;
  /** When each poll of the last minute was admitted, oldest first. */
  private readonly admitted: number[] = [];
  /** Waiting polls by owner, in turns: bounded by the waiting polls. */
  private readonly turns = new Turns<PollOwner, Waiter>();
  private timer: NodeJS.Timeout | undefined;
  /** Polls one client may hold in any sliding minute. */
  readonly perClient: number;
  /** When each client's polls of the last minute were admitted, oldest first (only clients with one). */
  private readonly held = new Map<PollOwner, number[]>();

  /** `shared`: the owner whose polls serve everyone (re-polls), exempt from the per-client share. */
  constructor(
    perMinute: number,
    private readonly shared: symbol,
  ) {
    this.capacity = perMinute > 0 && Number.isFinite(perMinute) ? Math.max(1, Math.floor(perMinute)) : Infinity;
    this.perClient = Math.ceil(this.capacity * CLIENT_SHARE);
  }

  /**
   * Resolves when the poll of `owner` may be sent; rejects with the signal's reason when it aborts
   * first.
   */
  admit(signal: AbortSignal, owner?: PollOwner): Promise<PlanSlot> {
    if (this.capacity === Infinity) return Promise.resolve(FREE_SLOT);
    if (signal.aborted) return Promise.reject(signal.reason);
    const now = Date.now();
    if (this.turns.size === 0 && this.hasRoom(now) && this.ownerHasRoom(owner, now)) {
      this.turns.served(owner);
      return Promise.resolve(this.take(owner, now));
    }
    return new Promise<PlanSlot>((resolve, reject) => {
      const onAbort = () => {
        this.turns.remove(owner, waiter);
        reject(signal.reason);
      };
      const waiter: Waiter = {
        grant: (slot) => {
          signal.removeEventListener('abort', onAbort);
          resolve(slot);
        },
      };
      this.turns.add(owner, waiter);
      signal.addEventListener('abort', onAbort, { once: true });
      this.wake();
    });
  }

  /** Polls waiting for a slot now. */
  get queued(): number {
    return this.turns.size;
  }

  private hasRoom(now: number): boolean {
    let aged = false;
    while (this.admitted.length > 0 && this.admitted[0]! <= now - MINUTE_MS) {
      this.admitted.shift();
      aged = true;
    }
    // Every held entry is also admitted: sweeping when the plan's entries age keeps `held` within capacity.
    if (aged) for (const owner of this.held.keys()) this.ownerHasRoom(owner, now);
    return this.admitted.length < this.capacity;
  }

  /** Whether `owner` holds less than its share of the window (always, for the shared owner). */
  private ownerHasRoom(owner: PollOwner, now: number): boolean {
    if (owner === this.shared) return true;
    const own = this.held.get(owner);
    if (!own) return true;
    while (own.length > 0 && own[0]! <= now - MINUTE_MS) own.shift();
    if (own.length === 0) this.held.delete(owner);
    return own.length < this.perClient;
  }

  private take(owner: PollOwner, at: number): PlanSlot {
    this.admitted.push(at);
    if (owner !== this.shared) {
      const own = this.held.get(owner);
      if (own) own.push(at);
      else this.held.set(owner, [at]);
    }
    let refunded = false;
    return {
      refund: () => {
        if (refunded) return;
        refunded = true;
        // Entries admitted at the same time are alike: any one of them may go.
        removeOne(this.admitted, at);
        const own = this.held.get(owner);
        if (own && removeOne(own, at) && own.length === 0) this.held.delete(owner);
        this.wake();
      },
    };
  }

  /** The first owner in turn order with a waiting poll and room in its share, if any. */
  private nextOwner(now: number): PollOwner | typeof NOBODY {
    for (const owner of this.turns.owners()) if (this.ownerHasRoom(owner, now)) return owner;
    return NOBODY;
  }

  /**
   * Grants what room there is, one poll per owner in turn, skipping owners that hold their share,
   * then sleeps until the next slot frees: the plan's oldest, or a waiting owner's oldest.
   */
  private wake(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const now = Date.now();
    while (this.turns.size > 0 && this.hasRoom(now)) {
      const owner = this.nextOwner(now);
      if (owner === NOBODY) break;
      this.turns.serve(owner).grant(this.take(owner, now));
    }
    if (this.turns.size === 0) return;
    this.timer = setTimeout(() => this.wake(), Math.max(1, this.nextFree(now) + MINUTE_MS - now + 1));
    this.timer.unref();
  }

  /** When the slot that lets the next waiting poll go was admitted (a minute later it frees). */
  private nextFree(now: number): number {
    if (!this.hasRoom(now)) return this.admitted[0]!;
    // Room in the plan, but every waiting owner holds its share: the earliest of their oldest.
    let oldest = Infinity;
    for (const owner of this.turns.owners()) oldest = Math.min(oldest, this.held.get(owner)?.[0] ?? now);
    return oldest;
  }
}

const NOBODY = Symbol('nobody');

/** Removes one `value` from `list`; answers whether there was one. */
function removeOne(list: number[], value: number): boolean {
  const index = list.indexOf(value);
  if (index === -1) return false;
  list.splice(index, 1);
  return true;
}
