/**
 * What the upstream sends that is not one of its answers (a portal's page, a redirect, a body
 * compressed unasked, a 304 to a request that named no ETag) and error bodies that quote the
 * gateway's own key: REST and GraphQL both see an upstream failure, stale-if-error applies, and
 * no key is echoed.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { SAMPLE_PLATFORM_KEY } from '../../src/sample/server.js';
import { HIRO_KEY, rest, startStack, type Stack } from '../harness.js';

const TOKEN = '/ordinals/v1/brc-20/tokens/ordi';
// Credentials for other upstreams (no operation reads from them here): a hiro error quotes none.
const UNISAT_KEY = 'unisat-secret-4e8d21c7';
const ORD_AUTH = 'ord-user:ord-password-93af';
const NOT_JSON = {
  statusCode: 502,
  error: 'Bad Gateway',
  message: 'The ordinals service sent an answer that is not the JSON the gateway expects',
};

// A gateway each: one case's answer, kept or stale, must not decide the next one's.
let stack: Stack;
beforeEach(async () => {
  stack = await startStack({ STALE_IF_ERROR_MS: '60000', UNISAT_API_KEY: UNISAT_KEY, ORD_API_AUTH: ORD_AUTH });
});
afterEach(() => stack.close());

describe('an answer of the hiro services that cannot be JSON is an upstream failure', () => {
  test.each([
    ['a portal page', { status: 200, body: '<html>captive portal</html>' }],
    ['JSON cut short', { status: 200, body: '{"token":' }],
    ['a body compressed unasked', { status: 200, headers: { 'content-encoding': 'gzip' }, body: { token: {} } }],
    ['a status past 599', { status: 999, body: { token: {} } }],
    ['a not-found compressed unasked', { status: 404, headers: { 'content-encoding': 'gzip' }, body: { error: 'Not found' } }],
    ['an empty 200', { status: 200, body: '' }],
    ['a 204', { status: 204 }],
    ['a redirect', { status: 301, headers: { location: 'http://127.0.0.1:1/elsewhere' }, body: 'moved' }],
    ['a 304 to a request without If-None-Match', { status: 304, headers: { etag: '"zz"' } }],
  ])('%s: REST 502, GraphQL UPSTREAM_ERROR, nothing kept', async (_name, fault) => {
    // REST's call, then GraphQL's: the token list, and the token's own route it falls back on.
    stack.sample.inject({ path: '/ordinals/v1/brc-20/*', times: 3, ...fault });
    const answer = await rest(stack.gatewayUrl + TOKEN);
    const graphql = await stack.graphql('{ brc20Token(ticker: "ordi") { token { ticker } } }');
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 502, body: NOT_JSON });
    expect(graphql.body).toEqual({
      data: { brc20Token: null },
      errors: [
        {
          message: 'The ordinals service sent an answer that is not the JSON the gateway expects',
          locations: [{ line: 1, column: 3 }],
          path: ['brc20Token'],
          extensions: { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: fault.status },
        },
      ],
    });
    // Not kept: the next request asks again and gets the token.
    const after = await rest(stack.gatewayUrl + TOKEN);
    expect([after.status, (after.body as { token: { ticker: string } }).token.ticker]).toEqual([200, 'ordi']);
    expect(stack.upstreamCalls()).toEqual([
      `GET ${TOKEN}`,
      'GET /ordinals/v1/brc-20/tokens?ticker=ordi&offset=0&limit=60',
      `GET ${TOKEN}`,
      `GET ${TOKEN}`,
    ]);
  });

  test('a portal page in place of a cached answer is a failed revalidation: the stored answer is served stale', async () => {
    const first = await rest(stack.gatewayUrl + TOKEN);
    expect(first.status).toBe(200);
    stack.sample.inject({ path: '/ordinals/v1/brc-20/tokens/*', times: 1, status: 200, body: '<html>captive portal</html>' });
    const response = await fetch(stack.gatewayUrl + TOKEN);
    expect([response.status, response.headers.get('warning'), await response.json()]).toEqual([
      200,
      '111 - "Revalidation Failed"',
      first.body,
    ]);
  });
});

test.each([
  // REST would send its bytes without their encoding.
  ['compressed unasked', { status: 200, headers: { 'content-encoding': 'gzip' }, body: { result: null } }],
  // REST would send it on without what makes it one.
  ['a redirect', { status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' }, body: '' }],
  ['a 304 to a request without If-None-Match', { status: 304, headers: { etag: '"zz"' } }],
  // REST would send a status HTTP has not.
  ['a status past 599', { status: 600, body: { result: null } }],
])('a platform answer that is %s is no answer: REST 502', async (_name, fault) => {
  stack.sample.inject({ path: '/v1/ext/*', times: 1, ...fault });
  const answer = await rest(`${stack.gatewayUrl}/v1/ext/${SAMPLE_PLATFORM_KEY}/bitcoin-node/x`);
  expect({ status: answer.status, body: answer.body }).toEqual({
    status: 502,
    body: {
      statusCode: 502,
      error: 'Bad Gateway',
      message: 'The platform service sent an answer that is not the JSON the gateway expects',
    },
  });
});

test.each([
  ['neither seconds nor a date', 'soon<script>', null],
  ['seconds past MAX_UPSTREAM_WAIT_MS', '99999999999999999999', '900'],
  ['a date', 'Wed, 21 Oct 2015 07:28:00 GMT', 'Wed, 21 Oct 2015 07:28:00 GMT'],
])('a 429 whose Retry-After is %s is passed on with one a client can read, or none', async (_name, sent, passed) => {
  stack.sample.inject({
    path: TOKEN,
    times: 1,
    status: 429,
    headers: { 'retry-after': sent },
    body: { message: 'API rate limit exceeded' },
  });
  const response = await fetch(stack.gatewayUrl + TOKEN);
  expect([response.status, response.headers.get('retry-after'), await response.json()]).toEqual([
    429,
    passed,
    { message: 'API rate limit exceeded' },
  ]);
});

describe('error bodies never echo a credential the gateway holds', () => {
  test('a success quoting the key (a proxy echoing the request) is no answer: REST 502, GraphQL UPSTREAM_ERROR', async () => {
    const echoing = { status: 200, body: { token: { address: HIRO_KEY }, supply: {} } };
    stack.sample.inject({ path: '/ordinals/v1/brc-20/*', times: 3, ...echoing });
    const answer = await rest(stack.gatewayUrl + TOKEN);
    const graphql = await stack.graphql('{ brc20Token(ticker: "ordi") { token { address } } }');
    expect({ status: answer.status, body: answer.body, graphql: graphql.body }).toEqual({
      status: 502,
      body: NOT_JSON,
      graphql: {
        data: { brc20Token: null },
        errors: [
          {
            message: 'The ordinals service sent an answer that is not the JSON the gateway expects',
            locations: [{ line: 1, column: 3 }],
            path: ['brc20Token'],
            extensions: { code: 'UPSTREAM_ERROR', service: 'ordinals', httpStatus: 200 },
          },
        ],
      },
    });
  });

  test.each([
    ['as sent', HIRO_KEY],
    ['upper-cased', HIRO_KEY.toUpperCase()],
    ['of UNISAT_API_KEY', UNISAT_KEY],
    ['of ORD_API_AUTH', ORD_AUTH],
    ["of ORD_API_AUTH's password", 'ord-password-93af'],
    ['of ORD_API_AUTH, as its basic auth header', Buffer.from(ORD_AUTH).toString('base64')],
  ])('a 403 quoting the key %s is passed on with the key redacted', async (_name, quoted) => {
    stack.sample.inject({
      path: '/ordinals/v1/brc-20/tokens/*',
      times: 1,
      status: 403,
      body: { message: `Invalid authentication credentials: ${quoted}` },
    });
    const answer = await rest(stack.gatewayUrl + TOKEN);
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 403,
      body: { message: 'Invalid authentication credentials: <redacted>' },
    });
  });
});

describe("a mirrored answer is never a page of the gateway's origin", () => {
  test.each([
    ['an error page', { status: 500, body: '<script>alert(document.domain)</script>' }],
    ['a 200 that reads as JSON', { status: 200, body: '{"token":"<script>alert(document.domain)</script>"}' }],
  ])('%s sent as text/html keeps its bytes, and no browser runs or sniffs it', async (_name, fault) => {
    stack.sample.inject({ path: '/ordinals/v1/brc-20/tokens/*', times: 1, headers: { 'content-type': 'text/html' }, ...fault });
    const response = await fetch(stack.gatewayUrl + TOKEN);
    expect({
      status: response.status,
      contentType: response.headers.get('content-type'),
      nosniff: response.headers.get('x-content-type-options'),
      policy: response.headers.get('content-security-policy'),
      body: await response.text(),
    }).toEqual({
      status: fault.status,
      contentType: 'text/html',
      nosniff: 'nosniff',
      policy: "default-src 'none'; frame-ancestors 'none'; sandbox",
      body: fault.body,
    });
  });
});
