/**
 * What each client holds of the process's subscriptions: how many (SSE and WebSocket together)
 * and which distinct resources they watch, so that no client can take every slot or make the
 * pollers of the whole plan (MAX_SUBSCRIPTIONS_PER_CLIENT, MAX_WATCHED_RESOURCES_PER_CLIENT).
 * Clients are the keyed hashes the fairness windows use (client-identity.ts). A record lives only
 * while its client holds a subscription: the table is bounded by the active subscriptions.
 */
import { GraphQLError } from 'graphql';

export interface SeatLimits {
  maxSubscriptionsPerClient: number;
  maxWatchedResourcesPerClient: number;
}

interface Holding {
  subscriptions: number;
  /** Subscriptions per watched resource key. */
  resources: Map<string, number>;
}

/** The code every subscription bound answers with (documented beside MAX_SUBSCRIPTIONS). */
export function tooManySubscriptions(message: string, limit: number): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit } });
}

export class ClientSeats {
  private readonly holdings = new Map<string, Holding>();

  constructor(private readonly limits: SeatLimits) {}

  /**
   * Takes a seat for `client` watching `key`, or throws TOO_MANY_SUBSCRIPTIONS; answers the release
   * (idempotent). A client that cannot be told apart (no address) is not bounded here.
   */
  take(client: string | undefined, key: string): () => void {
    if (client === undefined) return () => {};
    const { maxSubscriptionsPerClient: maxSubscriptions, maxWatchedResourcesPerClient: maxResources } = this.limits;
    const holding = this.holdings.get(client) ?? { subscriptions: 0, resources: new Map<string, number>() };
    if (holding.subscriptions >= maxSubscriptions) {
      throw tooManySubscriptions(`This client holds its maximum of ${maxSubscriptions} subscriptions; end one first`, maxSubscriptions);
    }
    if (!holding.resources.has(key) && holding.resources.size >= maxResources) {
      throw tooManySubscriptions(
        `This client watches its maximum of ${maxResources} distinct resources; end a subscription to one first`,
        maxResources,
      );
    }
    holding.subscriptions++;
    holding.resources.set(key, (holding.resources.get(key) ?? 0) + 1);
    this.holdings.set(client, holding);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      holding.subscriptions--;
      const left = holding.resources.get(key)! - 1;
      if (left > 0) holding.resources.set(key, left);
      else holding.resources.delete(key);
      if (holding.subscriptions === 0) this.holdings.delete(client);
    };
  }
}
