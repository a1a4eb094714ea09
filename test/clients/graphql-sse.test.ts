/**
 * graphql-sse as published: its default "distinct connections" mode (a POST per subscription with
 * accept: text/event-stream) is what satgate serves; its single connection mode starts with a PUT
 * reservation, which is answered 405 with `Allow: GET, POST` (not a CSRF refusal: a PUT needs a
 * preflight anyway), so the client fails with that status.
 */
import { createClient } from 'graphql-sse';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startStack, type Stack } from '../harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const STATUS = 'subscription { status { status } }';

/** The first value the client's subscription gives, or its failure's message; then it leaves. */
async function firstOf(singleConnection: boolean): Promise<unknown> {
  const client = createClient({ url: `${stack.gatewayUrl}/graphql`, singleConnection, retryAttempts: 0 });
  let stop = () => {};
  try {
    return await new Promise<unknown>((resolve) => {
      stop = client.subscribe(
        { query: STATUS },
        {
          next: resolve,
          error: (error: unknown) => resolve({ failed: error instanceof Error ? error.message : String(error) }),
          complete: () => resolve('complete'),
        },
      );
      setTimeout(() => resolve('nothing within 5 s'), 5000).unref();
    });
  } finally {
    stop();
    client.dispose();
  }
}

test('distinct connections mode (the default) gets the subscription', async () => {
  expect(await firstOf(false)).toEqual({ data: { status: { status: 'ready' } } });
});

test('single connection mode is refused at its reservation: 405, Allow: GET, POST', async () => {
  const reservation = await fetch(`${stack.gatewayUrl}/graphql`, { method: 'PUT' });
  expect([reservation.status, reservation.headers.get('allow'), await reservation.json()]).toEqual([
    405,
    'GET, POST',
    { errors: [{ message: 'GraphQL only supports GET and POST requests.', extensions: { code: 'BAD_REQUEST' } }] },
  ]);
  expect(await firstOf(true)).toEqual({ failed: 'Server responded with 405: Method Not Allowed' });
});
