/**
 * What the starts gate and the set-up turns read from Accept, for the headers published clients
 * send (@apollo/client 4 BaseHttpLink, @urql/core 6 fetch source, graphql-sse): only requests whose
 * Accept leaves nothing but a stream are taken for subscriptions before their document is read.
 */
import { describe, expect, test } from 'vitest';
import { isLongLived, isStreamOnly } from '../../src/http/long-lived.js';
import { CLIENT_ACCEPT } from '../client-accepts.js';

const ACCEPTS = {
  'Apollo query': CLIENT_ACCEPT.apolloQuery,
  'Apollo @defer': CLIENT_ACCEPT.apolloDefer,
  'Apollo subscription': CLIENT_ACCEPT.apolloSubscription,
  'urql query': CLIENT_ACCEPT.urqlQuery,
  'urql subscription': CLIENT_ACCEPT.urqlSubscription,
  'graphql-sse': CLIENT_ACCEPT.graphqlSse,
  'any type': '*/*',
  none: undefined,
};

describe('Accept headers', () => {
  test('long-lived (a set-up turn) and stream-only (the starts gate), per client', () => {
    const read = Object.fromEntries(
      Object.entries(ACCEPTS).map(([client, accept]) => [client, { longLived: isLongLived(accept), streamOnly: isStreamOnly(accept) }]),
    );
    expect(read).toEqual({
      'Apollo query': { longLived: false, streamOnly: false },
      'Apollo @defer': { longLived: false, streamOnly: false },
      'Apollo subscription': { longLived: true, streamOnly: true },
      'urql query': { longLived: true, streamOnly: false },
      'urql subscription': { longLived: true, streamOnly: true },
      'graphql-sse': { longLived: true, streamOnly: true },
      'any type': { longLived: false, streamOnly: false },
      none: { longLived: false, streamOnly: false },
    });
  });
});
