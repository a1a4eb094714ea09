/**
 * Waiters queued by owner, the owners taking turns: the next one served is the oldest waiter of the
 * owner first in turn, and that owner goes to the back. A newcomer waits one round at most: after
 * the owners already waiting, before the one served last. So one owner's backlog delays only
 * itself. The live polling plan (live/poll-plan.ts) and UniSat's call budget
 * (sources/unisat/call-budget.ts) both queue this way.
 */
export class Turns<Owner, Waiter> {
  /** Each owner's waiters, oldest first, owners in turn order; only owners with a waiter are kept. */
  private readonly queues = new Map<Owner, Set<Waiter>>();
  /** The owner served last: it is last in turn. */
  private lastServed: { owner: Owner } | undefined;
  private count = 0;

  /** Waiters queued now. */
  get size(): number {
    return this.count;
  }

  /** The owners with a waiter, in turn order. */
  owners(): IterableIterator<Owner> {
    return this.queues.keys();
  }

  /** Every waiter queued, with its owner (one may be removed while this runs). */
  *waiters(): Generator<[Owner, Waiter]> {
    for (const [owner, own] of this.queues) for (const waiter of own) yield [owner, waiter];
  }

  add(owner: Owner, waiter: Waiter): void {
    this.count++;
    const own = this.queues.get(owner);
    if (own) {
      own.add(waiter);
      return;
    }
    this.queues.set(owner, new Set([waiter]));
    const last = this.lastServed;
    if (last && last.owner !== owner && this.queues.has(last.owner)) this.moveLast(last.owner);
  }

  /** Takes `waiter` out of the queue; answers whether it was in it. */
  remove(owner: Owner, waiter: Waiter): boolean {
    const own = this.queues.get(owner);
    if (!own?.delete(waiter)) return false;
    this.count--;
    if (own.size === 0) this.queues.delete(owner);
    return true;
  }

  /** Takes `owner`'s oldest waiter (it has one) and sends `owner` to the back. */
  serve(owner: Owner): Waiter {
    const waiter: Waiter = this.queues.get(owner)!.values().next().value!;
    this.remove(owner, waiter);
    this.served(owner);
    if (this.queues.has(owner)) this.moveLast(owner);
    return waiter;
  }

  /** Notes that `owner` was served without waiting: a newcomer goes before it. */
  served(owner: Owner): void {
    this.lastServed = { owner };
  }

  private moveLast(owner: Owner): void {
    const own = this.queues.get(owner)!;
    this.queues.delete(owner);
    this.queues.set(owner, own);
  }
}
