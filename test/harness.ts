/**
 * Test harness: the real sample upstream on 127.0.0.1:0 and the real gateway process code on
 * another ephemeral port, talking HTTP. Nothing is mocked; the sample's request log is the truth
 * about upstream calls.
 */
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { start } from '../src/main.js';
import { recordErrorCodes } from './error-codes.js';
import { startSampleUpstream, type SampleOptions, type SampleUpstream } from '../src/sample/server.js';
import type { UnisatOptions } from '../src/sample/unisat.js';

export const HIRO_KEY = 'hiro-secret-key-7f3a9c';

/** The `response-cache-off` vitest project: a test about the fast path itself skips there. */
export const RESPONSE_CACHE_OFF = process.env.TEST_RESPONSE_CACHE === 'off';

export interface Stack {
  sample: SampleUpstream;
  gatewayUrl: string;
  /** The gateway in this process (its upstream clients, metrics, logger), for fault injection. */
  gateway: Awaited<ReturnType<typeof start>>;
  /** Every log line the gateway wrote, parsed. */
  logs: string[];
  /** POSTs a GraphQL document; answers the HTTP status and the parsed body. */
  graphql(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: GraphQLBody }>;
  /** The same POST, answered as sent: the status, the Content-Type and the body's text. */
  graphqlText(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<{ status: number; contentType: string | null; text: string }>;
  /** Upstream requests (method and raw url) since the last reset. */
  upstreamCalls(): string[];
  close(): Promise<void>;
}

export interface GraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, unknown> }>;
  extensions?: Record<string, unknown>;
}

export async function startStack(
  /** Or a function of the started sample (e.g. to point a data source's URL at it). */
  env: Record<string, string> | ((sample: SampleUpstream) => Record<string, string>) = {},
  /** `upstream`: another stack's sample, shared (a second replica of one deployment); left open by close(). */
  { upstream, ...sampleOptions }: SampleOptions & { upstream?: SampleUpstream } = {},
): Promise<Stack> {
  const sample = upstream ?? (await startSampleUpstream(sampleOptions));
  const logs: string[] = [];
  const logDestination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const gateway = await start(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      HIRO_API_URL: sample.baseUrl,
      HIRO_PLATFORM_URL: sample.baseUrl,
      HIRO_API_KEY: HIRO_KEY,
      LOG_LEVEL: 'info',
      UPSTREAM_TIMEOUT_MS: '2000',
      // Revalidate on every request unless a test is about freshness: upstream calls stay countable.
      CACHE_TTL_MS: '0',
      CACHE_NOT_FOUND_TTL_MS: '0',
      // Resilience is tested on its own (test/upstream/resilience.test.ts): elsewhere one fault is one answer.
      UPSTREAM_RETRIES: '0',
      BREAKER_THRESHOLD: '1000',
      STALE_IF_ERROR_MS: '0',
      // The `response-cache-off` vitest project re-runs the GraphQL suites without the fast path.
      ...(process.env.TEST_RESPONSE_CACHE ? { RESPONSE_CACHE: process.env.TEST_RESPONSE_CACHE } : {}),
      ...(typeof env === 'function' ? env(sample) : env),
    },
    { logDestination },
  );
  recordErrorCodes(gateway.http);
  const gatewayUrl = `http://127.0.0.1:${gateway.port}`;
  const graphqlText: Stack['graphqlText'] = async (query, variables, headers = {}) => {
    const response = await fetch(`${gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
  };
  return {
    sample,
    gatewayUrl,
    gateway,
    logs,
    async graphql(query, variables, headers) {
      const { status, text } = await graphqlText(query, variables, headers);
      return { status, body: JSON.parse(text) as GraphQLBody };
    },
    graphqlText,
    upstreamCalls: () => sample.requests.map((r) => `${r.method} ${r.url}`),
    async close() {
      await gateway.stop();
      if (!upstream) await sample.close();
    },
  };
}

/** GETs a URL and answers what a REST client sees: status, JSON body (or text), and caching headers. */
/** A stack whose BRC-20 lookups (and what `env` adds) come from the sample's UniSat profile. */
export function startUnisatStack(env: Record<string, string>, unisat: UnisatOptions = {}): Promise<Stack> {
  return startStack((sample) => ({ BRC20_SOURCE: 'unisat', UNISAT_API_URL: sample.baseUrl, ...env }), { sources: { unisat } });
}

export async function rest(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: compared as text
  }
  return {
    status: response.status,
    body,
    etag: response.headers.get('etag'),
    cacheControl: response.headers.get('cache-control'),
    contentType: response.headers.get('content-type'),
  };
}

/** Executions so far by engine, from the gateway's /metrics (satgate_graphql_executions_total). */
export async function executionsByEngine(stack: Stack): Promise<{ compiled: number; fallback: number }> {
  const text = await (await fetch(`${stack.gatewayUrl}/metrics`)).text();
  const count = (engine: string) =>
    Number(new RegExp(`^satgate_graphql_executions_total\\{engine="${engine}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  return { compiled: count('compiled'), fallback: count('fallback') };
}

/** A port that was free a moment ago, for processes that need to be told theirs in advance. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}
