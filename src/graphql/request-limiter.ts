import { GraphQLError } from 'graphql';

export interface LoaderLimits {
  /** Distinct upstream lookups one GraphQL request may cause. */
  maxCalls: number;
  /** Of those, how many may be in flight at once; the rest wait their turn. */
  maxConcurrent: number;
}

/**
 * Bounds one request's upstream work: past `maxCalls` upstream calls each further one fails with a
 * clear error (no unbounded queue), and at most `maxConcurrent` run at once.
 */
export function requestLimiter({ maxCalls, maxConcurrent }: LoaderLimits) {
  let calls = 0;
  let running = 0;
  const waiting: Array<() => void> = [];
  /** Counts one lookup; past the budget, the request's clear error instead. */
  const charge = () => {
    if (++calls > maxCalls) {
      throw new GraphQLError(`This request needs more than ${maxCalls} upstream lookups; split it`, {
        extensions: { code: 'TOO_MANY_UPSTREAM_CALLS', limit: maxCalls },
      });
    }
  };
  /** Takes a slot if one is free now. */
  const takeFree = (): boolean => {
    if (running >= maxConcurrent) return false;
    running++;
    return true;
  };
  /** A slot now, or a promise of the one the next release hands over. */
  const acquire = (): Promise<void> | undefined => (takeFree() ? undefined : new Promise<void>((resolve) => waiting.push(resolve)));
  /** A slot freed goes straight to the next waiting lookup: no other can take it in between. */
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  const limit = async <V>(fetch: () => Promise<V>): Promise<V> => {
    charge();
    const turn = acquire();
    if (turn) await turn;
    try {
      return await fetch();
    } finally {
      release();
    }
  };
  /** Gives the last lookup back to the budget (an optional call that brought nothing). */
  limit.refund = () => {
    calls--;
  };
  /** A further upstream call of a lookup already counted (a source's next page). */
  limit.charge = charge;
  /**
   * Runs a lookup's further calls (`run` for each item, answers in the items' order): on the
   * lookup's own slot, and on each of the request's slots that is free when they start. A lookup
   * never waits for a slot while holding one, so a request whose slots are all taken by lookups
   * still makes progress, one further call at a time each. The first failure stops further items.
   */
  limit.spread = async <T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> => {
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
    while (workers.length < items.length && takeFree()) workers.push(work().finally(release));
    await Promise.all(workers);
    return answers;
  };
  return limit;
}
