/**
 * The polling plan (LIVE_QUOTA_SHARE of LIVE_RATE_LIMIT_PER_MINUTE): every live poll of the
 * process, a new poller's first one included, is admitted here, and at most `capacity` are admitted
 * in any sliding minute. A poll past it waits its turn, in order: a new subscription's first value
 * may come later, never outside the plan. A slot whose poll sent nothing (the client's share was
 * spent) is given back.
 */
const MINUTE_MS = 60_000;

export interface PlanSlot {
  /** The poll sent nothing upstream: its slot goes to the next poll. */
  refund(): void;
}

const FREE_SLOT: PlanSlot = { refund() {} };

interface Waiter {
  grant(slot: PlanSlot): void;
}

export class PollPlan {
  /** Polls a minute; Infinity when the upstream's rate limit is unknown (no plan). */
  readonly capacity: number;
  /** When each poll of the last minute was admitted, oldest first. */
  private readonly admitted: number[] = [];
  /** Polls waiting for a slot, in order. */
  private readonly waiting = new Set<Waiter>();
  private timer: NodeJS.Timeout | undefined;

  constructor(perMinute: number) {
    this.capacity = perMinute > 0 && Number.isFinite(perMinute) ? Math.max(1, Math.floor(perMinute)) : Infinity;
  }

  /** Resolves when the poll may be sent; rejects with the signal's reason when it aborts first. */
  admit(signal: AbortSignal): Promise<PlanSlot> {
    if (this.capacity === Infinity) return Promise.resolve(FREE_SLOT);
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.waiting.size === 0 && this.hasRoom(Date.now())) return Promise.resolve(this.take(Date.now()));
    return new Promise<PlanSlot>((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(waiter);
        reject(signal.reason);
      };
      const waiter: Waiter = {
        grant: (slot) => {
          signal.removeEventListener('abort', onAbort);
          resolve(slot);
        },
      };
      this.waiting.add(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
      this.wake();
    });
  }

  /** Polls waiting for a slot now. */
  get queued(): number {
    return this.waiting.size;
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

  /** Grants what room there is, in order, then sleeps until the oldest admitted poll is a minute old. */
  private wake(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const now = Date.now();
    for (const waiter of this.waiting) {
      if (!this.hasRoom(now)) break;
      this.waiting.delete(waiter);
      waiter.grant(this.take(now));
    }
    if (this.waiting.size === 0) return;
    this.timer = setTimeout(() => this.wake(), Math.max(1, this.admitted[0]! + MINUTE_MS - now + 1));
    this.timer.unref();
  }
}
