/**
 * The polling plan (LIVE_QUOTA_SHARE of LIVE_RATE_LIMIT_PER_MINUTE): every live poll of the
 * process, a new poller's first one included, is admitted here, and at most `capacity` are admitted
 * in any sliding minute. A poll past it waits, and waiting polls take turns by owner (a client, or
 * the process for re-polls): each admission takes the oldest waiting poll of the owner served
 * least recently, so one owner's backlog delays only itself. A new subscription's first value may
 * come later, never outside the plan. A slot whose poll sent nothing (the client's share was spent)
 * is given back.
 */
const MINUTE_MS = 60_000;

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
  /**
   * Waiting polls by owner, each owner's oldest first, owners in turn order: the next admission
   * goes to the first. Only owners with a waiting poll are kept: bounded by the waiting polls.
   */
  private readonly turns = new Map<PollOwner, Set<Waiter>>();
  /** The owner of the latest admission: it is last in turn (a newcomer goes before it). */
  private lastServed: { owner: PollOwner } | undefined;
  private waitingCount = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(perMinute: number) {
    this.capacity = perMinute > 0 && Number.isFinite(perMinute) ? Math.max(1, Math.floor(perMinute)) : Infinity;
  }

  /**
   * Resolves when the poll of `owner` may be sent; rejects with the signal's reason when it aborts
   * first.
   */
  admit(signal: AbortSignal, owner?: PollOwner): Promise<PlanSlot> {
    if (this.capacity === Infinity) return Promise.resolve(FREE_SLOT);
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.waitingCount === 0 && this.hasRoom(Date.now())) {
      this.lastServed = { owner };
      return Promise.resolve(this.take(Date.now()));
    }
    return new Promise<PlanSlot>((resolve, reject) => {
      const onAbort = () => {
        this.leave(owner, waiter);
        reject(signal.reason);
      };
      const waiter: Waiter = {
        grant: (slot) => {
          signal.removeEventListener('abort', onAbort);
          resolve(slot);
        },
      };
      this.enqueue(owner, waiter);
      signal.addEventListener('abort', onAbort, { once: true });
      this.wake();
    });
  }

  /** Polls waiting for a slot now. */
  get queued(): number {
    return this.waitingCount;
  }

  private enqueue(owner: PollOwner, waiter: Waiter): void {
    const own = this.turns.get(owner);
    this.waitingCount++;
    if (own) {
      own.add(waiter);
      return;
    }
    this.turns.set(owner, new Set([waiter]));
    // A newcomer waits one round at most: after the owners already waiting, before the one just served.
    const last = this.lastServed;
    if (last && last.owner !== owner && this.turns.has(last.owner)) this.moveLast(last.owner);
  }

  private leave(owner: PollOwner, waiter: Waiter): void {
    const own = this.turns.get(owner);
    if (!own?.delete(waiter)) return;
    this.waitingCount--;
    if (own.size === 0) this.turns.delete(owner);
  }

  /** Puts `owner` at the end of the turn order. */
  private moveLast(owner: PollOwner): void {
    const own = this.turns.get(owner)!;
    this.turns.delete(owner);
    this.turns.set(owner, own);
  }

  private hasRoom(now: number): boolean {
    while (this.admitted.length > 0 && this.admitted[0]! <= now - MINUTE_MS) this.admitted.shift();
    return this.admitted.length < this.capacity;
  }

  private take(at: number): PlanSlot {
    this.admitted.push(at);
    let refunded = false;
    return {
      refund: () => {
        if (refunded) return;
        refunded = true;
        // Entries admitted at the same time are alike: any one of them may go.
        const index = this.admitted.indexOf(at);
        if (index !== -1) this.admitted.splice(index, 1);
        this.wake();
      },
    };
  }

  /**
   * Grants what room there is, one poll per owner in turn, then sleeps until the oldest admitted
   * poll is a minute old.
   */
  private wake(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const now = Date.now();
    while (this.waitingCount > 0 && this.hasRoom(now)) {
      const [owner, own] = this.turns.entries().next().value!;
      const waiter: Waiter = own.values().next().value!;
      this.leave(owner, waiter);
      this.lastServed = { owner };
      if (this.turns.has(owner)) this.moveLast(owner);
      waiter.grant(this.take(now));
    }
    if (this.waitingCount === 0) return;
    this.timer = setTimeout(() => this.wake(), Math.max(1, this.admitted[0]! + MINUTE_MS - now + 1));
    this.timer.unref();
  }
}
