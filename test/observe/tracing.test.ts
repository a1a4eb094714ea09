/**
 * Distributed tracing: with OTEL_EXPORTER_OTLP_ENDPOINT set, the gateway exports spans over
 * OTLP/HTTP (JSON) to a receiver this file starts on 127.0.0.1: one per request, GraphQL
 * operation, loader batch, upstream lookup (its cache outcome) and upstream attempt (status, retry
 * number, breaker state), in one tree that continues the client's `traceparent` and is continued
 * by the upstream (the sample's request log holds the headers it got). No key in any of it.
 * Without the variable no OpenTelemetry SDK module is loaded (a real process says which are), and
 * SIGTERM sends the last spans before the process exits.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { DELETABLE_CHAINHOOK_UUIDS, findBrc20Token } from '../../src/sample/data.js';
import { SAMPLE_PLATFORM_KEY, startSampleUpstream } from '../../src/sample/server.js';
import { HIRO_KEY, freePort, startStack, type Stack } from '../harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ORDI_PATH = '/ordinals/v1/brc-20/tokens/ordi';
const TOKEN_ROUTE = '/ordinals/v1/brc-20/tokens/:ticker';

// ---------- the OTLP/HTTP receiver ----------

type Kind = 'internal' | 'server' | 'client';
const KINDS: Record<number, Kind> = { 1: 'internal', 2: 'server', 3: 'client' };

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: Kind;
  attributes: Record<string, unknown>;
  error: boolean;
  links: string[];
  start: bigint;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  attributes?: Array<{ key: string; value: OtlpValue }>;
  status?: { code?: number };
  links?: Array<{ spanId: string }>;
}
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: OtlpValue }> };
    scopeSpans: Array<{ spans: OtlpSpan[] }>;
  }>;
}

function valueOf(value: OtlpValue): unknown {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue ?? value.doubleValue;
}

function attributesOf(list: Array<{ key: string; value: OtlpValue }> = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));
}

interface Collector {
  endpoint: string;
  /** What the receiver answers exports with. */
  status: number;
  /** Every export body, as received. */
  bodies: string[];
  spans(): ExportedSpan[];
  close(): Promise<void>;
}

async function startCollector(): Promise<Collector> {
  const bodies: string[] = [];
  const collector: Collector = {
    endpoint: '',
    status: 200,
    bodies,
    spans: () =>
      bodies
        .map((body) => JSON.parse(body) as OtlpExport)
        .flatMap((body) => body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)))
        .map((span) => ({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
          name: span.name,
          kind: KINDS[span.kind]!,
          attributes: attributesOf(span.attributes),
          error: span.status?.code === 2,
          links: (span.links ?? []).map((link) => link.spanId),
          start: BigInt(span.startTimeUnixNano),
        })),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const accepted = req.method === 'POST' && req.url === '/v1/traces' && req.headers['content-type'] === 'application/json';
      if (accepted && collector.status === 200) bodies.push(body);
      res.writeHead(accepted ? collector.status : 404, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  collector.endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return collector;
}

// ---------- span trees ----------

interface Node {
  name: string;
  kind: Kind;
  attributes: Record<string, unknown>;
  error?: true;
  links?: string[];
  children?: Node[];
}

/** A span and everything below it, children in a stable order (name, attributes, start). */
function tree(spans: ExportedSpan[], root: ExportedSpan): Node {
  const children = spans
    .filter((span) => span.parentSpanId === root.spanId)
    .sort(
      (a, b) =>
        a.name.localeCompare(b.name) ||
        JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes)) ||
        Number(a.start - b.start),
    )
    .map((child) => tree(spans, child));
  return {
    name: root.name,
    kind: root.kind,
    attributes: root.attributes,
    ...(root.error ? { error: true as const } : {}),
    ...(root.links.length ? { links: root.links } : {}),
    ...(children.length ? { children } : {}),
  };
}

/** The server span of the request sent with this x-request-id. */
function requestSpan(spans: ExportedSpan[], requestId: string): ExportedSpan {
  const found = spans.filter((span) => span.kind === 'server' && span.attributes['satgate.request_id'] === requestId);
  expect(found, `one request span for ${requestId}`).toHaveLength(1);
  return found[0]!;
}

function below(spans: ExportedSpan[], root: ExportedSpan): ExportedSpan[] {
  const children = spans.filter((span) => span.parentSpanId === root.spanId);
  return children.flatMap((child) => [child, ...below(spans, child)]);
}

/** The attributes every span of an upstream exchange carries. */
const exchange = (service: string, template: string, method = 'GET') => ({
  'satgate.upstream.service': service,
  'url.template': template,
  'http.request.method': method,
});

function attempt(service: string, template: string, status: number, retry = 0, breaker = 'closed', method = 'GET'): Node {
  return {
    name: `${method} ${template}`,
    kind: 'client',
    attributes: {
      ...exchange(service, template, method),
      'http.request.resend_count': retry,
      'satgate.breaker.state': breaker,
      'http.response.status_code': status,
      ...(status >= 500 ? { 'error.type': String(status) } : {}),
    },
    ...(status >= 500 ? { error: true as const } : {}),
  };
}

function lookup(service: string, template: string, outcome: string | undefined, status: number, attempts: Node[], method = 'GET'): Node {
  return {
    name: `upstream ${template}`,
    kind: 'internal',
    attributes: {
      ...exchange(service, template, method),
      ...(outcome ? { 'satgate.cache.outcome': outcome } : {}),
      'http.response.status_code': status,
      ...(status >= 500 ? { 'error.type': String(status) } : {}),
    },
    ...(status >= 500 ? { error: true as const } : {}),
    ...(attempts.length ? { children: attempts } : {}),
  };
}

/** The traceparent the upstream got: the attempt span's id in the request's trace. */
const traceparent = (span: ExportedSpan) => `00-${span.traceId}-${span.spanId}-01`;

const get = (stack: Stack, path: string, headers: Record<string, string>) => fetch(`${stack.gatewayUrl}${path}`, { headers });

// ---------- the suites ----------

let collector: Collector;
beforeAll(async () => {
  collector = await startCollector();
});
afterAll(() => collector.close());

/** The spans exported so far (each gateway flushes its own). */
async function exported(stack: Stack): Promise<ExportedSpan[]> {
  await stack.gateway.tracing!.flush();
  return collector.spans();
}

describe('spans of REST and GraphQL requests', () => {
  let stack: Stack;
  beforeAll(async () => {
    // CACHE_TTL_MS=0 (the harness's): a second request revalidates.
    stack = await startStack({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, STALE_IF_ERROR_MS: '60000' });
  });
  afterAll(() => stack.close());
  afterEach(() => stack.sample.reset());

  test("a REST request continues the client's trace, and the upstream continues it from the attempt", async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const clientSpan = 'b7ad6b7169203331';
    const response = await get(stack, '/ordinals/v1/brc-20/tokens/pepe', {
      traceparent: `00-${traceId}-${clientSpan}-01`,
      tracestate: 'client=7',
      'x-request-id': 'rest-1',
    });
    expect(response.status).toBe(200);
    const spans = await exported(stack);
    const root = requestSpan(spans, 'rest-1');
    expect(tree(spans, root)).toEqual({
      name: `GET ${TOKEN_ROUTE}`,
      kind: 'server',
      attributes: {
        'http.request.method': 'GET',
        'satgate.request_id': 'rest-1',
        'http.route': TOKEN_ROUTE,
        'http.response.status_code': 200,
        'satgate.cache': 'miss',
        'satgate.upstream_calls': 1,
      },
      children: [lookup('ordinals', TOKEN_ROUTE, 'miss', 200, [attempt('ordinals', TOKEN_ROUTE, 200)])],
    });
    const [, sent] = below(spans, root);
    expect([root.traceId, root.parentSpanId, ...below(spans, root).map((span) => span.traceId)]).toEqual([
      traceId,
      clientSpan,
      traceId,
      traceId,
    ]);
    expect(stack.sample.requests.map((r) => [r.url, r.headers.traceparent, r.headers.tracestate])).toEqual([
      ['/ordinals/v1/brc-20/tokens/pepe', traceparent(sent!), 'client=7'],
    ]);
  });

  test('a GraphQL query: its operation, one loader batch for three tickers, a lookup and an attempt each', async () => {
    const { status, body } = await stack.graphql(
      `query Holders { a: brc20Token(ticker: "ordi") { supply { holders } } b: brc20Token(ticker: "SATS") { supply { holders } }
        c: brc20Token(ticker: "nope") { supply { holders } } }`,
      undefined,
      { 'x-request-id': 'graphql-1' },
    );
    expect({ status, body }).toEqual({
      status: 200,
      body: {
        data: {
          a: { supply: { holders: findBrc20Token('ordi')!.supply.holders } },
          b: { supply: { holders: findBrc20Token('sats')!.supply.holders } },
          c: null,
        },
      },
    });
    const spans = await exported(stack);
    const root = requestSpan(spans, 'graphql-1');
    expect(root.parentSpanId).toBeUndefined();
    expect(tree(spans, root)).toEqual({
      name: 'POST /graphql',
      kind: 'server',
      attributes: {
        'http.request.method': 'POST',
        'satgate.request_id': 'graphql-1',
        'http.route': '/graphql',
        'http.response.status_code': 200,
        'graphql.operation.name': 'Holders',
        'satgate.cache': 'miss',
        'satgate.upstream_calls': 3,
      },
      children: [
        {
          name: 'query Holders',
          kind: 'internal',
          attributes: { 'graphql.operation.type': 'query', 'graphql.operation.name': 'Holders' },
          children: [
            {
              name: 'dataloader.batch brc20Token',
              kind: 'internal',
              attributes: { 'satgate.loader': 'brc20Token', 'satgate.loader.batch_size': 3 },
              children: [
                lookup('ordinals', TOKEN_ROUTE, 'miss', 200, [attempt('ordinals', TOKEN_ROUTE, 200)]),
                lookup('ordinals', TOKEN_ROUTE, 'miss', 200, [attempt('ordinals', TOKEN_ROUTE, 200)]),
                lookup('ordinals', TOKEN_ROUTE, 'miss', 404, [attempt('ordinals', TOKEN_ROUTE, 404)]),
              ],
            },
          ],
        },
      ],
    });
    const attempts = below(spans, root).filter((span) => span.kind === 'client');
    expect(stack.sample.requests.map((r) => r.headers.traceparent).sort()).toEqual(attempts.map(traceparent).sort());
    expect(new Set(below(spans, root).map((span) => span.traceId))).toEqual(new Set([root.traceId]));
  });

  test('cache outcomes: miss, revalidated, stale, and a coalesced lookup linked to the one it joined', async () => {
    // A resource no other test here asks for: the gateway's cache outlives each test.
    const path = '/runes/v1/etchings?limit=1';
    const route = '/runes/v1/etchings';
    const look = (outcome: string, status: number, attempts: Node[]) => lookup('runes', route, outcome, status, attempts);
    const sent = (status: number) => attempt('runes', route, status);
    const outcome = async (requestId: string) => {
      const spans = await exported(stack);
      const [found] = below(spans, requestSpan(spans, requestId));
      return tree(spans, found!);
    };
    await get(stack, path, { 'x-request-id': 'cache-1' });
    expect(await outcome('cache-1')).toEqual(look('miss', 200, [sent(200)]));
    await get(stack, path, { 'x-request-id': 'cache-2' });
    expect(await outcome('cache-2')).toEqual(look('revalidated', 200, [sent(304)]));
    stack.sample.inject({ path: route, times: 1, status: 503, body: { message: 'down' } });
    const stale = await get(stack, path, { 'x-request-id': 'cache-3' });
    expect([stale.status, stale.headers.get('warning')]).toEqual([200, '111 - "Revalidation Failed"']);
    expect(await outcome('cache-3')).toEqual(look('stale', 200, [sent(503)]));

    // Two identical requests while the upstream is slow: one call, the other joins it.
    stack.sample.inject({ path: route, times: 1, delayMs: 300 });
    const both = await Promise.all(['join-1', 'join-2'].map((id) => get(stack, path, { 'x-request-id': id })));
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const spans = await exported(stack);
    const [first, second] = ['join-1', 'join-2'].map((id) => below(spans, requestSpan(spans, id))[0]!);
    const [leader, joiner] = first!.attributes['satgate.cache.outcome'] === 'coalesced' ? [second!, first!] : [first!, second!];
    expect([tree(spans, leader), tree(spans, joiner)]).toEqual([
      look('revalidated', 200, [sent(304)]),
      { ...look('coalesced', 200, []), links: [leader.spanId] },
    ]);
    expect(stack.sample.requests.filter((r) => r.url.startsWith(route))).toHaveLength(4);
  });

  test('a fresh answer is a hit: a lookup without an attempt', async () => {
    const fresh = await startStack({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, CACHE_TTL_MS: '60000' });
    try {
      for (const id of ['fresh-1', 'fresh-2']) expect((await get(fresh, ORDI_PATH, { 'x-request-id': id })).status).toBe(200);
      const spans = await exported(fresh);
      expect(['fresh-1', 'fresh-2'].map((id) => tree(spans, requestSpan(spans, id)).children)).toEqual([
        [lookup('ordinals', TOKEN_ROUTE, 'miss', 200, [attempt('ordinals', TOKEN_ROUTE, 200)])],
        [lookup('ordinals', TOKEN_ROUTE, 'hit', 200, [])],
      ]);
      expect(fresh.upstreamCalls()).toEqual([`GET ${ORDI_PATH}`]);
    } finally {
      await fresh.close();
    }
  });
  test("a client's long operation name is cut to 256 characters in the span's name, as in its attributes", async () => {
    const name = `Q${'x'.repeat(20_000)}`;
    const { status, body } = await stack.graphql(`query ${name} { __typename }`, undefined, { 'x-request-id': 'long-name-1' });
    expect({ status, body }).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
    const spans = await exported(stack);
    const root = requestSpan(spans, 'long-name-1');
    expect(tree(spans, root)).toEqual({
      name: 'POST /graphql',
      kind: 'server',
      attributes: {
        'http.request.method': 'POST',
        'satgate.request_id': 'long-name-1',
        'http.route': '/graphql',
        'http.response.status_code': 200,
        'graphql.operation.name': name.slice(0, 200),
        'satgate.upstream_calls': 0,
      },
      children: [
        {
          name: `query ${name}`.slice(0, 256),
          kind: 'internal',
          attributes: { 'graphql.operation.type': 'query', 'graphql.operation.name': name.slice(0, 256) },
        },
      ],
    });
  });
});

describe("a client's sampled flag does not decide (TRACE_CLIENT_SAMPLING)", () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const clientSpan = '00f067aa0ba902b7';
  /** The request's span, as [trace id, parent], or null when none was exported. */
  async function traced(stack: Stack, requestId: string, flags: string): Promise<[string, string | undefined] | null> {
    const response = await get(stack, ORDI_PATH, { traceparent: `00-${traceId}-${clientSpan}-${flags}`, 'x-request-id': requestId });
    expect(response.status).toBe(200);
    const found = (await exported(stack)).filter((span) => span.kind === 'server' && span.attributes['satgate.request_id'] === requestId);
    return found.length === 0 ? null : [found[0]!.traceId, found[0]!.parentSpanId];
  }
  async function withStack(env: Record<string, string>, use: (stack: Stack) => Promise<void>) {
    const stack = await startStack({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, ...env });
    try {
      await use(stack);
    } finally {
      await stack.close();
    }
  }

  test("by default a client's `-00` does not hide its request, and it still joins the client's trace", () =>
    withStack({}, async (stack) => {
      expect(await traced(stack, 'unsampled-1', '00')).toEqual([traceId, clientSpan]);
    }));

  test("under a ratio of 0 a client's `-01` does not force its request into the traces", () =>
    withStack({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' }, async (stack) => {
      expect([await traced(stack, 'forced-1', '01'), await traced(stack, 'forced-2', '00')]).toEqual([null, null]);
    }));

  test("TRACE_CLIENT_SAMPLING=follow: the client's flag decides, as the specification says", () =>
    withStack(
      { TRACE_CLIENT_SAMPLING: 'follow', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' },
      async (stack) => {
        expect([await traced(stack, 'follow-1', '01'), await traced(stack, 'follow-2', '00')]).toEqual([[traceId, clientSpan], null]);
      },
    ));
});

describe('retries and the circuit breaker', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      UPSTREAM_RETRIES: '1',
      BREAKER_THRESHOLD: '2',
      BREAKER_COOLDOWN_MS: '300',
    });
  });
  afterAll(() => stack.close());
  afterEach(() => stack.sample.reset());

  test('a retried 503: one lookup, two attempts numbered 0 and 1, each sent with its own traceparent', async () => {
    stack.sample.inject({ path: ORDI_PATH, times: 1, status: 503, body: { message: 'down' } });
    expect((await get(stack, ORDI_PATH, { 'x-request-id': 'retry-1' })).status).toBe(200);
    const spans = await exported(stack);
    const root = requestSpan(spans, 'retry-1');
    expect(tree(spans, root).children).toEqual([
      lookup('ordinals', TOKEN_ROUTE, 'miss', 200, [attempt('ordinals', TOKEN_ROUTE, 503, 0), attempt('ordinals', TOKEN_ROUTE, 200, 1)]),
    ]);
    const attempts = below(spans, root)
      .filter((span) => span.kind === 'client')
      .sort((a, b) => Number(a.attributes['http.request.resend_count']) - Number(b.attributes['http.request.resend_count']));
    expect(stack.sample.requests.map((r) => r.headers.traceparent)).toEqual(attempts.map(traceparent));
  });

  test("the breaker: open (no attempt), then the request sent once the gateway's probe closed it", async () => {
    const path = '/ordinals/v1/brc-20/tokens/sats';
    stack.sample.inject({ path, times: 2, status: 503, body: { message: 'down' } });
    expect((await get(stack, path, { 'x-request-id': 'breaker-1' })).status).toBe(503);
    expect((await get(stack, path, { 'x-request-id': 'breaker-2' })).status).toBe(502);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await get(stack, path, { 'x-request-id': 'breaker-3' })).status).toBe(200);
    const spans = await exported(stack);
    expect(['breaker-1', 'breaker-2', 'breaker-3'].map((id) => tree(spans, requestSpan(spans, id)).children)).toEqual([
      [lookup('ordinals', TOKEN_ROUTE, 'miss', 503, [attempt('ordinals', TOKEN_ROUTE, 503, 0), attempt('ordinals', TOKEN_ROUTE, 503, 1)])],
      [
        {
          name: `upstream ${TOKEN_ROUTE}`,
          kind: 'internal',
          attributes: { ...exchange('ordinals', TOKEN_ROUTE), 'satgate.cache.outcome': 'miss', 'error.type': 'unavailable' },
          error: true,
        },
      ],
      [lookup('ordinals', TOKEN_ROUTE, 'miss', 200, [attempt('ordinals', TOKEN_ROUTE, 200, 0, 'closed')])],
    ]);
  });
});

test('no key in any span: platform requests over REST and GraphQL, the hiro key as a header', async () => {
  const otherKey = '0c1d2e3f405162738495a6b7c8d9eaf1';
  const stack = await startStack({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint }, { platformApiKeys: [SAMPLE_PLATFORM_KEY, otherKey] });
  try {
    const [uuid1, uuid2] = DELETABLE_CHAINHOOK_UUIDS;
    const ext = `${stack.gatewayUrl}/v1/ext/${SAMPLE_PLATFORM_KEY}`;
    const statuses = [
      (await fetch(`${ext}/bitcoin-node/rest/chaininfo.json`, { headers: { 'x-request-id': 'key-1' } })).status,
      (await fetch(`${ext}/chainhooks/${uuid1}`, { method: 'DELETE', headers: { 'x-request-id': 'key-2' } })).status,
      (await fetch(`${ext}/no-such-route`, { headers: { 'x-request-id': 'key-3' } })).status,
      (
        await stack.graphql(`{ bitcoinNode(path: "rest/chaininfo.json", apiKey: "${SAMPLE_PLATFORM_KEY}") }`, undefined, {
          'x-request-id': 'key-4',
        })
      ).status,
      (
        await stack.graphql('query Node { bitcoinNode(path: "rest/chaininfo.json") }', undefined, {
          'x-api-key': otherKey,
          'x-request-id': 'key-5',
        })
      ).status,
      (
        await stack.graphql(
          'mutation($uuid: String!, $key: String) { deleteChainhook(uuid: $uuid, apiKey: $key) { status } }',
          { uuid: uuid2, key: otherKey },
          { 'x-request-id': 'key-6' },
        )
      ).status,
      (await stack.graphql('{ brc20Token(ticker: "ordi") { token { ticker } } }', undefined, { 'x-request-id': 'key-7' })).status,
    ];
    expect(statuses).toEqual([200, 200, 404, 200, 200, 200, 200]);
    const spans = await exported(stack);
    const names = (id: string) => {
      const root = requestSpan(spans, id);
      return [root.name, ...below(spans, root).map((span) => span.name)];
    };
    expect(['key-1', 'key-2', 'key-3', 'key-4', 'key-5', 'key-6'].map(names)).toEqual([
      ['GET /v1/ext/:apiKey/bitcoin-node/*', 'upstream /v1/ext/:apiKey/bitcoin-node/*', 'GET /v1/ext/:apiKey/bitcoin-node/*'],
      [
        'DELETE /v1/ext/:apiKey/chainhooks/:chainhookUuid',
        'upstream /v1/ext/:apiKey/chainhooks/:chainhookUuid',
        'DELETE /v1/ext/:apiKey/chainhooks/:chainhookUuid',
      ],
      ['GET'],
      [
        'POST /graphql',
        'query',
        'dataloader.batch bitcoinNode',
        'upstream /v1/ext/:apiKey/bitcoin-node/*',
        'GET /v1/ext/:apiKey/bitcoin-node/*',
      ],
      [
        'POST /graphql',
        'query Node',
        'dataloader.batch bitcoinNode',
        'upstream /v1/ext/:apiKey/bitcoin-node/*',
        'GET /v1/ext/:apiKey/bitcoin-node/*',
      ],
      [
        'POST /graphql',
        'mutation',
        'upstream /v1/ext/:apiKey/chainhooks/:chainhookUuid',
        'DELETE /v1/ext/:apiKey/chainhooks/:chainhookUuid',
      ],
    ]);
    // Everything exported (names, attributes, links, the resource), as the collector received it.
    const received = collector.bodies.join('\n');
    for (const key of [SAMPLE_PLATFORM_KEY, otherKey, HIRO_KEY]) expect(received).not.toContain(key);
  } finally {
    await stack.close();
  }
});

test('export failures are logged once, and so is the recovery', async () => {
  const stack = await startStack({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_SERVICE_NAME: 'gateway-eu' });
  const lines = () =>
    stack.logs
      .map((line) => JSON.parse(line) as { level: string; msg: string })
      .filter((line) => line.msg.startsWith('trace export'))
      .map((line) => [line.level, line.msg]);
  try {
    collector.status = 400;
    for (const id of ['down-1', 'down-2']) {
      await get(stack, '/healthz', { 'x-request-id': id });
      await expect(stack.gateway.tracing!.flush()).rejects.toThrow();
    }
    collector.status = 200;
    await get(stack, '/healthz', { 'x-request-id': 'up-1' });
    const spans = await exported(stack);
    expect(lines()).toEqual([
      ['warn', 'trace export failed: spans are dropped until the collector answers'],
      ['info', 'trace export resumed'],
    ]);
    expect(spans.filter((span) => span.attributes['satgate.request_id'] === 'up-1').map((span) => span.name)).toEqual(['GET /healthz']);
    const resource = (JSON.parse(collector.bodies.at(-1)!) as OtlpExport).resourceSpans[0]!.resource;
    expect(attributesOf(resource.attributes)['service.name']).toBe('gateway-eu');
  } finally {
    collector.status = 200;
    await stack.close();
  }
});

describe('in a real process', () => {
  /** The environment of a child: none of the runner's gateway or OpenTelemetry settings. */
  const childEnv = (env: Record<string, string>): NodeJS.ProcessEnv => {
    const base = { ...process.env };
    for (const name of Object.keys(base)) if (/^(OTEL_|PORT|HOST|WORKERS|LOG_|HIRO_|NODE_OPTIONS$)/.test(name)) delete base[name];
    return { ...base, ...env };
  };

  const node = (args: string[], env: Record<string, string>) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: ROOT,
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, exited, stdout: () => stdout, stderr: () => stderr };
  };

  /**
   * Starts a gateway in a fresh process, sends it a REST and a GraphQL request, and prints the
   * OpenTelemetry packages loaded by then (node_modules/@opentelemetry/<name>).
   */
  const LOADED = `
    import { createRequire } from 'node:module';
    const { start } = await import('./src/main.ts');
    const gateway = await start({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
    await fetch(gateway.url + '/ordinals/v1/brc-20/tokens/ordi');
    await fetch(gateway.url + '/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ status { status } }"}' });
    const loaded = Object.keys(createRequire(import.meta.url).cache).flatMap((file) => /node_modules\\/@opentelemetry\\/([^/]+)\\//.exec(file)?.[1] ?? []);
    await gateway.stop();
    console.log(JSON.stringify([...new Set(loaded)].sort()));
  `;

  test('without an OTLP endpoint no OpenTelemetry SDK module is loaded; with one, the SDK is', async () => {
    const sample = await startSampleUpstream();
    try {
      const loaded = async (env: Record<string, string>) => {
        const run = node(['--input-type=module', '-e', LOADED], { HIRO_API_URL: sample.baseUrl, ...env });
        expect([await run.exited, run.stderr()]).toEqual([0, '']);
        return JSON.parse(run.stdout()) as string[];
      };
      const [off, on] = await Promise.all([loaded({}), loaded({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint })]);
      // The API alone (prom-client loads it too): its no-op implementation, nothing that exports.
      expect(off).toEqual(off.filter((name) => name === 'api'));
      expect(on).toEqual(expect.arrayContaining(['api', 'core', 'exporter-trace-otlp-http', 'resources', 'sdk-trace']));
    } finally {
      await sample.close();
    }
  });

  test('SIGTERM sends the last spans before the process exits', async () => {
    const sample = await startSampleUpstream();
    const port = await freePort();
    const run = node([`${ROOT}src/main.ts`], {
      PORT: String(port),
      HOST: '127.0.0.1',
      HIRO_API_URL: sample.baseUrl,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    });
    try {
      const deadline = Date.now() + 15_000;
      while (!run.stdout().includes('satgate listening') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const response = await fetch(`http://127.0.0.1:${port}${ORDI_PATH}`, {
        headers: { 'x-request-id': 'sigterm-1', connection: 'close' },
      });
      expect(response.status).toBe(200);
      // The batch processor would wait 5 s: only the shutdown's flush sends it this soon.
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      const spans = collector.spans().filter((span) => span.attributes['satgate.request_id'] === 'sigterm-1');
      expect(spans.map((span) => span.name)).toEqual([`GET ${TOKEN_ROUTE}`]);
    } finally {
      run.child.kill('SIGKILL');
      await sample.close();
    }
  });
});
