/**
 * Apollo Client as published, set up as examples/frontend/apollo.ts (HttpLink alone, so subscriptions
 * go over Apollo's multipart HTTP protocol): a `brc20Token` subscription's events reach a query that
 * shows the same token, and a subscription past the client's starts is refused with the contract's
 * code, which Apollo reads only from a 429 written in application/graphql-response+json. Apollo keeps a subscription's root fields apart from the query's, so only
 * entities with an id are shared: before Brc20TokenDetails had one, a mint updated the query's
 * `token.mintedSupply` while its `supply.mintedSupply` kept the old value, in one view.
 */
import { CombinedGraphQLErrors, gql } from '@apollo/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApolloClient } from '../../examples/frontend/apollo.js';
import { MINTING_TICKER } from '../../src/sample/activity.js';
import { startStack, type Stack } from '../harness.js';
import { until } from '../live-clients.js';
import { globalId } from '../support.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    LIVE_POLL_INTERVAL_MS: '100',
    LIVE_RATE_LIMIT_PER_MINUTE: '0',
    SUBSCRIPTION_STARTS_PER_CLIENT_PER_MINUTE: '1',
  });
});
afterAll(() => stack.close());

const DETAILS = `brc20Token(ticker: "${MINTING_TICKER}") { id token { id mintedSupply txCount } supply { mintedSupply holders } }`;

it('a brc20Token subscription’s new supply reaches the query showing the token, whole', async () => {
  const client = createApolloClient(`${stack.gatewayUrl}/graphql`);
  const views: unknown[] = [];
  const query = client.watchQuery({ query: gql(`query Token { ${DETAILS} }`) }).subscribe(({ data }) => views.push(data));
  const events: unknown[] = [];
  const subscription = client
    .subscribe({ query: gql(`subscription TokenUpdates { ${DETAILS} }`) })
    .subscribe(({ data }) => events.push(data));
  await until(() => events.length === 1 && views.length > 0, 'the token now, by query and subscription');
  const minted = stack.sample.activity.mint();
  await until(() => events.length === 2, 'the mint');
  const details = {
    __typename: 'Brc20TokenDetails',
    id: globalId('Brc20TokenDetails', MINTING_TICKER),
    token: {
      __typename: 'Brc20Token',
      id: globalId('Brc20Token', MINTING_TICKER),
      mintedSupply: minted.token.minted_supply,
      txCount: minted.token.tx_count,
    },
    supply: { __typename: 'Brc20Supply', mintedSupply: minted.supply.minted_supply, holders: minted.supply.holders },
  };
  await until(() => JSON.stringify(views.at(-1)).includes(minted.token.minted_supply), 'the query’s view of the mint');
  expect([events.at(-1), views.at(-1)]).toEqual([{ brc20Token: details }, { brc20Token: details }]);
  query.unsubscribe();
  subscription.unsubscribe();
  client.stop();
  stack.sample.reset();
});

it('a subscription past the client’s starts fails with TOO_MANY_SUBSCRIPTIONS, which Apollo reads', async () => {
  const client = createApolloClient(`${stack.gatewayUrl}/graphql`);
  // The first test started one; this second start of the minute is refused before yoga (429).
  const error = await new Promise((resolve) => {
    client
      .subscribe({
        query: gql`
          subscription Status {
            status {
              status
            }
          }
        `,
      })
      .subscribe({
        next: ({ error }) => resolve(error),
        error: resolve,
      });
  });
  expect(error).toBeInstanceOf(CombinedGraphQLErrors);
  const [refusal] = (error as CombinedGraphQLErrors).errors;
  expect(refusal).toEqual({
    message: `This client started its maximum of 1 subscriptions this minute; try again in ${refusal?.extensions?.retryAfter} s`,
    extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit: 1, retryAfter: expect.any(Number) },
  });
  client.stop();
});
