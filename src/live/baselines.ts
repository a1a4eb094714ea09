/**
 * Where each subscriber of an event resource (etchingAdded) starts: from the answer of a poll that
 * *started* after it joined. The poller's last answer may be up to an interval old, so an etching
 * that appeared upstream since then existed when the subscription started, and must not be sent as
 * new to it; only a poll started later can show it. Until such a poll answers, the subscriber waits
 * and gets nothing; every subscriber that joined before that poll started takes its answer as its
 * baseline. Joins during one poll share the next: at most one more poll, whatever their number.
 */
export class Baselines<S> {
  /** Polls started so far: a poll's number is its place in this count. */
  private started = 0;
  /** Subscribers waiting for their baseline, with the polls started when each joined; oldest first. */
  private readonly waiting = new Map<S, number>();

  /** `subscriber` joins: it waits for a poll that starts from now on. */
  join(subscriber: S): void {
    this.waiting.set(subscriber, this.started);
  }

  leave(subscriber: S): void {
    this.waiting.delete(subscriber);
  }

  waits(subscriber: S): boolean {
    return this.waiting.has(subscriber);
  }

  /** The subscribers waiting, oldest first. */
  waiters(): IterableIterator<S> {
    return this.waiting.keys();
  }

  /** A poll is sent now: answers its number, for `settle`. */
  start(): number {
    return ++this.started;
  }

  /** Whether a subscriber waits for a poll that has not started yet: one more is needed. */
  needsPoll(): boolean {
    for (const joinedAt of this.waiting.values()) if (joinedAt === this.started) return true;
    return false;
  }

  /** Poll `poll` answered: every subscriber that joined before it started has its baseline, and stops waiting. */
  settle(poll: number): void {
    for (const [subscriber, joinedAt] of this.waiting) if (joinedAt < poll) this.waiting.delete(subscriber);
  }
}
