/**
 * urql's normalised cache, Graphcache (@urql/exchange-graphcache), set up as
 * examples/frontend/urql-graphcache.ts: pages of etchingsConnection joined by relayPagination while
 * new etchings are prepended upstream between them (the list is the upstream's, once each), a
 * refetch through node(id:) that selects other fields of an etching the list shows, and a
 * brc20Token subscription's event reaching the query that shows the token.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createGraphcacheClient } from '../../examples/frontend/urql-graphcache.js';
import { MINTING_TICKER } from '../../src/sample/activity.js';
import { startStack, type Stack } from '../harness.js';
import { until } from '../live-clients.js';
import { globalId } from '../support.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ LIVE_POLL_INTERVAL_MS: '100', LIVE_RATE_LIMIT_PER_MINUTE: '0' });
});
afterAll(() => stack.close());
beforeEach(() => stack.sample.reset());

interface Page {
  etchingsConnection: {
    edges: Array<{ node: { id: string; number: number; supply: Record<string, unknown> } }>;
    pageInfo: { endCursor: string };
  };
}
const PAGE = `query Etchings($after: String) {
  etchingsConnection(first: 7, after: $after) {
    edges { cursor node { id number supply { minted } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

it('joins pages into the upstream’s list, once each, while etchings arrive between them', async () => {
  const client = createGraphcacheClient(`${stack.gatewayUrl}/graphql`);
  const views: Page[] = [];
  const watch = client.query<Page>(PAGE, {}).subscribe(({ data }) => data && views.push(data));
  await until(() => views.length === 1, 'the first page');
  const newest = stack.sample.activity.etchings().map((e) => e.number);
  stack.sample.activity.etch(3);
  const after = views[0]!.etchingsConnection.pageInfo.endCursor;
  await client.query(PAGE, { after }).toPromise();
  await until(() => views.at(-1)!.etchingsConnection.edges.length === 14, 'the joined list');
  expect(views.at(-1)!.etchingsConnection.edges.map((edge) => edge.node.number)).toEqual(newest.slice(0, 14));
  watch.unsubscribe();
});

it('a refetch through node(id:) that selects other supply fields leaves the list’s fields as they were', async () => {
  const client = createGraphcacheClient(`${stack.gatewayUrl}/graphql`);
  const views: Page[] = [];
  const watch = client.query<Page>(PAGE, {}).subscribe(({ data }) => data && views.push(data));
  await until(() => views.length === 1, 'the first page');
  const { id, supply } = views[0]!.etchingsConnection.edges[0]!.node;
  const NODE = `query Etching($id: ID!) { node(id: $id) { id ... on RuneEtching { supply { current } } } }`;
  const refetched = await client.query(NODE, { id }).toPromise();
  const { data } = await client.query<Page>(PAGE, {}, { requestPolicy: 'cache-only' }).toPromise();
  expect([data!.etchingsConnection.edges[0]!.node.supply, refetched.data]).toEqual([
    supply,
    { node: { id, supply: { current: expect.any(String) } } },
  ]);
  watch.unsubscribe();
});

it('a brc20Token subscription’s new supply reaches the query showing the token, whole', async () => {
  const client = createGraphcacheClient(`${stack.gatewayUrl}/graphql`);
  const DETAILS = `brc20Token(ticker: "${MINTING_TICKER}") { id token { id mintedSupply } supply { mintedSupply holders } }`;
  const views: unknown[] = [];
  const query = client.query(`query Token { ${DETAILS} }`, {}).subscribe(({ data }) => data && views.push(data));
  const events: unknown[] = [];
  const subscription = client
    .subscription(`subscription TokenUpdates { ${DETAILS} }`, {})
    .subscribe(({ data }) => data && events.push(data));
  await until(() => events.length === 1 && views.length > 0, 'the token now, by query and subscription');
  const minted = stack.sample.activity.mint();
  await until(() => JSON.stringify(views.at(-1)).includes(minted.token.minted_supply), 'the query’s view of the mint');
  const details = {
    id: globalId('Brc20TokenDetails', MINTING_TICKER),
    token: { id: globalId('Brc20Token', MINTING_TICKER), mintedSupply: minted.token.minted_supply },
    supply: { mintedSupply: minted.supply.minted_supply, holders: minted.supply.holders },
  };
  expect([events.at(-1), views.at(-1)]).toEqual([{ brc20Token: details }, { brc20Token: details }]);
  query.unsubscribe();
  subscription.unsubscribe();
});
