import { GraphQLError } from 'graphql';
import { RequestSlots } from '../upstream/request-slots.js';

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
  const slots = new RequestSlots(maxConcurrent);
  /** Counts one lookup; past the budget, the request's clear error instead. */
  const charge = () => {
    if (++calls > maxCalls) {
      throw new GraphQLError(`This request needs more than ${maxCalls} upstream lookups; split it`, {
        extensions: { code: 'TOO_MANY_UPSTREAM_CALLS', limit: maxCalls },
      });
    }
  };
  const limit = async <V>(fetch: () => Promise<V>): Promise<V> => {
    charge();
    const turn = slots.acquire();
    if (turn) await turn;
    try {
      return await fetch();
    } finally {
      slots.release();
    }
  };
  /** Gives the last lookup back to the budget (an optional call that brought nothing). */
  limit.refund = () => {
    calls--;
  };
  /** A further upstream call of a lookup already counted (a source's next page). */
  limit.charge = charge;
  /** A lookup's further calls, within the request's slots (RequestSlots.spread). */
  limit.spread = <T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> => slots.spread(items, run);
  return limit;
}
export type RequestLimiter = ReturnType<typeof requestLimiter>;
