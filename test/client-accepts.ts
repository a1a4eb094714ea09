/**
 * The Accept headers published clients send, as read from their sources: what the gateway tells
 * subscriptions apart by before parsing (http/long-lived.ts). One table for every test that sends
 * or reads them.
 */
export const CLIENT_ACCEPT = {
  /** @apollo/client 4 BaseHttpLink, a query. */
  apolloQuery: 'application/graphql-response+json,application/json;q=0.9',
  /** The same, a query with @defer. */
  apolloDefer: 'multipart/mixed;deferSpec=20220824,application/graphql-response+json,application/json;q=0.9',
  /** The same, a subscription (Apollo's multipart subscription protocol). */
  apolloSubscription: 'multipart/mixed;boundary=graphql;subscriptionSpec=1.0,application/graphql-response+json,application/json;q=0.9',
  /** @urql/core 6 fetch source, a query: JSON types, then SSE and multipart. */
  urqlQuery: 'application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed',
  /** The same, a subscription. */
  urqlSubscription: 'text/event-stream, multipart/mixed',
  /** graphql-sse, distinct connections mode. */
  graphqlSse: 'text/event-stream',
} as const;
