/**
 * A POST body's media type, over HTTP: its case carries no meaning (RFC 9110 8.3.1), so
 * `Application/JSON` is JSON on the executed path and on the response fast path alike; a body yoga
 * cannot read (another type, or a charset other than UTF-8) is a 415 in the error contract's shape
 * that never reaches the upstream. A GET gets GraphiQL only when its Accept prefers HTML to JSON,
 * and every Accept is read by quality, not in the order written.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { RESPONSE_CACHE_OFF, startStack, type Stack } from '../harness.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ CACHE_TTL_MS: '60000' });
});
afterAll(() => stack.close());

async function send(contentType: string, query: string, extra: Record<string, string> = {}) {
  const response = await fetch(`${stack.gatewayUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': contentType, accept: 'application/json', ...extra },
    body: JSON.stringify({ query }),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    cors: response.headers.get('access-control-allow-origin'),
    body: (await response.json()) as unknown,
  };
}

const UNSUPPORTED = {
  status: 415,
  contentType: 'application/json; charset=utf-8',
  cors: '*',
  body: {
    errors: [
      {
        message: 'The request body must be JSON in UTF-8: send content-type: application/json',
        extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' },
      },
    ],
  },
};

test.each(['application/xml', 'application/json; charset=utf-16', 'Application/JSON; Charset="UTF-16LE"', 'image/png'])(
  'a POST of %s is 415 UNSUPPORTED_MEDIA_TYPE, never sent upstream',
  async (contentType) => {
    stack.sample.clearLog();
    expect(await send(contentType, '{ brc20Token(ticker: "ordi") { token { ticker } } }', { 'x-graphql-yoga-csrf': '1' })).toEqual(
      UNSUPPORTED,
    );
    expect(stack.upstreamCalls()).toEqual([]);
  },
);

test('a form or text body without a CSRF header is still 403, whatever the case of its type', async () => {
  const refused = await send('Text/Plain', '{ status { status } }');
  expect([refused.status, refused.body]).toEqual([
    403,
    { errors: [{ message: 'Required CSRF header(s) not present', extensions: { code: 'CSRF_HEADER_REQUIRED' } }] },
  ]);
});

test.each([
  ['Application/JSON', 'ordi'],
  ['APPLICATION/JSON; Charset="UTF-8"', 'pepe'],
  ['application/json;charset=utf8', 'sats'],
])('a POST of %s is JSON: executed once, then answered from the stored result', async (contentType, ticker) => {
  const query = `{ brc20Token(ticker: "${ticker}") { token { ticker } } }`;
  const expected = {
    status: 200,
    contentType: 'application/json; charset=utf-8',
    cors: '*',
    body: { data: { brc20Token: { token: { ticker } } } },
  };
  stack.sample.clearLog();
  expect(await send(contentType, query)).toEqual(expected);
  expect(await send(contentType, query)).toEqual(expected);
  const before = await storedHits();
  expect(await send(contentType, query)).toEqual(expected);
  // The third answer came from the store, unless this project runs with the fast path off.
  expect(await storedHits()).toBe(before + (RESPONSE_CACHE_OFF ? 0 : 1));
  expect(stack.upstreamCalls()).toEqual([`GET /ordinals/v1/brc-20/tokens?ticker=${ticker}&offset=0&limit=60`]);
});

async function storedHits(): Promise<number> {
  const text = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
  return Number(/^satgate_response_cache_events_total\{event="hit"\} (\d+)/m.exec(text)?.[1] ?? 0);
}

test.each([
  ["a browser's navigation", 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text/html'],
  ['HTML and JSON alike', 'application/json, text/html', 'text/html'],
  ['JSON over HTML', 'application/graphql-response+json, application/json;q=0.9, text/html;q=0.5', 'application/graphql-response+json'],
  ['HTML refused', 'text/html;q=0, application/json', 'application/json'],
])('a GET whose Accept puts %s (%s) gets %s', async (_name, accept, type) => {
  const response = await fetch(`${stack.gatewayUrl}/graphql?query=${encodeURIComponent('{ status { status } }')}`, { headers: { accept } });
  const text = await response.text();
  const answer = type === 'text/html' ? text.includes('<title>satgate GraphiQL</title>') : JSON.parse(text);
  expect([response.status, response.headers.get('content-type')?.split(';')[0], answer]).toEqual([
    200,
    type,
    type === 'text/html' ? true : { data: { status: { status: 'ready' } } },
  ]);
});

test.each([
  ['application/json;q=0, application/graphql-response+json', 'application/graphql-response+json'],
  ['*/*;q=0.1, application/graphql-response+json', 'application/graphql-response+json'],
  ['application/graphql-response+json;q=0.5, application/json', 'application/json'],
])('Accept %s is read by quality: the answer is %s, executed and from the fast path alike', async (accept, type) => {
  const answers = [];
  for (const query of ['{ status { status } }', '{ status { status } }', '{ nope }']) {
    answers.push(await send('application/json', query, { accept }));
  }
  const data = { status: 200, contentType: `${type}; charset=utf-8`, cors: '*', body: { data: { status: { status: 'ready' } } } };
  // GraphQL over HTTP: a validation error is 400 under application/graphql-response+json, 200 under JSON.
  const invalid = {
    status: type === 'application/json' ? 200 : 400,
    contentType: `${type}; charset=utf-8`,
    cors: '*',
    body: {
      errors: [
        {
          message: 'Cannot query field "nope" on type "Query". Did you mean "node" or "nodes"?',
          locations: [{ line: 1, column: 3 }],
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        },
      ],
    },
  };
  expect(answers).toEqual([data, data, invalid]);
});
