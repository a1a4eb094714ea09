/**
 * Abuse suite, edges (issue 8, classes 5, 6, 7, 8 and 10): stack traces and internal errors, keys
 * on edge paths, path segments held to the proxy rules, CORS for unlisted origins, and timeouts.
 * Real gateways over HTTP against the sample upstream; the sample's request log proves that
 * refused input never left, and the captured logs are searched for keys and error lines.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DELETABLE_CHAINHOOK_UUIDS, sampleData } from '../../src/sample/data.js';
import { SAMPLE_PLATFORM_KEY } from '../../src/sample/server.js';
import { HIRO_KEY, startStack, type Stack } from '../harness.js';
import { STACK_FRAME, fieldError, overWebSocket } from '../support.js';

const KEY = SAMPLE_PLATFORM_KEY;
const UUID = DELETABLE_CHAINHOOK_UUIDS[0]!;
const NODE = 'query($path: String!, $key: String) { bitcoinNode(path: $path, apiKey: $key) }';
const DELETE = 'mutation($uuid: String!, $key: String) { deleteChainhook(uuid: $uuid, apiKey: $key) { status } }';
const FASTIFY_JSON = 'application/json; charset=utf-8';

/** Every response body this file received: none may hold a stack trace or a key. */
const bodies: string[] = [];

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request with the target sent byte for byte (no client-side normalisation). */
function raw(s: Stack, method: string, target: string, headers: Record<string, string> = {}): Promise<Raw> {
  const { hostname, port } = new URL(s.gatewayUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path: target, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        bodies.push(text);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const json = (answer: Raw) => ({ status: answer.status, body: JSON.parse(answer.text) as unknown });

async function graphql(s: Stack, query: string, variables?: Record<string, unknown>, headers?: Record<string, string>) {
  const result = await s.graphql(query, variables, headers);
  bodies.push(JSON.stringify(result.body));
  return result;
}

/** The gateway's log lines (parsed) for one request id, after pino has written them. */
/** pino's level names: `error` and worse. */
const isErrorLevel = (level: unknown) => level === 'error' || level === 'fatal';

async function logsOf(s: Stack, requestId: string): Promise<Array<Record<string, unknown>>> {
  await new Promise((resolve) => setTimeout(resolve, 20));
  return s.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.requestId === requestId);
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ LOG_LEVEL: 'debug', STALE_IF_ERROR_MS: '0' });
});
afterAll(() => stack.close());
afterEach(() => stack.sample.reset());

describe('abuse: edges', () => {
  // ------------------------------------------------------------------------------------------
  describe('5. no stack traces, no internal errors for bad input or bad upstream data', () => {
    it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'prototype'])(
      'GET /graphiql/%s (a name on the object prototype) is a plain 404',
      async (name) => {
        const answer = await raw(stack, 'GET', `/graphiql/${name}`);
        expect({ status: answer.status, text: answer.text }).toEqual({ status: 404, text: 'Not found' });
      },
    );

    it('GET /graphiql/init.js (a listed asset) is still served', async () => {
      const answer = await raw(stack, 'GET', '/graphiql/init.js');
      expect([answer.status, answer.headers['content-type'], answer.text.includes('YogaGraphiQL.renderYogaGraphiQL(')]).toEqual([
        200,
        'text/javascript; charset=utf-8',
        true,
      ]);
    });

    it.each(['?__proto__=1&constructor=2&toString=3&limit=2', '?__proto__=a&__proto__=b&limit=2', '?hasOwnProperty=x&limit=2&offset=1'])(
      'REST query keys named like prototype members (%s) are parameters like any other',
      async (query) => {
        const gateway = json(await raw(stack, 'GET', `/runes/v1/etchings${query}`));
        const direct = await fetch(`${stack.sample.url}/runes/v1/etchings${query}`);
        expect(gateway).toEqual({ status: direct.status, body: await direct.json() });
      },
    );

    it.each<[string, Record<string, unknown>, string]>([
      ['missing (named like a prototype member)', {}, 'Variable "$constructor" of required type "String!" was not provided.'],
      ['null for a non-null type', { constructor: null }, 'Variable "$constructor" of non-null type "String!" must not be null.'],
      [
        'a list for a String',
        { constructor: ['ordi'] },
        'Variable "$constructor" got invalid value ["ordi"]; String cannot represent a non string value: ["ordi"]',
      ],
      [
        'an object for a String',
        { constructor: { __proto__: 'x' } },
        'Variable "$constructor" got invalid value {}; String cannot represent a non string value: {}',
      ],
    ])('a variable that is %s: BAD_USER_INPUT, no upstream call', async (_name, variables, message) => {
      const { status, body } = await graphql(
        stack,
        'query($constructor: String!) { brc20Token(ticker: $constructor) { token { ticker } } }',
        variables,
      );
      expect({ status, body }).toEqual({
        status: 200,
        body: { errors: [{ message, locations: [{ line: 1, column: 7 }], extensions: { code: 'BAD_USER_INPUT' } }] },
      });
      expect(stack.upstreamCalls()).toEqual([]);
    });

    describe('a lone surrogate is BAD_USER_INPUT, never sent upstream', () => {
      const TOKEN = 'query($t: String!) { brc20Token(ticker: $t) { token { ticker } } }';
      const HOLDERS = 'query($t: String!) { brc20Token(ticker: $t) { supply { holders } } }';
      it.each([
        ['ticker (list route)', TOKEN, { t: '\ud800' }, 'brc20Token', 'ticker'],
        ['ticker (detail route)', HOLDERS, { t: 'or\udc00di' }, 'brc20Token', 'ticker'],
        ['ticker, a reversed pair', HOLDERS, { t: '\udc00\ud800' }, 'brc20Token', 'ticker'],
        ['bitcoinNode path', NODE, { path: 'rest/\ud800.json', key: KEY }, 'bitcoinNode', 'path'],
        ['bitcoinNode query string', NODE, { path: 'rest/chaininfo.json?x=\udfff', key: KEY }, 'bitcoinNode', 'path'],
        ['bitcoinNode apiKey', NODE, { path: 'rest/chaininfo.json', key: `${KEY}\ud800` }, 'bitcoinNode', 'apiKey'],
        ['deleteChainhook apiKey', DELETE, { uuid: UUID, key: '\udbff' }, 'deleteChainhook', 'apiKey'],
        ['deleteChainhook uuid', DELETE, { uuid: `${UUID}\ud800`, key: KEY }, 'deleteChainhook', 'uuid'],
      ])('%s', async (_name, query, variables, field, argument) => {
        const { status, body } = await graphql(stack, query, variables);
        expect({ status, body }).toEqual({
          status: 200,
          body: {
            data: { [field]: null },
            errors: [fieldError([field], { code: 'BAD_USER_INPUT', argument })],
          },
        });
        expect(stack.upstreamCalls()).toEqual([]);
      });

      it('a well-formed pair (an emoji) is a ticker like any other: looked up upstream', async () => {
        const { body } = await graphql(stack, HOLDERS, { t: '\ud83d\ude00' });
        expect(body).toEqual({ data: { brc20Token: null } });
        expect(stack.upstreamCalls()).toEqual(['GET /ordinals/v1/brc-20/tokens/%F0%9F%98%80']);
      });

      it('as an escape in the document: a parse error (graphql-js refuses it), no upstream call', async () => {
        const { status, body } = await graphql(stack, `{ brc20Token(ticker: "\\ud800") { token { ticker } } }`);
        expect({ status, body }).toEqual({
          status: 200,
          body: {
            errors: [
              {
                message: expect.stringMatching(/^Syntax Error: /),
                locations: [{ line: 1, column: 23 }],
                extensions: { code: 'GRAPHQL_PARSE_FAILED' },
              },
            ],
          },
        });
        expect(stack.upstreamCalls()).toEqual([]);
      });

      it.each([
        // UTF-8 bytes of U+D800: not valid UTF-8, so not a valid url component (Fastify's 400).
        [
          'a ticker',
          '/ordinals/v1/brc-20/tokens/%ED%A0%80',
          "'/ordinals/v1/brc-20/tokens/%ED%A0%80' is not a valid url component",
          'application/json',
        ],
        ['a bitcoin-node path', `/v1/ext/${KEY}/bitcoin-node/rest/%ED%A0%80.json`, 'path has a malformed percent-encoding', FASTIFY_JSON],
        [
          'a key',
          '/v1/ext/%ED%A0%80/bitcoin-node/rest/chaininfo.json',
          "'/v1/ext/<redacted>/bitcoin-node/rest/chaininfo.json' is not a valid url component",
          'application/json',
        ],
      ])('REST: %s → 400 in the upstream format, no upstream call', async (_name, target, message, contentType) => {
        const answer = await raw(stack, 'GET', target);
        expect({ ...json(answer), type: answer.headers['content-type'] }).toEqual({
          status: 400,
          body: { statusCode: 400, error: 'Bad Request', message },
          type: contentType,
        });
        expect(stack.upstreamCalls()).toEqual([]);
      });
    });

    describe('an upstream answer of the wrong shape is UPSTREAM_ERROR naming the service', () => {
      const ordi = sampleData.brc20Tokens.find((t) => t.token.ticker === 'ordi')!;
      const etching = sampleData.etchings[0]!;
      const page = (results: unknown) => ({ limit: 20, offset: 0, total: 1, results });
      const upstreamError = (path: Array<string | number>, service: string) =>
        fieldError(path, { code: 'UPSTREAM_ERROR', service, httpStatus: 200 });

      it.each<[string, string, unknown]>([
        ['null', '/ordinals/v1/brc-20/tokens/ordi', null],
        ['a JSON string', '/ordinals/v1/brc-20/tokens/ordi', 'ordi'],
        ['an array for an object', '/ordinals/v1/brc-20/tokens/ordi', [ordi]],
        ['a null token', '/ordinals/v1/brc-20/tokens/ordi', { ...ordi, token: null }],
        ['an amount as a JSON number', '/ordinals/v1/brc-20/tokens/ordi', { ...ordi, token: { ...ordi.token, max_supply: 21e6 } }],
        ['holders beyond a 32-bit Int', '/ordinals/v1/brc-20/tokens/ordi', { ...ordi, supply: { ...ordi.supply, holders: 2 ** 31 } }],
      ])('brc20Token: %s → UPSTREAM_ERROR, status still answers', async (_name, path, answer) => {
        stack.sample.inject({ path, status: 200, body: answer as object });
        const { body } = await graphql(stack, '{ status { status } brc20Token(ticker: "ordi") { supply { holders } } }');
        expect(body).toEqual({
          data: { status: { status: 'ready' }, brc20Token: null },
          errors: [upstreamError(['brc20Token'], 'ordinals')],
        });
      });

      // The token list is an optimisation: when its answer is unusable, the token's own route decides.
      it.each<[string, unknown]>([
        ['a list page with a null item', page([null])],
        ['a list page whose results are a string', page('ordi')],
      ])('brc20Token without holders: %s → the token route answers instead', async (_name, answer) => {
        stack.sample.inject({ path: '/ordinals/v1/brc-20/tokens', status: 200, body: answer as object });
        const { body } = await graphql(stack, '{ brc20Token(ticker: "ordi") { token { ticker } } }');
        expect(body).toEqual({ data: { brc20Token: { token: { ticker: 'ordi' } } } });
        expect(stack.upstreamCalls()).toEqual([
          'GET /ordinals/v1/brc-20/tokens?ticker=ordi&offset=0&limit=60',
          'GET /ordinals/v1/brc-20/tokens/ordi',
        ]);
      });

      it.each<[string, unknown]>([
        ['null', null],
        ['a page with a null item', page([null])],
        ['a page without a total', { limit: 20, offset: 0, results: [] }],
        ['a negative total', { ...page([]), total: -5 }],
        ['more results than the total', { ...page([etching, sampleData.etchings[1]]), total: 1 }],
        ['a divisibility of -1', page([{ ...etching, divisibility: -1 }])],
        ['a divisibility of 39', page([{ ...etching, divisibility: 39 }])],
        ['an item whose location is null', page([{ ...etching, location: null }])],
        ['an item whose supply is a string', page([{ ...etching, supply: 'lots' }])],
        [
          'a timestamp whose milliseconds are not a safe integer',
          page([{ ...etching, location: { ...etching.location, timestamp: 2 ** 50 } }]),
        ],
      ])('etchings: %s → UPSTREAM_ERROR', async (_name, answer) => {
        stack.sample.inject({ path: '/runes/v1/etchings', status: 200, body: answer as object });
        const { body } = await graphql(stack, '{ etchings { results { id location { timestamp } } } }');
        expect(body).toEqual({ data: { etchings: null }, errors: [upstreamError(['etchings'], 'runes')] });
      });

      it.each<[string, unknown]>([
        ['a page with a null item', page([null])],
        ['a total that is a string', { ...page([]), total: '5' }],
        ['a transfer without its destination', page([{ ...sampleData.transferBlocks[0]!.transfers[0]!, to: undefined }])],
      ])('transfers: %s → UPSTREAM_ERROR, brc20Token still answers', async (_name, answer) => {
        stack.sample.inject({ path: '/ordinals/v1/inscriptions/transfers', status: 200, body: answer as object });
        const { body } = await graphql(
          stack,
          '{ transfers(block: 775700) { total results { id } } brc20Token(ticker: "ordi") { token { ticker } } }',
        );
        expect(body).toEqual({
          data: { transfers: null, brc20Token: { token: { ticker: 'ordi' } } },
          errors: [upstreamError(['transfers'], 'ordinals')],
        });
      });

      it.each<[string, unknown]>([
        ['null', null],
        ['a JSON string', 'ready'],
        ['a status without server_version', { status: 'ready' }],
        ['a chain tip that is not an object', { server_version: 'x', status: 'ready', chain_tip: 42 }],
        ['a count that is not a number', { server_version: 'x', status: 'ready', chain_tip: null, tokens: { ft: 'many' } }],
      ])('status: %s → UPSTREAM_ERROR', async (_name, answer) => {
        stack.sample.inject({ path: '/metadata/v1', status: 200, body: answer as object });
        const { body } = await graphql(stack, '{ status { status tokens { ft } } }');
        expect(body).toEqual({ data: { status: null }, errors: [upstreamError(['status'], 'metadata')] });
      });

      it.each<[string, unknown]>([
        ['null', null],
        ['a status that is a number', { status: 1, chainhookUuid: UUID }],
      ])('deleteChainhook: %s → UPSTREAM_ERROR (sent once)', async (_name, answer) => {
        stack.sample.inject({ method: 'DELETE', path: `/v1/ext/${KEY}/chainhooks/${UUID}`, status: 200, body: answer as object });
        const { body } = await graphql(stack, DELETE, { uuid: UUID, key: KEY });
        expect(body).toEqual({ data: { deleteChainhook: null }, errors: [upstreamError(['deleteChainhook'], 'platform')] });
        expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${KEY}/chainhooks/${UUID}`]);
      });

      it('REST mirrors the upstream answer as it is (it checks no shape)', async () => {
        stack.sample.inject({ path: '/runes/v1/etchings', status: 200, body: page([null]) });
        const answer = await raw(stack, 'GET', '/runes/v1/etchings');
        expect({ ...json(answer), type: answer.headers['content-type'] }).toEqual({ status: 200, body: page([null]), type: FASTIFY_JSON });
      });

      it('bad upstream data is no bug: nothing is logged at error', () => {
        const errors = stack.logs.map((line) => JSON.parse(line) as { level: string }).filter((line) => isErrorLevel(line.level));
        expect(errors).toEqual([]);
      });
    });

    describe('an unexpected error (a bug, injected) answers a generic error naming the request id, logged once', () => {
      const bug = () => new TypeError(`boom at /v1/ext/${KEY}/bitcoin-node (reading 'x')`);
      const expectLoggedOnce = async (requestId: string, type: string) => {
        const lines = await logsOf(stack, requestId);
        const errors = lines.filter((line) => isErrorLevel(line.level));
        expect(errors).toEqual([
          expect.objectContaining({
            level: 'error',
            requestId,
            msg: 'unexpected error',
            error: expect.objectContaining({ type, stack: expect.stringMatching(STACK_FRAME) }),
          }),
        ]);
        expect(JSON.stringify(lines)).not.toContain(KEY);
        expect(JSON.stringify(lines)).toContain('/v1/ext/<redacted>/bitcoin-node');
      };

      it.each([
        ['HTTP', 'production'],
        ['HTTP', 'development'],
        ['graphql-ws', 'production'],
      ])('GraphQL resolver over %s (NODE_ENV=%s): INTERNAL_SERVER_ERROR, no stack, no originalError', async (transport, env) => {
        const { metadata } = stack.gateway.upstreams;
        const status = metadata.status;
        const nodeEnv = process.env.NODE_ENV;
        metadata.status = () => Promise.reject(bug());
        process.env.NODE_ENV = env;
        try {
          const requestId = `edges-5-${transport}-${env}`;
          const query = '{ status { status } }';
          const headers = { 'x-request-id': requestId };
          let body: unknown;
          if (transport === 'HTTP') {
            const answer = await graphql(stack, query, undefined, headers);
            expect(answer.status).toBe(200);
            body = answer.body;
          } else {
            body = await overWebSocket(stack.gatewayUrl, { query }, headers);
          }
          expect(body).toEqual({
            data: { status: null },
            errors: [
              {
                message: `Unexpected error (request ${requestId})`,
                locations: [{ line: 1, column: 3 }],
                path: ['status'],
                extensions: { code: 'INTERNAL_SERVER_ERROR', requestId },
              },
            ],
          });
          await expectLoggedOnce(requestId, 'TypeError');
        } finally {
          metadata.status = status;
          process.env.NODE_ENV = nodeEnv;
        }
      });

      it('REST route: 500 in the upstream format naming the request id', async () => {
        const { service } = stack.gateway.upstreams.metadata;
        service.request = () => {
          throw bug();
        };
        try {
          const requestId = 'edges-5-rest';
          const answer = await raw(stack, 'GET', '/metadata/v1', { 'x-request-id': requestId });
          expect({ ...json(answer), id: answer.headers['x-request-id'] }).toEqual({
            status: 500,
            body: { statusCode: 500, error: 'Internal Server Error', message: `Unexpected error (request ${requestId})` },
            id: requestId,
          });
          await expectLoggedOnce(requestId, 'TypeError');
        } finally {
          delete (service as Partial<typeof service>).request;
        }
      });

      it("an endpoint beside GraphQL (/metrics) that throws: 500 JSON naming the request id, not yoga's stack page", async () => {
        const { registry } = stack.gateway.metrics;
        registry.metrics = () => Promise.reject(bug());
        try {
          const requestId = 'edges-5-metrics';
          const answer = await raw(stack, 'GET', '/metrics', { 'x-request-id': requestId });
          expect(json(answer)).toEqual({
            status: 500,
            body: {
              errors: [{ message: `Unexpected error (request ${requestId})`, extensions: { code: 'INTERNAL_SERVER_ERROR', requestId } }],
            },
          });
          await expectLoggedOnce(requestId, 'TypeError');
        } finally {
          delete (registry as Partial<typeof registry>).metrics;
        }
      });
    });

    it.each<[string, string, string, Record<string, string>, string?]>([
      ['malformed JSON', 'POST', '/graphql', { 'content-type': 'application/json' }, '{"query": "{ status'],
      ['a JSON null body', 'POST', '/graphql', { 'content-type': 'application/json' }, 'null'],
      ['a batch while batching is off', 'POST', '/graphql', { 'content-type': 'application/json' }, '[{"query":"{ status { status } }"}]'],
      [
        'variables as a string',
        'POST',
        '/graphql',
        { 'content-type': 'application/json' },
        '{"query":"{ status { status } }","variables":"x"}',
      ],
      [
        'operationName as an object',
        'POST',
        '/graphql',
        { 'content-type': 'application/json' },
        '{"query":"{ status { status } }","operationName":{}}',
      ],
      ['an unknown method', 'PUT', '/graphql', {}],
      [
        'a form POST without the CSRF header',
        'POST',
        '/graphql',
        { 'content-type': 'application/x-www-form-urlencoded' },
        'query=%7Bstatus%7Bstatus%7D%7D',
      ],
      ['readiness', 'GET', '/readyz', {}],
      ['metrics', 'GET', '/metrics', {}],
      ['an unknown path', 'GET', '/nothing/here', {}],
      ['an unknown GraphiQL asset', 'GET', '/graphiql/nope.js', {}],
      ['a REST route 404', 'GET', '/runes/v1/nothing', {}],
      ['a REST bad escape', 'GET', '/runes/v1/%E0%A4%A', {}],
      ['an absolute-form target', 'GET', 'https://gateway.example/healthz', {}],
      ['an absolute-form target without a path', 'GET', 'http://gateway.example', {}],
      ['an asterisk-form target', 'OPTIONS', '*', {}],
    ])('%s: no stack trace, no internal error', async (_name, method, target, headers, body) => {
      const answer = await new Promise<Raw>((resolve, reject) => {
        const { hostname, port } = new URL(stack.gatewayUrl);
        const req = httpRequest({ host: hostname, port, path: target, method, headers }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        });
        req.on('error', reject);
        req.end(body);
      });
      bodies.push(answer.text);
      expect(answer.status).toBeLessThan(500);
      expect(STACK_FRAME.test(answer.text), answer.text).toBe(false);
      expect(answer.text).not.toMatch(/"code":"INTERNAL_SERVER_ERROR"/);
    });

    it('an absolute-form request target (RFC 9112) is served by its path, GraphQL and REST alike', async () => {
      const graphqlAnswer = await raw(stack, 'GET', 'http://gateway.example/graphql?query=%7B__typename%7D', {
        'x-graphql-yoga-csrf': '1',
      });
      expect(json(graphqlAnswer)).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
      const restAnswer = await raw(stack, 'GET', 'http://gateway.example/runes/v1/etchings?limit=1');
      expect(json(restAnswer)).toEqual(json(await raw(stack, 'GET', '/runes/v1/etchings?limit=1')));
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('6. no key on edge paths: REST answers and every log line', () => {
    it.each([
      ['a doubled leading slash', 'GET', `//v1/ext/${KEY}/bitcoin-node/rest/chaininfo.json`],
      ['an uppercase version', 'GET', `/V1/ext/${KEY}/bitcoin-node/rest/chaininfo.json`],
      ['an uppercase ext', 'DELETE', `/v1/EXT/${KEY}/chainhooks/${UUID}`],
      ['a mixed-case ext', 'GET', `/v1/eXt/${KEY}`],
      ['an absolute request target', 'GET', `http://gateway.example/v1/ext/${KEY}/bitcoin-node/rest/chaininfo.json`],
      ['an absolute target on another path', 'GET', `https://gateway.example/api/v1/ext/${KEY}/x`],
      ['encoded slashes around ext', 'GET', `/v1%2Fext%2F${KEY}%2Fbitcoin-node`],
      ['lowercase encoded slashes', 'GET', `/v1%2fext%2f${KEY}`],
      ['double-encoded slashes', 'GET', `/v1%252Fext%252F${KEY}/x`],
      ['an encoded e in ext', 'GET', `/v1/%65xt/${KEY}/x`],
      ['an empty segment before the key', 'GET', `/v1/ext//${KEY}/x`],
      ['path parameters on ext', 'GET', `/v1/ext;v=1/${KEY}/x`],
      ['a tab after ext', 'GET', `/v1/ext%09/${KEY}/x`],
      ['a NUL after ext', 'GET', `/v1/ext%00/${KEY}/x`],
      ['a dot after ext', 'GET', `/v1/ext./${KEY}/x`],
      ['ext deeper in the path', 'GET', `/graphql/x/ext/${KEY}`],
      ['a key with an encoded slash inside', 'GET', `/v1/ext/${KEY.slice(0, 16)}%2F${KEY.slice(16)}/bitcoin-node/rest/chaininfo.json`],
      ['a key with a backslash inside', 'GET', `/v1/ext/${KEY.slice(0, 16)}%5C${KEY.slice(16)}/bitcoin-node/x`],
      ['a REST route 404', 'GET', `/v1/ext/${KEY}/nothing-here`],
      ['a REST bad escape after the key', 'DELETE', `/v1/ext/${KEY}/chainhooks/%zz`],
      ['a REST bad escape in the key', 'GET', `/v1/ext/${KEY}%zz/bitcoin-node/x`],
    ])('%s: %s %s', async (_name, method, target) => {
      const requestId = `edges-6-${bodies.length}`;
      const answer = await raw(stack, method, target, { 'x-request-id': requestId });
      expect(answer.text).not.toContain(KEY.slice(16));
      const lines = await logsOf(stack, requestId);
      const access = lines.filter((line) => line.msg === 'request');
      expect(access).toEqual([expect.objectContaining({ requestId, method, path: expect.stringContaining('<redacted>') })]);
      expect(JSON.stringify(lines)).not.toContain(KEY.slice(16));
      expect(answer.status).not.toBe(500);
    });

    it.each([
      [
        'DELETE',
        `/v1/ext/${KEY}/chainhooks/%zz`,
        { statusCode: 400, error: 'Bad Request', message: "'/v1/ext/<redacted>/chainhooks/%zz' is not a valid url component" },
      ],
      [
        'GET',
        `/v1/ext/${KEY}/nothing-here`,
        { statusCode: 404, error: 'Not Found', message: 'Route GET:/v1/ext/<redacted>/nothing-here not found' },
      ],
      [
        'GET',
        `/v1/ext/${KEY}/bitcoin-node/x%2`,
        { statusCode: 400, error: 'Bad Request', message: 'path has a malformed percent-encoding' },
      ],
    ])('REST %s %s: the whole answer, the key redacted', async (method, target, body) => {
      expect(json(await raw(stack, method, target))).toEqual({ status: body.statusCode, body });
      expect(stack.upstreamCalls()).toEqual([]);
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('7. a key or a chainhook id that is not a sane token never reaches the upstream', () => {
    const badKeys = [
      `${KEY}%2F..`,
      `${KEY}/../chainhooks`,
      `${KEY}\\x`,
      `${KEY}\u0000`,
      `${KEY}\r\nx-injected: 1`,
      '..',
      '.',
      `${KEY} `.repeat(2).trim(),
      'k'.repeat(129),
      `${KEY}?x=1`,
      `${KEY}#x`,
    ];

    it.each(badKeys)('GraphQL apiKey %j: BAD_USER_INPUT on both platform fields', async (key) => {
      const node = await graphql(stack, NODE, { path: 'rest/chaininfo.json', key });
      expect(node.body).toEqual({
        data: { bitcoinNode: null },
        errors: [fieldError(['bitcoinNode'], { code: 'BAD_USER_INPUT', argument: 'apiKey' })],
      });
      const deletion = await graphql(stack, DELETE, { uuid: UUID, key });
      expect(deletion.body).toEqual({
        data: { deleteChainhook: null },
        errors: [fieldError(['deleteChainhook'], { code: 'BAD_USER_INPUT', argument: 'apiKey' })],
      });
      expect(stack.upstreamCalls()).toEqual([]);
    });

    it.each([`${KEY}%2F..`, '..', `${KEY}/x`, 'k'.repeat(129), 'a\\b'])('GraphQL x-api-key header %j: BAD_USER_INPUT', async (key) => {
      const { body } = await graphql(stack, '{ bitcoinNode(path: "rest/chaininfo.json") }', undefined, { 'x-api-key': key });
      expect(body).toEqual({
        data: { bitcoinNode: null },
        errors: [fieldError(['bitcoinNode'], { code: 'BAD_USER_INPUT', argument: 'apiKey' })],
      });
      expect(stack.upstreamCalls()).toEqual([]);
    });

    it.each([`${UUID}%2F..`, `${UUID}/..`, `${UUID}\r\n`, `${UUID}\u0000`, `../${UUID}`, `${UUID}\\`, UUID.replace(/-/g, '')])(
      'GraphQL uuid %j: BAD_USER_INPUT',
      async (uuid) => {
        const { body } = await graphql(stack, DELETE, { uuid, key: KEY });
        expect(body).toEqual({
          data: { deleteChainhook: null },
          errors: [fieldError(['deleteChainhook'], { code: 'BAD_USER_INPUT', argument: 'uuid' })],
        });
        expect(stack.upstreamCalls()).toEqual([]);
      },
    );

    const keyRule = 'params/apiKey must be 1 to 128 characters of A-Z, a-z, 0-9, ".", "_", "~" and "-"';
    const uuidRule = 'params/chainhookUuid must be a UUID (8-4-4-4-12 hexadecimal digits)';
    it.each([
      ['GET', `/v1/ext/${KEY}%2F..%2Fchainhooks/bitcoin-node/rest/chaininfo.json`, keyRule],
      ['GET', `/v1/ext/${KEY}%5C/bitcoin-node/rest/chaininfo.json`, keyRule],
      ['GET', `/v1/ext/${KEY}%00/bitcoin-node/rest/chaininfo.json`, keyRule],
      ['GET', `/v1/ext/${KEY}%0D%0Ax:1/bitcoin-node/rest/chaininfo.json`, keyRule],
      ['GET', '/v1/ext/%2E%2E/bitcoin-node/rest/chaininfo.json', keyRule],
      ['DELETE', `/v1/ext/${KEY}%2F..%2F/chainhooks/${UUID}`, keyRule],
      ['DELETE', `/v1/ext/${KEY}%20/chainhooks/${UUID}`, keyRule],
      ['DELETE', `/v1/ext/${KEY}/chainhooks/${UUID}%2F..`, uuidRule],
      ['DELETE', `/v1/ext/${KEY}/chainhooks/${UUID}%0D%0A`, uuidRule],
      ['DELETE', `/v1/ext/${KEY}/chainhooks/${UUID}%00`, uuidRule],
      ['DELETE', `/v1/ext/${KEY}/chainhooks/%2E%2E`, uuidRule],
      ['DELETE', `/v1/ext/${KEY}/chainhooks/not-a-uuid`, uuidRule],
    ])('REST %s %s: 400 in the upstream format', async (method, target, message) => {
      const answer = await raw(stack, method, target);
      expect({ ...json(answer), type: answer.headers['content-type'] }).toEqual({
        status: 400,
        body: { statusCode: 400, error: 'Bad Request', message },
        type: FASTIFY_JSON,
      });
      expect(answer.text).not.toContain(KEY);
      expect(stack.upstreamCalls()).toEqual([]);
    });

    it('a sane key and a UUID in any case still go through, exactly once', async () => {
      const answer = await raw(stack, 'DELETE', `/v1/ext/${KEY}/chainhooks/${UUID.toUpperCase()}`);
      expect(json(answer).status).toBe(200);
      expect(stack.upstreamCalls()).toEqual([`DELETE /v1/ext/${KEY}/chainhooks/${UUID.toUpperCase()}`]);
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('8. CORS: no Access-Control-Allow-Origin for an unlisted origin, Vary: Origin', () => {
    const APP = 'https://app.example';
    const ADMIN = 'https://admin.example';
    let listed: Stack;
    beforeAll(async () => {
      listed = await startStack({ CORS_ORIGINS: `${APP},${ADMIN}` });
    });
    afterAll(() => listed.close());

    /** The CORS part of an answer. */
    const cors = (answer: Raw) =>
      Object.fromEntries(Object.entries(answer.headers).filter(([name]) => name.startsWith('access-control-') || name === 'vary'));
    const granted = (origin: string, preflight: boolean) => ({
      'access-control-allow-origin': origin,
      'access-control-expose-headers':
        'etag, x-request-id, retry-after, age, warning, ratelimit-limit, ratelimit-remaining, ratelimit-reset, x-data-source',
      ...(preflight
        ? {
            'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
            'access-control-allow-headers':
              'content-type, x-api-key, x-hiro-api-key, x-request-id, if-none-match, x-graphql-yoga-csrf, apollo-require-preflight, x-apollo-operation-name, traceparent, tracestate, apollographql-client-name, apollographql-client-version, sentry-trace, baggage, authorization',
          }
        : {}),
    });
    const requests: Array<[string, string, string, Record<string, string>]> = [
      ['GraphQL GET', 'GET', '/graphql?query=%7B__typename%7D', { 'x-graphql-yoga-csrf': '1' }],
      [
        'GraphQL preflight',
        'OPTIONS',
        '/graphql',
        { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      ],
      ['REST GET', 'GET', '/runes/v1/etchings?limit=1', {}],
      ['REST 400', 'GET', '/runes/v1/etchings?limit=61', {}],
      ['REST preflight', 'OPTIONS', `/v1/ext/${KEY}/chainhooks/${UUID}`, { 'access-control-request-method': 'DELETE' }],
      ['health', 'GET', '/healthz', {}],
    ];

    describe.each(requests)('%s', (_name, method, target, headers) => {
      // A cacheable GraphQL GET varies by Accept too (its JSON types, SSE, multipart): CORS adds Origin.
      const byAccept = method === 'GET' && target.startsWith('/graphql?');
      const vary = (cors: boolean) => (byAccept ? { vary: cors ? 'Accept, Origin' : 'Accept' } : cors ? { vary: 'Origin' } : {});

      it.each([APP, ADMIN])('listed origin %s: named, with Vary: Origin', async (origin) => {
        const answer = await raw(listed, method, target, { ...headers, origin });
        expect(answer.status).toBeLessThan(500);
        expect(cors(answer)).toEqual({ ...granted(origin, method === 'OPTIONS'), ...vary(true) });
      });

      it.each(['https://evil.example', 'null', `${APP}.evil.example`, 'https://APP.example', `${APP}:443`, 'file://'])(
        'unlisted origin %s: no CORS header at all, Vary: Origin',
        async (origin) => {
          const answer = await raw(listed, method, target, { ...headers, origin });
          expect(cors(answer)).toEqual(vary(true));
        },
      );

      it('no origin: no CORS header, Vary: Origin (a cache must not reuse it for a browser)', async () => {
        expect(cors(await raw(listed, method, target, headers))).toEqual(vary(true));
      });

      it('CORS_ORIGINS=* (the default): `*` for every origin, and nothing varies with it', async () => {
        for (const origin of ['https://evil.example', 'null', undefined]) {
          const answer = await raw(stack, method, target, origin ? { ...headers, origin } : headers);
          expect(cors(answer)).toEqual({ ...granted('*', method === 'OPTIONS'), ...vary(false) });
        }
      });
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('10. REQUEST_TIMEOUT_MS bounds receiving and answering, on every path', () => {
    const TIMEOUT = 1000;
    /** node checks every min(1 s, TIMEOUT / 10); the rest is this machine being busy. */
    const SLACK = 1500;
    let timed: Stack;
    beforeAll(async () => {
      timed = await startStack({ REQUEST_TIMEOUT_MS: String(TIMEOUT), UPSTREAM_TIMEOUT_MS: '10000' });
    });
    afterAll(() => timed.close());

    /** Writes `head`, then `drip` every 200 ms (each write resets an idle timer, not this one). */
    function slowClient(head: string, drip: string): Promise<{ ms: number; reply: string }> {
      return new Promise((resolve) => {
        const started = performance.now();
        let reply = '';
        const socket = connect(Number(new URL(timed.gatewayUrl).port), '127.0.0.1', () => socket.write(head));
        const timer = setInterval(() => socket.writable && socket.write(drip), 200);
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (reply += chunk));
        socket.on('error', () => undefined);
        socket.on('close', () => {
          clearInterval(timer);
          resolve({ ms: performance.now() - started, reply });
        });
      });
    }

    it.concurrent.each([
      ['headers sent one line at a time', 'GET /healthz HTTP/1.1\r\nHost: x\r\n', 'x-slow: 1\r\n'],
      ['a request line that never ends', 'GET /healthz', 'z'],
      [
        'a GraphQL body sent one byte at a time',
        'POST /graphql HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{',
        ' ',
      ],
    ])('%s: cut within about REQUEST_TIMEOUT_MS', async (_name, head, drip) => {
      const { ms, reply } = await slowClient(head, drip);
      expect(ms).toBeGreaterThanOrEqual(TIMEOUT - 50);
      expect(ms).toBeLessThan(TIMEOUT + SLACK);
      expect(reply).toMatch(/^HTTP\/1\.1 (408 Request Timeout|504 )/);
    });

    it('a connection that sends nothing: closed unanswered within about REQUEST_TIMEOUT_MS', async () => {
      const { ms, reply } = await slowClient('', '');
      expect(ms).toBeGreaterThanOrEqual(TIMEOUT - 50);
      expect(ms).toBeLessThan(TIMEOUT + SLACK);
      // Likely a browser's unused preconnection: no request to answer (server/client-errors.ts).
      expect(reply).toBe('');
    });

    it.concurrent.each([
      ['GET', '/ordinals/v1/brc-20/tokens/ordi', { hang: true }],
      ['GET', '/runes/v1/etchings', { delayMs: TIMEOUT + 1000 }],
      ['GET', `/v1/ext/${KEY}/bitcoin-node/rest/chaininfo.json`, { hang: true }],
      ['DELETE', `/v1/ext/${KEY}/chainhooks/${UUID}`, { hang: true }],
    ] as const)('REST %s %s, upstream too slow: 504 in the upstream format, logged as 504', async (method, path, fault) => {
      timed.sample.inject({ method, path, ...fault });
      const requestId = `edges-10-${method}-${path.length}`;
      const started = performance.now();
      const answer = await raw(timed, method, path, { 'x-request-id': requestId });
      const ms = performance.now() - started;
      expect({ ...json(answer), type: answer.headers['content-type'] }).toEqual({
        status: 504,
        body: { statusCode: 504, error: 'Gateway Timeout', message: `The request took longer than ${TIMEOUT} ms` },
        type: FASTIFY_JSON,
      });
      expect(ms).toBeGreaterThanOrEqual(TIMEOUT - 50);
      expect(ms).toBeLessThan(TIMEOUT + SLACK);
      const access = (await logsOf(timed, requestId)).filter((line) => line.msg === 'request');
      expect(access).toEqual([expect.objectContaining({ requestId, method, status: 504 })]);
      expect(timed.sample.requests.filter((r) => r.path === path)).toHaveLength(1);
    });

    it('GraphQL, upstream too slow: 504 REQUEST_TIMEOUT, logged as 504', async () => {
      timed.sample.inject({ path: '/metadata/v1', hang: true });
      const requestId = 'edges-10-graphql';
      const answer = await raw(timed, 'GET', '/graphql?query=%7Bstatus%7Bstatus%7D%7D', {
        'x-request-id': requestId,
        'x-graphql-yoga-csrf': '1',
      });
      expect(json(answer)).toEqual({
        status: 504,
        body: {
          errors: [{ message: `The request took longer than ${TIMEOUT} ms`, extensions: { code: 'REQUEST_TIMEOUT', limit: TIMEOUT } }],
        },
      });
      const access = (await logsOf(timed, requestId)).filter((line) => line.msg === 'request');
      expect(access).toEqual([expect.objectContaining({ requestId, status: 504 })]);
    });
  });

  it('no response body of this suite holds a stack trace or a key', () => {
    expect(bodies.length).toBeGreaterThan(100);
    for (const body of bodies) {
      expect(STACK_FRAME.test(body), body).toBe(false);
      expect(body).not.toContain('node_modules');
      for (const secret of [HIRO_KEY, KEY.slice(16)]) expect(body).not.toContain(secret);
    }
  });
});
