// Apollo Client: the HTTP link and a cache that pages satgate's Relay connections. Every entity
// has a global `id` (unique across types, one per transfer), so the cache's default keys
// (`__typename` + `id`) keep each object once and never mix two transfers of one inscription.
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import { WITHOUT_ID } from './without-id.js';

// The types without an id live inside their parent. `merge: true` lets two queries that select
// different fields of one share it; without it each write replaces the other's fields, and Apollo
// refetches the other query.
export function createApolloClient(url = 'http://localhost:4000/graphql'): ApolloClient {
  return new ApolloClient({
    link: new HttpLink({ uri: url }),
    cache: new InMemoryCache({
      typePolicies: {
        ...Object.fromEntries(WITHOUT_ID.map((type) => [type, { merge: true }])),
        Query: {
          fields: {
            // `fetchMore({ variables: { after: endCursor } })` appends; one list per block.
            etchingsConnection: relayStylePagination(),
            transfersConnection: relayStylePagination(['block']),
          },
        },
      },
    }),
  });
}
