/**
 * One client request's upstream concurrency (MAX_CONCURRENT_UPSTREAM_CALLS_PER_REQUEST): at most
 * `max` of its calls in flight. GraphQL's loaders take a slot per lookup (graphql/request-limiter.ts);
 * a REST route is one lookup. Either way a lookup's further calls (ord's index height and block
 * hashes) go through `spread`, so no request puts more than its bound of calls in flight, whichever
 * way it came.
 */
import type { LookupBudget } from './request.js';

export class RequestSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly max: number) {}

  /** Takes a slot if one is free now. */
  takeFree(): boolean {
    if (this.running >= this.max) return false;
    this.running++;
    return true;
  }

  /** A slot now (undefined), or a promise of the one the next release hands over. */
  acquire(): Promise<void> | undefined {
    return this.takeFree() ? undefined : new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** A slot freed goes straight to the next waiting lookup: no other can take it in between. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  /**
   * Runs a lookup's further calls (`run` for each item, answers in the items' order): on the
   * lookup's own slot, and on each slot that is free when they start. A lookup never waits for a
   * slot while holding one, so a request whose slots are all taken by lookups still makes
   * progress, one further call at a time each. The first failure stops further items.
   */
  async spread<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
    const answers = new Array<R>(items.length);
    let next = 0;
    let failed = false;
    const work = async () => {
      while (!failed && next < items.length) {
        const index = next++;
        try {
          answers[index] = await run(items[index]!);
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    };
    const workers = [work()];
    while (workers.length < items.length && this.takeFree()) workers.push(work().finally(() => this.release()));
    await Promise.all(workers);
    return answers;
  }
}

/**
 * The budget of a request that is a single lookup (a REST route): it holds one of `max` slots
 * throughout, its further calls share the rest, and it counts no further pages (the lookup budget,
 * MAX_UPSTREAM_CALLS_PER_REQUEST, is GraphQL's). The slots are made when a source first spreads
 * calls: most routes never do.
 */
export class SingleLookup implements LookupBudget {
  private slots: RequestSlots | undefined;

  constructor(private readonly max: number) {}

  take(): void {}

  spread<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
    if (!this.slots) {
      this.slots = new RequestSlots(this.max);
      this.slots.takeFree();
    }
    return this.slots.spread(items, run);
  }
}

/**
 * Two calls of one lookup side by side where the request has a slot free, else `first` and then
 * `second` (LookupBudget.spread): what a source asks beside its main call (ord's index height).
 */
export async function sideBySide<A, B>(lookups: LookupBudget, first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> {
  const calls: Array<() => Promise<unknown>> = [first, second];
  return (await lookups.spread(calls, (call) => call())) as [A, B];
}
