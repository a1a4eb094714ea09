/**
 * Which HTTP requests wait for a subscription set-up turn (graphql/plugins/subscription-turns.ts),
 * told before parsing: every one whose Accept takes only a stream; of those that also take JSON
 * (urql's queries), the ones whose text may hold a subscription operation or that have no text.
 */
import { describe, expect, test } from 'vitest';
import { takesSetupTurn } from '../../src/graphql/plugins/subscription-turns.js';
import { CLIENT_ACCEPT } from '../client-accepts.js';

const URQL_QUERY = CLIENT_ACCEPT.urqlQuery;
const APOLLO_QUERY = CLIENT_ACCEPT.apolloQuery;

describe('set-up turns', () => {
  test('by Accept, then by the document text', () => {
    const cases: Array<[string, string | null, string | undefined]> = [
      ['urql query', URQL_QUERY, '{ status { status } }'],
      ['urql query naming a field subscriptionInfo', URQL_QUERY, 'query { subscriptionInfo }'],
      ['urql query with the word in a string', URQL_QUERY, '{ brc20Token(ticker: "subscription") { token { ticker } } }'],
      ['subscription sent with JSON in Accept', URQL_QUERY, 'subscription{ status { status } }'],
      ['persisted, no text, JSON and SSE', URQL_QUERY, undefined],
      ['graphql-sse subscription', CLIENT_ACCEPT.graphqlSse, 'subscription { status { status } }'],
      ['@defer over SSE alone', 'text/event-stream', '{ status { status } ... @defer { etchings { total } } }'],
      ['Apollo query', APOLLO_QUERY, 'subscription { status { status } }'],
      ['no Accept', null, '{ status { status } }'],
    ];
    expect(Object.fromEntries(cases.map(([name, accept, query]) => [name, takesSetupTurn(accept, query)]))).toEqual({
      'urql query': false,
      'urql query naming a field subscriptionInfo': false,
      'urql query with the word in a string': true,
      'subscription sent with JSON in Accept': true,
      'persisted, no text, JSON and SSE': true,
      'graphql-sse subscription': true,
      '@defer over SSE alone': true,
      'Apollo query': false,
      'no Accept': false,
    });
  });
});
