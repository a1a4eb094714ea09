// Relay: an Environment whose network layer POSTs each operation to satgate's /graphql.
// Every entity has a global `id` and Query has `node(id:)`, so `@refetchable` fragments on
// Brc20Token, InscriptionTransfer and RuneEtching compile and refetch as they are.
import { Environment, Network, RecordSource, Store, type FetchFunction, type GraphQLResponse } from 'relay-runtime';

export function createRelayEnvironment(url = 'http://localhost:4000/graphql'): Environment {
  const fetchGraphQL: FetchFunction = async (operation, variables) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: operation.text, variables }),
    });
    return (await response.json()) as GraphQLResponse;
  };
  return new Environment({ network: Network.create(fetchGraphQL), store: new Store(new RecordSource()) });
}
