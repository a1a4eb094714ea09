/**
 * graphql-request 7, as published, set up as docs/frontend.md shows
 * (examples/frontend/graphql-request.ts): a typed document from graphql-codegen as GET, a rejected
 * argument that never reaches the upstream, an upstream failure that costs one field, and a
 * mutation sent as POST although the client asks for GET.
 */
import { print } from 'graphql';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createRequestClient } from '../../examples/frontend/graphql-request.js';
import { DELETABLE_CHAINHOOK_UUIDS } from '../../src/sample/data.js';
import { SAMPLE_PLATFORM_KEY } from '../../src/sample/server.js';
import { TokensDocument } from '../generated/operations.js';
import { startStack, type Stack } from '../harness.js';
import { until } from '../live-clients.js';
import { BYTES_ETAG, fieldError, graphqlRequestsLogged } from '../support.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/** The access-log lines of GraphQL requests named `operationName`: method and status. */
const requests = (operationName: string) => graphqlRequestsLogged(stack.logs, 0, operationName);

/** The error a rejected request gave: status, data and errors as graphql-request hands them over. */
async function rejection(request: Promise<unknown>) {
  const error = await request.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ClientError)) throw new Error(`expected a ClientError, got ${String(error)}`);
  return { status: error.response.status, data: error.response.data, errors: error.response.errors };
}

const token = (ticker: string) => {
  const { token } = stack.sample.activity.findBrc20Token(ticker)!;
  return { token: { ticker, mintedSupply: token.minted_supply, txCount: token.tx_count } };
};

test('a typed document goes as GET and answers typed data, with an ETag', async () => {
  const client = createRequestClient(`${stack.gatewayUrl}/graphql`);
  const data = await client.request(TokensDocument, { tickers: ['ordi', 'nonexistent', 'pepe'] });
  expect(data).toEqual({ brc20Tokens: [token('ordi'), null, token('pepe')] });
  const raw = await client.rawRequest(print(TokensDocument), { tickers: ['ordi'] });
  expect([raw.status, raw.data, raw.headers.get('etag')]).toEqual([
    200,
    { brc20Tokens: [token('ordi')] },
    expect.stringMatching(BYTES_ETAG),
  ]);
  await until(() => requests('Tokens').length === 2, 'the access log lines');
  expect(requests('Tokens')).toEqual([
    { method: 'GET', status: 200 },
    { method: 'GET', status: 200 },
  ]);
});

test('an argument out of range is a ClientError with its code, and the upstream is never asked', async () => {
  const client = createRequestClient(`${stack.gatewayUrl}/graphql`);
  stack.sample.clearLog();
  const answer = await rejection(
    client.request(
      gql`
        query Page($limit: Int!) {
          etchings(limit: $limit) {
            total
          }
        }
      `,
      { limit: 61 },
    ),
  );
  expect(answer).toEqual({
    status: 200,
    data: { etchings: null },
    errors: [fieldError(['etchings'], { code: 'BAD_USER_INPUT', argument: 'limit' })],
  });
  expect(stack.upstreamCalls()).toEqual([]);
});

const STATUS_AND_TOKEN = gql`
  query Two {
    status {
      status
    }
    brc20Token(ticker: "pepe") {
      token {
        ticker
      }
    }
  }
`;

test('an upstream failure costs its field: the rest is in the ClientError, or the answer with errorPolicy all', async () => {
  const url = `${stack.gatewayUrl}/graphql`;
  stack.sample.inject({ path: '/metadata/v1', status: 500, body: { message: 'boom' } });
  const expected = {
    status: 200,
    data: { status: null, brc20Token: { token: { ticker: 'pepe' } } },
    errors: [fieldError(['status'], { code: 'UPSTREAM_ERROR', service: 'metadata', httpStatus: 500 })],
  };
  expect(await rejection(createRequestClient(url).request(STATUS_AND_TOKEN))).toEqual(expected);
  const lenient = new GraphQLClient(url, { method: 'GET', errorPolicy: 'all' });
  expect(await lenient.request(STATUS_AND_TOKEN)).toEqual(expected.data);
  const { status, data, errors } = await lenient.rawRequest(STATUS_AND_TOKEN);
  expect({ status, data, errors }).toEqual(expected);
});

test('a mutation goes as JSON POST though the client asks for GET, with the key in its headers', async () => {
  const client = createRequestClient(`${stack.gatewayUrl}/graphql`);
  const uuid = DELETABLE_CHAINHOOK_UUIDS[1]!;
  stack.sample.clearLog();
  const data = await client.request(
    gql`
      mutation Remove($uuid: String!) {
        deleteChainhook(uuid: $uuid) {
          status
        }
      }
    `,
    { uuid },
    { 'x-api-key': SAMPLE_PLATFORM_KEY },
  );
  expect(data).toEqual({ deleteChainhook: { status: 'success' } });
  expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${SAMPLE_PLATFORM_KEY}/chainhooks/${uuid}`]);
  await until(() => requests('Remove').length === 1, 'the access log line');
  expect(requests('Remove')).toEqual([{ method: 'POST', status: 200 }]);
});
