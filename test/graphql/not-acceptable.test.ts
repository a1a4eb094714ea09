/**
 * A result yoga cannot send in any media type the client accepts gets a 406 that says, in the error
 * contract, what to send instead: a subscription names the transports it is served over. Its stream
 * is closed at once (no subscriber left behind, no poller).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startStack, type Stack } from '../harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ LIVE_POLL_INTERVAL_MS: '50' });
});
afterAll(() => stack.close());

const SUBSCRIPTION = 'subscription { status { status } }';
const TRANSPORTS = [
  { protocol: 'GraphQL over Server-Sent Events', accept: 'text/event-stream', path: '/graphql' },
  { protocol: "Apollo's multipart HTTP subscriptions", accept: 'multipart/mixed;subscriptionSpec=1.0', path: '/graphql' },
  { protocol: 'graphql-ws (WebSocket)', subprotocol: 'graphql-transport-ws', path: '/graphql' },
];
const SUBSCRIPTION_406 = {
  errors: [
    {
      message:
        'A subscription is answered as a stream, over: GraphQL over Server-Sent Events (accept: text/event-stream on /graphql); ' +
        "Apollo's multipart HTTP subscriptions (accept: multipart/mixed;subscriptionSpec=1.0 on /graphql); " +
        'graphql-ws (WebSocket) (WebSocket subprotocol graphql-transport-ws on /graphql)',
      extensions: { code: 'NOT_ACCEPTABLE', accept: ['text/event-stream', 'multipart/mixed;subscriptionSpec=1.0'], transports: TRANSPORTS },
    },
  ],
};

async function activeSubscriptions(): Promise<number> {
  const text = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
  return Number(/^satgate_subscriptions_active (\d+)/m.exec(text)?.[1]);
}

async function untilNoSubscriber(): Promise<void> {
  const deadline = Date.now() + 5000;
  while ((await activeSubscriptions()) !== 0 && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
}

async function answer(response: Response) {
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    accept: response.headers.get('accept'),
    body: (await response.json()) as unknown,
  };
}

test.each([
  ['POST, accept: application/json', 'POST', 'application/json'],
  ['POST, accept: application/graphql-response+json, application/json', 'POST', 'application/graphql-response+json, application/json'],
  ['GET, accept: application/json', 'GET', 'application/json'],
])('a subscription under %s gets 406 naming the transports, and leaves no subscriber', async (_name, method, accept) => {
  stack.sample.clearLog();
  const init: RequestInit =
    method === 'GET'
      ? { headers: { accept } }
      : { method, headers: { accept, 'content-type': 'application/json' }, body: JSON.stringify({ query: SUBSCRIPTION }) };
  const search = method === 'GET' ? `?query=${encodeURIComponent(SUBSCRIPTION)}` : '';
  expect(await answer(await fetch(`${stack.gatewayUrl}/graphql${search}`, init))).toEqual({
    status: 406,
    contentType: 'application/json; charset=utf-8',
    accept: 'text/event-stream, multipart/mixed;subscriptionSpec=1.0',
    body: SUBSCRIPTION_406,
  });
  // The stream is closed as the 406 is sent: the gauge comes back to 0 (a leak would stay at 1).
  await untilNoSubscriber();
  expect(await activeSubscriptions()).toBe(0);
});

test('a query under an accept no media type matches gets 406 naming each type once', async () => {
  const response = await fetch(`${stack.gatewayUrl}/graphql`, {
    method: 'POST',
    headers: { accept: 'application/xml, text/html', 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ status { status } }' }),
  });
  const types = ['text/event-stream', 'multipart/mixed', 'application/graphql-response+json', 'application/json'];
  expect(await answer(response)).toEqual({
    status: 406,
    contentType: 'application/json; charset=utf-8',
    accept: types.join(', '),
    body: {
      errors: [
        {
          message: `None of the media types in accept can carry this answer: send accept: ${types.join(', ')}`,
          extensions: { code: 'NOT_ACCEPTABLE', accept: types },
        },
      ],
    },
  });
});

test('the same subscription under accept: text/event-stream streams (the transport the 406 names works)', async () => {
  const controller = new AbortController();
  const response = await fetch(`${stack.gatewayUrl}/graphql?query=${encodeURIComponent(SUBSCRIPTION)}`, {
    headers: { accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect([response.status, response.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!text.includes('event: next')) text += (await reader.read()).value ?? '';
  expect(text).toContain('data: {"data":{"status":{"status":"ready"}}}');
  controller.abort();
});

test.each([
  ['PUT', 'text/plain', 'GET, POST', 'GraphQL only supports GET and POST requests.', 'BAD_REQUEST'],
  ['DELETE', 'text/html', 'GET, POST', 'GraphQL only supports GET and POST requests.', 'BAD_REQUEST'],
])('%s under accept: %s keeps its 405 and Allow, in JSON, before any upstream call', async (method, accept, allow, message, code) => {
  stack.sample.clearLog();
  const response = await fetch(`${stack.gatewayUrl}/graphql`, {
    method,
    headers: { accept, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ status { status } }' }),
  });
  expect({ ...(await answer(response)), allow: response.headers.get('allow') }).toEqual({
    status: 405,
    contentType: 'application/json; charset=utf-8',
    accept: null,
    allow,
    body: { errors: [{ message, extensions: { code } }] },
  });
  expect(stack.sample.requests).toEqual([]);
});

test('a GET mutation under accept: text/plain keeps its 405 and Allow: POST, before any upstream call', async () => {
  stack.sample.clearLog();
  const query = 'mutation { deleteChainhook(uuid: "x") }';
  const response = await fetch(`${stack.gatewayUrl}/graphql?query=${encodeURIComponent(query)}`, {
    headers: { accept: 'text/plain', 'x-graphql-client': 'test' },
  });
  expect({ status: response.status, allow: response.headers.get('allow'), body: await response.json() }).toEqual({
    status: 405,
    allow: 'POST',
    body: { errors: [{ message: 'Can only perform a mutation operation from a POST request.', extensions: { code: 'BAD_REQUEST' } }] },
  });
  expect(stack.sample.requests).toEqual([]);
});

test('a GET mutation under accept: text/event-stream gets its 405 in JSON, not as events', async () => {
  stack.sample.clearLog();
  const query = 'mutation { deleteChainhook(uuid: "x") }';
  const response = await fetch(`${stack.gatewayUrl}/graphql?query=${encodeURIComponent(query)}`, {
    headers: { accept: 'text/event-stream' },
  });
  expect({ ...(await answer(response)), allow: response.headers.get('allow') }).toEqual({
    status: 405,
    contentType: 'application/json; charset=utf-8',
    accept: null,
    allow: 'POST',
    body: { errors: [{ message: 'Can only perform a mutation operation from a POST request.', extensions: { code: 'BAD_REQUEST' } }] },
  });
  expect(stack.sample.requests).toEqual([]);
});
