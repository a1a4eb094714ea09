/**
 * graphql-http's published server audits (the GraphQL over HTTP spec's MUST, SHOULD and MAY
 * checks, as its author ships them for servers to run): every one passes, on a first request and
 * on the same request again, which the response fast path may answer from a stored result.
 */
import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startStack, type Stack } from '../harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

test('every audit passes, twice', async () => {
  const outcomes = [];
  for (let round = 0; round < 2; round++) {
    for (const audit of serverAudits({ url: `${stack.gatewayUrl}/graphql` })) {
      const result = await audit.fn();
      // A failed audit keeps its response unread: read it, or its connection stays busy.
      if (result.status !== 'ok') await result.response.text().catch(() => '');
      outcomes.push({ round, audit: audit.name, status: result.status, ...(result.status === 'ok' ? {} : { reason: result.reason }) });
    }
  }
  expect(outcomes.length).toBeGreaterThan(100);
  expect(outcomes).toEqual(outcomes.map(({ round, audit }) => ({ round, audit, status: 'ok' })));
});
