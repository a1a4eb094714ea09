/**
 * Hostile queries and HTTP hygiene: every limit answers a clear error naming it, before any
 * upstream call; introspection still works; trusted-operations modes; CSRF, CORS, body size,
 * batching, mutations over GET.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getIntrospectionQuery, GraphQLError } from 'graphql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { maskError } from '../../src/errors.js';
import { startStack, type Stack } from '../harness.js';
import { overWebSocket } from '../support.js';

describe('query limits', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      MAX_QUERY_DEPTH: '3',
      MAX_ALIASES: '5',
      MAX_DIRECTIVES: '3',
      MAX_QUERY_COST: '150',
      MAX_QUERY_TOKENS: '400',
      MAX_QUERY_COMPARISONS: '200',
    });
  });
  afterAll(() => stack.close());

  const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: status { status }`).join(' ')} }`;

  test.each([
    [
      'depth',
      '{ transfers(block: 1) { results { from { address } } } etchings { results { location { txId } } } }',
      { message: 'Query depth 4 exceeds the limit of 3', extensions: { code: 'QUERY_TOO_COMPLEX', limit: 3, actual: 4 } },
    ],
    ['aliases', aliases(6), { message: '6 aliases exceed the limit of 5', extensions: { code: 'QUERY_TOO_COMPLEX', limit: 5, actual: 6 } }],
    [
      'directives',
      '{ status @include(if: true) { status @skip(if: false) serverVersion @include(if: true) chainTip @skip(if: false) { blockHeight } } }',
      { message: '4 directives exceed the limit of 3', extensions: { code: 'QUERY_TOO_COMPLEX', limit: 3, actual: 4 } },
    ],
  ])('%s over the limit is refused before any upstream call', async (_name, query, error) => {
    stack.sample.clearLog();
    const answer = await stack.graphql(query);
    expect(answer.body).toMatchObject({ errors: [error] });
    expect(answer.body.data).toBeUndefined();
    expect(stack.upstreamCalls()).toEqual([]);
  });

  test('cost counts 10 per upstream call and 1 per page item; over MAX_QUERY_COST nothing is sent', async () => {
    // 2 × (10 + 60) = 140 is within 150 ...
    const within = '{ a: etchings(limit: 60) { total } b: etchings(limit: 60, offset: 60) { total } }';
    expect((await stack.graphql(within)).body.errors).toBeUndefined();
    stack.sample.clearLog();
    // ... and one more page of 1 (10 + 1) tips it over.
    const over = await stack.graphql(within.replace(/ }$/, ' c: etchings(limit: 1) { total } }'));
    expect(over.body).toEqual({
      errors: [
        {
          message: 'Query cost 151 exceeds the limit of 150 (10 per upstream call, 1 per page item)',
          extensions: { code: 'QUERY_TOO_COMPLEX', limit: 150, actual: 151 },
        },
      ],
    });
    expect(stack.upstreamCalls()).toEqual([]);
  });

  test.each([
    // 10 × (⌈101/60⌉ + 1 pages) + 100 items = 130 is within 150 ...
    ['etchingsConnection(first: 100)', 130, true],
    // ... 10 × 4 + 120 = 160 is not,
    ['etchingsConnection(first: 120)', 160, false],
    ['transfersConnection(block: 775700, last: 120)', 160, false],
    // A variable is priced at the value the request gives it, as a literal is ...
    ['etchingsConnection(first: $n)', 130, true, { n: 100 }],
    ['etchingsConnection(first: $n)', 160, false, { n: 120 }],
    // ... or at its default when the request gives none,
    ['etchingsConnection(first: $d)', 160, false, {}],
    // and brc20Tokens costs a call per ticker (as if holders were asked) and one per item.
    ['brc20Tokens(tickers: ["ordi", "pepe", "sats"])', 33, true],
    ['brc20Tokens(tickers: $t)', 33, true, { t: ['ordi', 'pepe', 'sats'] }],
    ['brc20Tokens(tickers: $t)', 550, false, { t: Array.from({ length: 50 }, (_, i) => `t${i}`) }],
  ])('the cost prices what %s may fetch: %i', async (field, cost, allowed, given = {}) => {
    stack.sample.clearLog();
    const selection = field.startsWith('brc20Tokens') ? '{ token { ticker } }' : '{ totalCount }';
    const variables = field.includes('$n')
      ? '($n: Int)'
      : field.includes('$d')
        ? '($d: Int = 120)'
        : field.includes('$t')
          ? '($t: [String!]!)'
          : '';
    const answer = await stack.graphql(`query ${variables} { x: ${field} ${selection} }`, given);
    if (allowed) {
      expect(answer.body.errors).toBeUndefined();
      return;
    }
    expect(answer.body).toEqual({
      errors: [
        {
          message: `Query cost ${cost} exceeds the limit of 150 (10 per upstream call, 1 per page item)`,
          extensions: { code: 'QUERY_TOO_COMPLEX', limit: 150, actual: cost },
        },
      ],
    });
    expect(stack.upstreamCalls()).toEqual([]);
  });

  // Relay writes `first: $count, after: $cursor` for every paginated list: two such lists of 50
  // cost 2 × (10 × 2 + 50) = 140, and were refused as two of the largest window (1,200).
  const PAGED = `query Page($count: Int!, $cursor: String) {
    etchingsConnection(first: $count, after: $cursor) { edges { cursor } }
    transfersConnection(block: 775700, first: $count) { totalCount }
  }`;
  const overCost = (cost: number) => ({
    errors: [
      {
        message: `Query cost ${cost} exceeds the limit of 150 (10 per upstream call, 1 per page item)`,
        extensions: { code: 'QUERY_TOO_COMPLEX', limit: 150, actual: cost },
      },
    ],
  });

  test('two connections paged by variables are priced at the page the variables ask, over HTTP and graphql-ws', async () => {
    const within = await stack.graphql(PAGED, { count: 50 });
    expect([within.status, within.body.errors, Object.keys(within.body.data ?? {})]).toEqual([
      200,
      undefined,
      ['etchingsConnection', 'transfersConnection'],
    ]);
    stack.sample.clearLog();
    // 2 × (10 × 3 + 70) = 200: refused as it executes, before any upstream call, in the format of
    // a refused document (400 where the client takes application/graphql-response+json).
    const over = await stack.graphql(PAGED, { count: 70 });
    expect(over).toEqual({ status: 200, body: overCost(200) });
    const strict = await fetch(`${stack.gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: PAGED, variables: { count: 70 } }),
    });
    expect({ status: strict.status, body: await strict.json() }).toEqual({ status: 400, body: overCost(200) });
    expect(await overWebSocket(stack.gatewayUrl, { query: PAGED, variables: { count: 70 } })).toEqual(overCost(200));
    expect(stack.upstreamCalls()).toEqual([]);
  });

  test('only the operation that runs is held to the cost limit, not every operation of the document', async () => {
    const document = 'query A { etchingsConnection(first: 100) { totalCount } } query B { etchingsConnection(first: 100) { totalCount } }';
    // Both cost 130: their sum (260) was refused; now the request is told to name one ...
    const answer = await stack.graphql(document, undefined);
    expect(answer.body).toEqual({
      errors: [
        {
          message: 'The document has 2 operations (A, B): name one in operationName',
          extensions: { code: 'OPERATION_RESOLUTION_FAILURE' },
        },
      ],
    });
    // ... and the one named runs.
    const named = await fetch(`${stack.gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: document, operationName: 'A' }),
    });
    expect(await named.json()).toEqual({ data: { etchingsConnection: { totalCount: expect.any(Number) } } });
  });

  test('an operation over the cost limit does not refuse another of its document that runs; named itself, it is refused', async () => {
    const document = 'query Big { etchingsConnection(first: 120) { totalCount } } query Cheap { etchings(limit: 1) { total } }';
    const run = async (operationName: string) => {
      const response = await fetch(`${stack.gatewayUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query: document, operationName }),
      });
      return response.json();
    };
    expect(await run('Cheap')).toEqual({ data: { etchings: { total: expect.any(Number) } } });
    stack.sample.clearLog();
    expect(await run('Big')).toEqual(overCost(160));
    expect(stack.upstreamCalls()).toEqual([]);
  });

  test('comparisons: a field repeated n times costs n² (graphql-js compares every two); over MAX_QUERY_COMPARISONS nothing runs', async () => {
    const repeated = (n: number) => `{ status { ${'chainTip { blockHeight } '.repeat(n)}} }`;
    // 13² + 13 chainTip sets + 1 root set = 183 is within 200 ...
    expect((await stack.graphql(repeated(13))).body).toEqual({ data: { status: { chainTip: { blockHeight: expect.any(Number) } } } });
    stack.sample.clearLog();
    // ... 14² + 14 + 1 = 211 is not.
    expect((await stack.graphql(repeated(14))).body).toEqual({
      errors: [
        {
          message: '211 field comparisons exceed the limit of 200 (fields repeated under one name, fragments spread side by side)',
          extensions: { code: 'QUERY_TOO_COMPLEX', limit: 200, actual: 211 },
        },
      ],
    });
    expect(stack.upstreamCalls()).toEqual([]);
  });

  test('a depth of 3 passes (the limit is "more than")', async () => {
    const answer = await stack.graphql('{ transfers(block: 775700, limit: 1) { results { id } } }');
    expect(answer.body.errors).toBeUndefined();
  });

  test('tokens over MAX_QUERY_TOKENS are refused at parse time, counted like the other limits', async () => {
    stack.sample.clearLog();
    // 400 field names, 3 braces and `status` at the root... and a comment, which is not a token.
    const answer = await stack.graphql(`{ status { ${'status '.repeat(400)} } } # ${'x '.repeat(500)}`);
    expect(answer.body).toEqual({
      errors: [{ message: '405 tokens exceed the limit of 400', extensions: { code: 'QUERY_TOO_COMPLEX', limit: 400, actual: 405 } }],
    });
    expect(stack.upstreamCalls()).toEqual([]);
  });

  test('introspection (what GraphiQL sends) is not limited by depth or cost', async () => {
    const stackWithDefaults = await startStack();
    try {
      const answer = await stackWithDefaults.graphql(getIntrospectionQuery());
      expect(answer.body.errors).toBeUndefined();
      expect((answer.body.data as { __schema: { queryType: { name: string } } }).__schema.queryType).toEqual({
        name: 'Query',
        kind: 'OBJECT',
      });
    } finally {
      await stackWithDefaults.close();
    }
  });
});

describe('HTTP hygiene', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ MAX_BODY_BYTES: '2048', CORS_ORIGINS: 'https://app.example' });
  });
  afterAll(() => stack.close());

  test('a GET runs without a custom header (it can only read: docs/security.md); a form POST needs one', async () => {
    const url = `${stack.gatewayUrl}/graphql?query=${encodeURIComponent('{ status { status } }')}`;
    const bare = await fetch(url);
    expect([bare.status, await bare.json()]).toEqual([200, { data: { status: { status: 'ready' } } }]);
    const form = (headers: Record<string, string>) =>
      fetch(`${stack.gatewayUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ query: '{ status { status } }' }).toString(),
      });
    const bareForm = await form({});
    expect([bareForm.status, (await bareForm.json()).errors[0].message]).toEqual([403, 'Required CSRF header(s) not present']);
    const withHeader = await form({ 'x-graphql-yoga-csrf': '1' });
    expect([withHeader.status, await withHeader.json()]).toEqual([200, { data: { status: { status: 'ready' } } }]);
  });

  test('mutations only over POST, with or without a custom header', async () => {
    stack.sample.clearLog();
    const query = encodeURIComponent('mutation { deleteChainhook(uuid: "aa3626dc-2090-49cd-8f1e-8f9994393aed", apiKey: "k") { status } }');
    const bare = await fetch(`${stack.gatewayUrl}/graphql?query=${query}`);
    expect(bare.status).toBe(405);
    const answer = await fetch(`${stack.gatewayUrl}/graphql?query=${query}`, { headers: { 'x-graphql-yoga-csrf': '1' } });
    expect(answer.status).toBe(405);
    expect(stack.upstreamCalls()).toEqual([]);
  });

  test('a body over MAX_BODY_BYTES is refused with 413', async () => {
    const answer = await fetch(`${stack.gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ status { status } } # ${'x'.repeat(3000)}` }),
    });
    expect([answer.status, await answer.json()]).toEqual([
      413,
      { errors: [{ message: 'Request body exceeds 2048 bytes', extensions: { code: 'PAYLOAD_TOO_LARGE' } }] },
    ]);
  });

  test('a chunked body (no Content-Length) is refused with 411 before it is read', async () => {
    stack.sample.clearLog();
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify({ query: '{ status { status } }' })));
        controller.close();
      },
    });
    const answer = await fetch(`${stack.gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect([answer.status, await answer.json()]).toEqual([
      411,
      { errors: [{ message: 'A request body needs a Content-Length', extensions: { code: 'LENGTH_REQUIRED' } }] },
    ]);
    expect(stack.upstreamCalls()).toEqual([]);
  });

  test('batching is off by default', async () => {
    const answer = await fetch(`${stack.gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ query: '{ status { status } }' }, { query: '{ status { status } }' }]),
    });
    expect(answer.status).toBe(400);
  });

  test('CORS names the configured origin only: a browser on another origin is refused', async () => {
    const preflight = (origin: string) =>
      fetch(`${stack.gatewayUrl}/graphql`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const allowed = await preflight('https://app.example');
    const other = await preflight('https://evil.example');
    expect([allowed.headers.get('access-control-allow-origin'), other.headers.get('access-control-allow-origin')]).toEqual([
      'https://app.example',
      null,
    ]);
    // No cookies are ever needed: credentialed cross-origin requests are not allowed.
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
  });

  test('an unexpected error is masked: a generic message, no stack, no internals', () => {
    const masked = maskError(
      new GraphQLError('boom', { originalError: new TypeError('secret internals at /srv/x.ts') }),
      'Unexpected error.',
    );
    expect(JSON.parse(JSON.stringify(masked))).toEqual({
      message: 'Unexpected error.',
      extensions: { code: 'INTERNAL_SERVER_ERROR', unexpected: true },
    });
  });
});

describe('trusted operations', () => {
  const operationsFile = (operations: Record<string, unknown>) => {
    const file = join(mkdtempSync(join(tmpdir(), 'satgate-')), 'operations.json');
    writeFileSync(file, JSON.stringify(operations));
    return file;
  };

  test('PERSISTED_OPERATIONS: only listed documents run; a plain query is told persisted operations are required', async () => {
    const stack = await startStack({ PERSISTED_OPERATIONS: operationsFile({ status1: '{ status { status } }' }) });
    try {
      const post = (body: unknown) =>
        fetch(`${stack.gatewayUrl}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then(async (r) => [r.status, await r.json()]);
      expect(await post({ extensions: { persistedQuery: { version: 1, sha256Hash: 'status1' } } })).toEqual([
        200,
        { data: { status: { status: 'ready' } } },
      ]);
      expect(
        await Promise.all([
          post({ query: '{ status { status } }' }),
          post({ extensions: { persistedQuery: { version: 1, sha256Hash: 'nope' } } }),
          post({ variables: {} }),
        ]),
      ).toEqual([
        [
          200,
          {
            errors: [
              {
                message: 'Only persisted operations run here: send extensions.persistedQuery.sha256Hash with a known id, not a query',
                extensions: { code: 'PERSISTED_QUERY_REQUIRED' },
              },
            ],
          },
        ],
        [
          200,
          {
            errors: [
              {
                message: 'This persisted operation id is not in the list this gateway runs',
                extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' },
              },
            ],
          },
        ],
        [200, { errors: [{ message: 'PersistedQueryKeyNotFound', extensions: { code: 'PERSISTED_QUERY_ID_REQUIRED' } }] }],
      ]);
      // graphql-ws never passes yoga's onParams: the same decisions, made there (its protocol
      // requires a query string: an id comes with an empty one).
      expect(
        await Promise.all([
          overWebSocket(stack.gatewayUrl, { query: '{ etchings(limit: 1) { total } }' }),
          overWebSocket(stack.gatewayUrl, { query: '', extensions: { persistedQuery: { version: 1, sha256Hash: 'nope' } } }),
          overWebSocket(stack.gatewayUrl, { query: '', variables: {} }),
          overWebSocket(stack.gatewayUrl, { query: '', extensions: { persistedQuery: { version: 1, sha256Hash: 'status1' } } }),
        ]),
      ).toEqual([
        {
          errors: [
            {
              message: 'Only persisted operations run here: send extensions.persistedQuery.sha256Hash with a known id, not a query',
              extensions: { code: 'PERSISTED_QUERY_REQUIRED' },
            },
          ],
        },
        {
          errors: [
            {
              message: 'This persisted operation id is not in the list this gateway runs',
              extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' },
            },
          ],
        },
        { errors: [{ message: 'PersistedQueryKeyNotFound', extensions: { code: 'PERSISTED_QUERY_ID_REQUIRED' } }] },
        { data: { status: { status: 'ready' } } },
      ]);
      // The status document, once over each protocol; nothing of the refused ones.
      expect(stack.upstreamCalls()).toEqual(['GET /metadata/v1', 'GET /metadata/v1']);
    } finally {
      await stack.close();
    }
  });

  test('GraphiQL is off in persisted-only mode unless GRAPHIQL=on; GRAPHIQL=off turns it off everywhere', async () => {
    const page = (stack: Stack) => fetch(`${stack.gatewayUrl}/graphql`, { headers: { accept: 'text/html' } });
    const asset = (stack: Stack) => fetch(`${stack.gatewayUrl}/graphiql/init.js`);
    const file = operationsFile({ status1: '{ status { status } }' });
    const seen: Array<[string, number, string | null, number]> = [];
    for (const [label, env] of [
      ['default', {}],
      ['persisted', { PERSISTED_OPERATIONS: file }],
      ['persisted + GRAPHIQL=on', { PERSISTED_OPERATIONS: file, GRAPHIQL: 'on' }],
      ['GRAPHIQL=off', { GRAPHIQL: 'off' }],
    ] as const) {
      const stack = await startStack(env);
      try {
        const html = await page(stack);
        await html.arrayBuffer();
        const script = await asset(stack);
        await script.arrayBuffer();
        seen.push([label, html.status, html.headers.get('content-type'), script.status]);
      } finally {
        await stack.close();
      }
    }
    const served = (label: string) => [label, 200, 'text/html', 200];
    // Without GraphiQL, a browser asking for HTML is told the endpoint only speaks GraphQL.
    const notServed = (label: string) => [label, 406, expect.not.stringContaining('text/html'), 404];
    expect(seen).toEqual([served('default'), notServed('persisted'), served('persisted + GRAPHIQL=on'), notServed('GRAPHIQL=off')]);
  });

  test.each([
    ['a document that does not parse', { x: '{ status { ' }, /^PERSISTED_OPERATIONS: "x" does not parse/],
    [
      'a document that does not validate against the schema',
      { good: '{ status { status } }', stale: '{ status { uptime } }' },
      /^PERSISTED_OPERATIONS: "stale" does not validate against the schema \(Cannot query field "uptime" on type "Status"\.\)$/,
    ],
    ['a value that is not a document', { n: 42 }, /^PERSISTED_OPERATIONS: "n" is not a document string$/],
  ])('%s stops start-up naming its id', async (_label, operations, message) => {
    await expect(startStack({ PERSISTED_OPERATIONS: operationsFile(operations) })).rejects.toThrow(message);
  });

  test('automatic persisted queries: a hash registered once then runs by GET, cacheable', async () => {
    const stack = await startStack();
    try {
      const query = '{ status { status } }';
      const { createHash } = await import('node:crypto');
      const hash = createHash('sha256').update(query).digest('hex');
      const extensions = encodeURIComponent(JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } }));
      const headers = { 'x-graphql-yoga-csrf': '1' };
      const before = await fetch(`${stack.gatewayUrl}/graphql?extensions=${extensions}`, { headers });
      expect((await before.json()).errors[0].message).toBe('PersistedQueryNotFound');
      await fetch(`${stack.gatewayUrl}/graphql?query=${encodeURIComponent(query)}&extensions=${extensions}`, { headers });
      const after = await fetch(`${stack.gatewayUrl}/graphql?extensions=${extensions}`, { headers });
      expect([after.status, await after.json(), after.headers.get('etag') !== null]).toEqual([
        200,
        { data: { status: { status: 'ready' } } },
        true,
      ]);
    } finally {
      await stack.close();
    }
  });
});
