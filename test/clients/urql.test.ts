/**
 * urql 6 (@urql/core) with its defaults, set up as docs/frontend.md shows (examples/frontend/urql.ts):
 * short queries go as GET without any CSRF header, mutations as JSON POST, subscriptions over
 * graphql-sse. Against the real gateway and sample upstream; the access log shows each method.
 */
import { gql } from '@urql/core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createUrqlClient } from '../../examples/frontend/urql.js';
import { DELETABLE_CHAINHOOK_UUIDS } from '../../src/sample/data.js';
import { SAMPLE_PLATFORM_KEY } from '../../src/sample/server.js';
import { startStack, type Stack } from '../harness.js';
import { until } from '../live-clients.js';
import { graphqlRequestsLogged } from '../support.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ LIVE_POLL_INTERVAL_MS: '50' });
});
afterAll(() => stack.close());

/** The access-log lines of GraphQL requests named `operationName`: method and status. */
const requests = (operationName: string) => graphqlRequestsLogged(stack.logs, 0, operationName);

const TOKEN = gql`
  query Token($ticker: String!) {
    brc20Token(ticker: $ticker) {
      token {
        ticker
        mintedSupply
      }
    }
  }
`;

test('a query with the defaults goes as GET, without a CSRF header, and answers', async () => {
  const client = createUrqlClient(`${stack.gatewayUrl}/graphql`);
  const result = await client.query(TOKEN, { ticker: 'ordi' }).toPromise();
  const ordi = stack.sample.activity.findBrc20Token('ordi')!.token;
  expect([result.error, result.data]).toEqual([
    undefined,
    {
      brc20Token: {
        __typename: 'Brc20TokenDetails',
        token: { __typename: 'Brc20Token', ticker: 'ordi', mintedSupply: ordi.minted_supply },
      },
    },
  ]);
  await until(() => requests('Token').length === 1, 'the access log line');
  expect(requests('Token')).toEqual([{ method: 'GET', status: 200 }]);
});

test('a mutation goes as JSON POST, with the platform key in fetchOptions', async () => {
  const client = createUrqlClient(`${stack.gatewayUrl}/graphql`);
  const uuid = DELETABLE_CHAINHOOK_UUIDS[0]!;
  stack.sample.clearLog();
  const result = await client
    .mutation(
      gql`
        mutation Delete($uuid: String!) {
          deleteChainhook(uuid: $uuid) {
            status
          }
        }
      `,
      { uuid },
      { fetchOptions: { headers: { 'x-api-key': SAMPLE_PLATFORM_KEY } } },
    )
    .toPromise();
  expect([result.error, result.data]).toEqual([undefined, { deleteChainhook: { __typename: 'ChainhookDeletion', status: 'success' } }]);
  expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${uuid}`]);
  await until(() => requests('Delete').length === 1, 'the access log line');
  expect(requests('Delete')).toEqual([{ method: 'POST', status: 200 }]);
});

test('a subscription over graphql-sse: the value now, then the change after a mint', async () => {
  const client = createUrqlClient(`${stack.gatewayUrl}/graphql`);
  const seen: unknown[] = [];
  const minted = () => stack.sample.activity.findBrc20Token('bitai')!.token.tx_count;
  const before = minted();
  const subscription = client
    .subscription(
      gql`
        subscription Live($ticker: String!) {
          brc20Token(ticker: $ticker) {
            token {
              ticker
              txCount
            }
          }
        }
      `,
      { ticker: 'bitai' },
    )
    .subscribe((result) => seen.push(result.error ?? result.data));
  try {
    await until(() => seen.length === 1, 'the first value', 10_000);
    stack.sample.activity.mint('bitai');
    await until(() => seen.length === 2, 'the value after the mint', 10_000);
  } finally {
    subscription.unsubscribe();
  }
  // urql's cacheExchange adds __typename to queries and mutations only: a subscription is sent as written.
  const value = (txCount: number) => ({ brc20Token: { token: { ticker: 'bitai', txCount } } });
  expect(seen).toEqual([value(before), value(before + 1)]);
});
