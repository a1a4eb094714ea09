// Apollo Client: the HTTP link and a cache that pages satgate's Relay connections. Every entity
// has a global `id` (unique across types, one per transfer), so the cache's default keys
// (`__typename` + `id`) keep each object once and never mix two transfers of one inscription.
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';

export function createApolloClient(url = 'http://localhost:4000/graphql'): ApolloClient {
  return new ApolloClient({
    link: new HttpLink({ uri: url }),
    cache: new InMemoryCache({
      typePolicies: {
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
