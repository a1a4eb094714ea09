// Subscriptions over Apollo's multipart HTTP protocol, with Apollo Client itself: an HttpLink and no
// split link (what Apollo Client does out of the box), its own multipart reader, against the sample
// upstream: the token now, again on each change, the poller stopped when the client unsubscribes,
// a bad argument answered as the contract's error, and the stream dropped on SIGTERM (a RetryLink resumes it).
import { ApolloClient, ApolloLink, CombinedGraphQLErrors, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { RetryLink } from '@apollo/client/link/retry';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { MINTING_TICKER } from '../../src/sample/activity.js';
import { findBrc20Token } from '../../src/sample/data.js';
import { CLIENT_ACCEPT } from '../client-accepts.js';
import { startStack, type Stack } from '../harness.js';
import { BRC20_FIELDS, toBrc20 } from '../support.js';

const INTERVAL_MS = 100;

let stack: Stack;
let closed = false;
beforeAll(async () => {
  stack = await startStack({ LIVE_POLL_INTERVAL_MS: String(INTERVAL_MS), LIVE_RATE_LIMIT_PER_MINUTE: '0' });
});
afterAll(() => (closed ? undefined : stack.close()));
beforeEach(async () => {
  await until(() => stack.gateway.live.watched === 0, 'the previous pollers to stop');
  stack.sample.reset();
});

async function until(condition: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Apollo Client as a frontend sets it up without a split link: every operation over one HttpLink. */
function apollo() {
  return new ApolloClient({ link: new HttpLink({ uri: `${stack.gatewayUrl}/graphql` }), cache: new InMemoryCache() });
}

interface Watch {
  results: unknown[];
  errors: unknown[];
  completed: boolean;
  unsubscribe(): void;
}

function watch(client: ApolloClient, query: string, variables?: Record<string, unknown>): Watch {
  const seen: Watch = { results: [], errors: [], completed: false, unsubscribe: () => undefined };
  const subscription = client.subscribe({ query: gql(query), variables }).subscribe({
    next: (result) => seen.results.push(result),
    error: (error) => seen.errors.push(error),
    complete: () => (seen.completed = true),
  });
  seen.unsubscribe = () => subscription.unsubscribe();
  return seen;
}

/** The token as Apollo's cache-aware client sees it: each object with its `__typename`. */
function asApolloSeesIt(details: ReturnType<typeof toBrc20>) {
  const { token, supply } = details as { token: object; supply: object };
  return {
    data: {
      brc20Token: {
        __typename: 'Brc20TokenDetails',
        token: { __typename: 'Brc20Token', ...token },
        supply: { __typename: 'Brc20Supply', ...supply },
      },
    },
  };
}

const TOKEN = `subscription Token($ticker: String!) { brc20Token(ticker: $ticker) { ${BRC20_FIELDS} } }`;
const tokenPolls = () => stack.sample.requests.filter((r) => r.path === `/ordinals/v1/brc-20/tokens/${MINTING_TICKER}`).length;

test('the token now, then on each change; unsubscribing stops the poller', async () => {
  const client = apollo();
  const token = watch(client, TOKEN, { ticker: MINTING_TICKER });
  await until(() => token.results.length === 1, 'the first event');
  // Apollo's own reader unwrapped `{"payload": …}`: what the client sees is the result.
  expect(token.results[0]).toEqual(asApolloSeesIt(toBrc20(findBrc20Token(MINTING_TICKER)!)));
  const minted = stack.sample.activity.mint();
  await until(() => token.results.length === 2, 'the change');
  expect(token.results[1]).toEqual(asApolloSeesIt(toBrc20(minted)));
  expect(token.errors).toEqual([]);
  token.unsubscribe();
  await until(() => stack.gateway.live.watched === 0, 'the server to see the client leave');
  // A poll already in flight may land; after it, none.
  await sleep(INTERVAL_MS);
  const polls = tokenPolls();
  await sleep(3 * INTERVAL_MS);
  expect(tokenPolls()).toBe(polls);
});

test('the raw answer: multipart/mixed with the boundary "graphql", each part {"payload": …}', async () => {
  const controller = new AbortController();
  const response = await fetch(`${stack.gatewayUrl}/graphql`, {
    method: 'POST',
    signal: controller.signal,
    // Exactly what Apollo Client 4's HttpLink sends for a subscription.
    headers: {
      'content-type': 'application/json',
      accept: CLIENT_ACCEPT.apolloSubscription,
    },
    body: JSON.stringify({ query: 'subscription { status { status } }' }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('multipart/mixed; boundary="graphql"; subscriptionSpec="1.0"');
  const reader = response.body!.getReader();
  let text = '';
  const expected =
    '\r\n--graphql\r\ncontent-type: application/json; charset=utf-8\r\n\r\n{"payload":{"data":{"status":{"status":"ready"}}}}\r\n--graphql';
  while (text.length < expected.length) text += new TextDecoder().decode((await reader.read()).value);
  expect(text).toBe(expected);
  controller.abort();
  await until(() => stack.gateway.live.watched === 0, 'the server to see the client leave');
});

test("a bad argument is the contract's error, before any poller or upstream call", async () => {
  const bad = watch(apollo(), TOKEN, { ticker: 'x'.repeat(100) });
  await until(() => bad.completed || bad.errors.length > 0, 'the answer');
  // Over the link as a GraphQL error of the result (Apollo's CombinedGraphQLErrors), then complete.
  expect({ errors: bad.errors, completed: bad.completed, results: bad.results }).toEqual({
    errors: [],
    completed: true,
    results: [{ error: expect.any(CombinedGraphQLErrors) }],
  });
  expect((bad.results[0] as { error: CombinedGraphQLErrors }).error.errors).toEqual([
    {
      message: 'ticker must be 1 to 16 bytes of printable characters without "/"',
      // Apollo prints the document it sends: the field is on line 2.
      locations: [{ line: 2, column: 3 }],
      path: ['brc20Token'],
      extensions: { code: 'BAD_USER_INPUT', argument: 'ticker' },
    },
  ]);
  expect(stack.upstreamCalls()).toEqual([]);
});

test('SIGTERM drops the stream without its closing boundary: Apollo with a RetryLink subscribes again to the replacement', async () => {
  const url = new URL(stack.gatewayUrl);
  // What an app that must outlive a deploy adds: Apollo's RetryLink before the HttpLink.
  const retrying = new ApolloClient({
    link: ApolloLink.from([
      new RetryLink({ delay: { initial: 100, max: 100, jitter: false }, attempts: { max: 50 } }),
      new HttpLink({ uri: `${stack.gatewayUrl}/graphql` }),
    ]),
    cache: new InMemoryCache(),
  });
  const status = watch(retrying, 'subscription { status { status } }');
  await until(() => status.results.length === 1, 'the first event');
  closed = true;
  await stack.close();
  // The replacement: a new process on the same address, with an upstream of its own.
  const replacement = await startStack({ PORT: url.port, LIVE_POLL_INTERVAL_MS: String(INTERVAL_MS), LIVE_RATE_LIMIT_PER_MINUTE: '0' });
  try {
    await until(() => status.results.length === 2, 'the event of the new gateway', 10_000);
    const ready = { data: { status: { __typename: 'Status', status: 'ready' } } };
    expect({ errors: status.errors, completed: status.completed, results: status.results }).toEqual({
      errors: [],
      completed: false,
      results: [ready, ready],
    });
  } finally {
    status.unsubscribe();
    await replacement.close();
  }
});
