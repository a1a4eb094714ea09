import { Client, fetchExchange, subscriptionExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { relayPagination } from '@urql/exchange-graphcache/extras';
import { createClient as createSseClient } from 'graphql-sse';
import { WITHOUT_ID } from './without-id.js';

/**
 * urql with its normalised cache, Graphcache: entities are kept once by `__typename` and global
 * `id`; the types without an id are embedded in their parent (said here, so Graphcache does not
 * warn for each). `relayPagination` joins the pages of satgate's connections into one list.
 * Subscriptions go over GraphQL over SSE, as in the urql setup above.
 */
export function createGraphcacheClient(url: string): Client {
  const sse = createSseClient({ url });
  return new Client({
    url,
    exchanges: [
      cacheExchange({
        keys: Object.fromEntries(WITHOUT_ID.map((type) => [type, () => null])),
        resolvers: { Query: { etchingsConnection: relayPagination(), transfersConnection: relayPagination() } },
      }),
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: sse.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
}
