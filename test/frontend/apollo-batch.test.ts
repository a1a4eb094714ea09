/**
 * Apollo Client as published with its BatchHttpLink: the queries of one tick go as one JSON array,
 * which the gateway answers only with GRAPHQL_BATCH_LIMIT set (off by default: one operation per
 * request). With it, one HTTP request carries them all and each gets its own answer.
 */
import { ApolloClient, InMemoryCache, gql } from '@apollo/client';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStack, type Stack } from '../harness.js';
import { until } from '../live-clients.js';
import { graphqlRequestsLogged } from '../support.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ GRAPHQL_BATCH_LIMIT: '5' });
});
afterAll(() => stack.close());

const TOKEN = gql`
  query Token($ticker: String!) {
    brc20Token(ticker: $ticker) {
      token {
        ticker
      }
    }
  }
`;

/** The access log's GraphQL requests from line `from` on. */
const graphqlRequests = (from: number) => graphqlRequestsLogged(stack.logs, from);

it('the queries of one tick go in one request, each answered', async () => {
  const client = new ApolloClient({
    link: new BatchHttpLink({ uri: `${stack.gatewayUrl}/graphql`, batchMax: 5, batchInterval: 20 }),
    cache: new InMemoryCache(),
  });
  const from = stack.logs.length;
  const tickers = ['ordi', 'sats', 'pepe'];
  const answers = await Promise.all(tickers.map((ticker) => client.query({ query: TOKEN, variables: { ticker } })));
  expect(answers.map(({ error, data }) => [error, data])).toEqual(
    tickers.map((ticker) => [undefined, { brc20Token: { __typename: 'Brc20TokenDetails', token: { __typename: 'Brc20Token', ticker } } }]),
  );
  await until(() => graphqlRequests(from).length > 0, 'the access log line');
  expect(graphqlRequests(from)).toEqual([{ method: 'POST', status: 200 }]);
});
