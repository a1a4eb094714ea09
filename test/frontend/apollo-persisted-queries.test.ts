/**
 * Apollo Client as published with its automatic persisted queries link (useGETForHashedQueries, as
 * a CDN-fronted app sets it): the first client's hash alone is not known (404,
 * PERSISTED_QUERY_NOT_FOUND), the link sends the document by POST, and from then on any client's
 * hash alone is answered by GET. The access log shows each request's method and status.
 */
import { ApolloClient, CombinedGraphQLErrors, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../harness.js';
import { until } from '../live-clients.js';
import { graphqlRequestsLogged } from '../support.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const ORDI = gql`
  query Ordi {
    brc20Token(ticker: "ordi") {
      token {
        ticker
      }
    }
  }
`;

/** A fresh client (its own cache) whose link sends hashes first, by GET. */
function persistedQueriesClient(): ApolloClient {
  const sha256 = (document: string) => createHash('sha256').update(document).digest('hex');
  const link = new PersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(
    new HttpLink({ uri: `${stack.gatewayUrl}/graphql` }),
  );
  return new ApolloClient({ link, cache: new InMemoryCache() });
}

/** The access log's GraphQL requests from line `from` on. */
const graphqlRequests = (from: number) => graphqlRequestsLogged(stack.logs, from);

it('the first hash is asked for its document once; later clients send the hash alone, by GET', async () => {
  const answer = { brc20Token: { __typename: 'Brc20TokenDetails', token: { __typename: 'Brc20Token', ticker: 'ordi' } } };

  const first = stack.logs.length;
  const learnt = await persistedQueriesClient().query({ query: ORDI });
  expect([learnt.error, learnt.data]).toEqual([undefined, answer]);
  await until(() => graphqlRequests(first).length === 2, 'two access log lines');
  expect(graphqlRequests(first)).toEqual([
    { method: 'GET', status: 404 },
    { method: 'POST', status: 200 },
  ]);

  const second = stack.logs.length;
  const known = await persistedQueriesClient().query({ query: ORDI });
  expect([known.error, known.data]).toEqual([undefined, answer]);
  await until(() => graphqlRequests(second).length === 1, 'one access log line');
  expect(graphqlRequests(second)).toEqual([{ method: 'GET', status: 200 }]);
});

describe('against PERSISTED_OPERATIONS (persisted-only mode)', () => {
  let listed: Stack;
  const sha256 = (document: string) => createHash('sha256').update(document).digest('hex');
  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'satgate-')), 'operations.json');
    // The app's build lists its documents as the link sends them: with the cache's __typename fields, by their hash.
    const sent = print(new InMemoryCache().transformDocument(ORDI));
    writeFileSync(file, JSON.stringify({ [sha256(sent)]: sent }));
    listed = await startStack({ PERSISTED_OPERATIONS: file });
  });
  afterAll(() => listed.close());

  const client = () =>
    new ApolloClient({
      link: new PersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(new HttpLink({ uri: `${listed.gatewayUrl}/graphql` })),
      cache: new InMemoryCache(),
    });

  it('a listed hash runs by GET; an unlisted one is told so, in one request, not sent again as a document', async () => {
    const known = await client().query({ query: ORDI });
    expect(known.error).toBeUndefined();
    const UNLISTED = gql`
      query Unlisted {
        status {
          status
        }
      }
    `;
    const from = listed.logs.length;
    const refused = await client().query({ query: UNLISTED, errorPolicy: 'all' });
    expect(refused.error && CombinedGraphQLErrors.is(refused.error) ? refused.error.errors : refused.error).toEqual([
      { message: 'This persisted operation id is not in the list this gateway runs', extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' } },
    ]);
    await until(() => graphqlRequestsLogged(listed.logs, from).length > 0, 'the access log line');
    expect(graphqlRequestsLogged(listed.logs, from)).toEqual([{ method: 'GET', status: 200 }]);
    // Only the listed document reached the upstream (ordi, through the token list); the unlisted one nothing.
    expect(listed.upstreamCalls()).toEqual(['GET /ordinals/v1/brc-20/tokens?ticker=ordi&offset=0&limit=60']);
  });
});
