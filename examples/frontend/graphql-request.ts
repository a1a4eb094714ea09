import { GraphQLClient } from 'graphql-request';

/**
 * graphql-request against satgate, alone or as the fetcher of TanStack Query: queries go as GET
 * (no CSRF header needed; a browser or CDN may keep the answer, which carries its ETag), mutations
 * as JSON POST whatever `method` says. `url` is the gateway's GraphQL endpoint, e.g.
 * https://gateway.example/graphql. A response with errors rejects with a `ClientError` whose
 * `response` holds the data that did answer and each error's `extensions.code`.
 */
export function createRequestClient(url: string): GraphQLClient {
  return new GraphQLClient(url, { method: 'GET' });
}
