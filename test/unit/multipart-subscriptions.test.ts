// The multipart subscription answer (Apollo's protocol) on its own, with events released by the
// test: heartbeats while nothing comes, each event as a {"payload": …} part followed at once by
// the boundary, the closing boundary on completion, a {"payload": null, "errors": …} part when the
// stream fails, and the event source closed when the client leaves. The gateway answering Apollo
// Client with it: test/live/multipart-subscriptions.test.ts.
import type { ExecutionResult } from 'graphql';
import { expect, test } from 'vitest';
import { asksMultipartSubscription, multipartSubscriptionProcessor } from '../../src/graphql/plugins/multipart-subscriptions.js';
import { CLIENT_ACCEPT } from '../client-accepts.js';

const fetchAPI = { Response, ReadableStream, TextEncoder } as unknown as Parameters<ReturnType<typeof multipartSubscriptionProcessor>>[1];
const PART = '\r\ncontent-type: application/json; charset=utf-8\r\n\r\n';
const HEARTBEAT = `${PART}{}\r\n--graphql`;

/** A stream of events the test releases one by one (`push`), ends (`end`) or fails (`fail`). */
function source() {
  const queue: Array<(step: IteratorResult<ExecutionResult> | Error) => void> = [];
  const pending: Array<IteratorResult<ExecutionResult> | Error> = [];
  let returned = false;
  const deliver = (step: IteratorResult<ExecutionResult> | Error) => {
    const waiting = queue.shift();
    if (waiting) waiting(step);
    else pending.push(step);
  };
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]: () => iterator,
    next: () =>
      new Promise((resolve, reject) => {
        const take = (step: IteratorResult<ExecutionResult> | Error) => (step instanceof Error ? reject(step) : resolve(step));
        const next = pending.shift();
        if (next) take(next);
        else queue.push(take);
      }),
    return: () => {
      returned = true;
      return Promise.resolve({ done: true, value: undefined });
    },
  };
  return {
    iterator,
    push: (value: ExecutionResult) => deliver({ done: false, value }),
    end: () => deliver({ done: true, value: undefined }),
    fail: () => deliver(new Error('the poller broke')),
    get returned() {
      return returned;
    },
  };
}

/** Reads the body as it comes; `until` waits for text to contain something. */
function reading(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let done = false;
  return {
    async until(predicate: (text: string) => boolean): Promise<string> {
      while (!predicate(text) && !done) {
        const chunk = await reader.read();
        done = chunk.done;
        if (chunk.value) text += decoder.decode(chunk.value);
      }
      return text;
    },
    cancel: () => reader.cancel(),
  };
}

const withoutHeartbeats = (text: string) => text.split(HEARTBEAT).join('');

test('heartbeats while no event comes, each event as a payload part, the closing boundary at the end', async () => {
  const events = source();
  const response = await multipartSubscriptionProcessor(1)(events.iterator, fetchAPI, 'multipart/mixed');
  expect(response.status).toBe(200);
  expect(Object.fromEntries(response.headers)).toEqual({
    'content-type': 'multipart/mixed; boundary="graphql"; subscriptionSpec="1.0"',
    'cache-control': 'no-store',
  });
  const body = reading(response);
  expect(await body.until((text) => text.includes(HEARTBEAT))).toMatch(
    /^\r\n--graphql(\r\ncontent-type: [^\r]+\r\n\r\n\{\}\r\n--graphql)+$/,
  );
  events.push({ data: { status: { status: 'ready' } } });
  await body.until((text) => text.includes('"payload"'));
  events.push({ data: null, errors: [] });
  events.end();
  expect(withoutHeartbeats(await body.until((text) => text.endsWith('--\r\n')))).toBe(
    `\r\n--graphql${PART}{"payload":{"data":{"status":{"status":"ready"}}}}\r\n--graphql${PART}{"payload":{"data":null,"errors":[]}}\r\n--graphql--\r\n`,
  );
});

test('a stream that fails ends with a payload of null and the error, then the closing boundary', async () => {
  const events = source();
  const body = reading(await multipartSubscriptionProcessor(60_000)(events.iterator, fetchAPI, 'multipart/mixed'));
  events.fail();
  expect(await body.until((text) => text.endsWith('--\r\n'))).toBe(
    `\r\n--graphql${PART}{"payload":null,"errors":[{"message":"The subscription stopped unexpectedly","extensions":{"code":"INTERNAL_SERVER_ERROR"}}]}\r\n--graphql--\r\n`,
  );
});

test('a single result (a subscription refused before it started) is one payload, then the end', async () => {
  const refused = { errors: [{ message: 'no', extensions: { code: 'BAD_USER_INPUT' } }] } as unknown as ExecutionResult;
  const body = reading(await multipartSubscriptionProcessor(60_000)(refused, fetchAPI, 'multipart/mixed'));
  expect(await body.until((text) => text.endsWith('--\r\n'))).toBe(
    `\r\n--graphql${PART}{"payload":{"errors":[{"message":"no","extensions":{"code":"BAD_USER_INPUT"}}]}}\r\n--graphql--\r\n`,
  );
});

test('a client that leaves closes the event source', async () => {
  const events = source();
  const body = reading(await multipartSubscriptionProcessor(60_000)(events.iterator, fetchAPI, 'multipart/mixed'));
  await body.until((text) => text.length > 0);
  await body.cancel();
  expect(events.returned).toBe(true);
});

test.each([
  [CLIENT_ACCEPT.apolloSubscription, true],
  ['multipart/mixed; subscriptionSpec="1.0"', true],
  ['multipart/mixed;deferSpec=20220824, application/json', false],
  ['text/event-stream', false],
  ['application/json', false],
])('Accept %s asks for multipart subscriptions: %s', (accept, expected) => {
  expect(asksMultipartSubscription(new Request('http://localhost/graphql', { headers: { accept } }))).toBe(expected);
});
