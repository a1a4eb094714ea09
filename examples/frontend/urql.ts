import { Client, cacheExchange, fetchExchange, subscriptionExchange } from '@urql/core';
import { createClient as createSseClient } from 'graphql-sse';

/**
 * urql against satgate, with urql's defaults: short queries go as GET (no CSRF header needed),
 * longer ones and mutations as JSON POST. Subscriptions go over GraphQL over SSE (graphql-sse),
 * on the same URL. `url` is the gateway's GraphQL endpoint, e.g. https://gateway.example/graphql.
 */
export function createUrqlClient(url: string): Client {
  const sse = createSseClient({ url });
  return new Client({
    url,
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: sse.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
}
