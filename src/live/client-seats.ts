/**
 * What each client holds of the process's subscriptions: how many (SSE and WebSocket together)
 * and which distinct resources they watch, so that no client can take every slot or make the
 * pollers of the whole plan (MAX_SUBSCRIPTIONS_PER_CLIENT, MAX_WATCHED_RESOURCES_PER_CLIENT).
 * Clients are the keyed hashes the fairness windows use (client-identity.ts). A record lives only
 * while its client holds a subscription: the table is bounded by the active subscriptions.
 *
 * Starts are bounded too (SUBSCRIPTION_STARTS_PER_CLIENT_PER_MINUTE): a client that subscribes and
 * leaves again and again holds few seats at any moment, yet each set-up costs the process a parse,
 * a context and a place in the hub, and a burst of them stalls every other client's requests
 * (docs/notes/2026-11-27-churn-bursts.md). Every subscription a client asks for counts, held or
 * refused; past its minute's starts, its new subscriptions are refused until the window ends, and
 * `startRefusal` lets the transports refuse them before any of that work.
 */
import { GraphQLError } from 'graphql';
import { ClientWindows } from '../upstream/guards/client-windows.js';

export interface SeatLimits {
  maxSubscriptionsPerClient: number;
  maxWatchedResourcesPerClient: number;
  subscriptionStartsPerClientPerMinute: number;
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

/**
 * TOO_MANY_SUBSCRIPTIONS for a client whose minute's starts are spent (retryAfter: seconds to the
 * window's end), as it is written: the HTTP refusal needs no GraphQLError and its stack trace.
 */
function startsSpent(limit: number, retryAfter: number) {
  return {
    message: `This client started its maximum of ${limit} subscriptions this minute; try again in ${retryAfter} s`,
    extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit, retryAfter },
  };
}

export type StartsRefusal = ReturnType<typeof startsSpent>;

/** A refusal as a GraphQL error, for the transports that answer one. */
export function refusalError({ message, extensions }: StartsRefusal): GraphQLError {
  return new GraphQLError(message, { extensions });
}

export class ClientSeats {
  private readonly holdings = new Map<string, Holding>();
  private readonly starts = new ClientWindows();

  constructor(private readonly limits: SeatLimits) {}

  /** What a new subscription of `client` would be refused with now (its minute's starts spent); undefined when it may start. */
  startRefusal(client: string | undefined): StartsRefusal | undefined {
    if (client === undefined) return undefined;
    const limit = this.limits.subscriptionStartsPerClientPerMinute;
    const wait = this.starts.wait(client, limit);
    return wait > 0 ? startsSpent(limit, wait) : undefined;
  }

  /**
   * Counts a start for `client` and takes it a seat watching `key`, or throws TOO_MANY_SUBSCRIPTIONS;
   * answers the release (idempotent). A client that cannot be told apart (no address) is not
   * bounded here.
   */
  take(client: string | undefined, key: string): () => void {
    if (client === undefined) return () => {};
    // Every start it asks for counts, held or refused: asking again and again is what costs.
    const startsLimit = this.limits.subscriptionStartsPerClientPerMinute;
    const wait = this.starts.take(client, startsLimit);
    if (wait > 0) throw refusalError(startsSpent(startsLimit, wait));
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
