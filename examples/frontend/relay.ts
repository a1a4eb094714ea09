// Relay: an Environment whose network layer POSTs each operation to satgate's /graphql, and
// subscribes over GraphQL over SSE (graphql-sse). Every entity has a global `id` and Query has
// `node(id:)`, so `@refetchable` fragments on Brc20Token, InscriptionTransfer and RuneEtching
// compile and refetch as they are.
import { createClient } from 'graphql-sse';
import {
  Environment,
  Network,
  Observable,
  RecordSource,
  Store,
  type FetchFunction,
  type GraphQLResponse,
  type SubscribeFunction,
} from 'relay-runtime';

export function createRelayEnvironment(url = 'http://localhost:4000/graphql'): Environment {
  const fetchGraphQL: FetchFunction = async (operation, variables) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: operation.text, variables }),
    });
    return (await response.json()) as GraphQLResponse;
  };
  const sse = createClient({ url });
  const subscribe: SubscribeFunction = (operation, variables) =>
    Observable.create<GraphQLResponse>((sink) =>
      sse.subscribe(
        { query: operation.text ?? '', variables },
        {
          next: (value) => sink.next(value as GraphQLResponse),
          error: (error) => sink.error(error as Error),
          complete: () => sink.complete(),
        },
      ),
    );
  return new Environment({ network: Network.create(fetchGraphQL, subscribe), store: new Store(new RecordSource()) });
}
