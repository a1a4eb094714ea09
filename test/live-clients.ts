/**
 * Subscription clients for the live suites: real graphql-sse and graphql-ws clients, each able to
 * speak as a given client address through X-Forwarded-For (the gateway runs with TRUST_PROXY=1),
 * and a collector of every result a subscription received. Nothing here calls gateway code.
 */
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';

export type Result = { data?: Record<string, unknown> | null; errors?: unknown[] };

/** A running subscription: every result it received, whether it completed, and how to leave. */
export interface Watch {
  results: Result[];
  done: Promise<void>;
  completed: boolean;
  /** What the stream threw (a graphql-ws `error` message, a refused connection). */
  failure: unknown;
  stop(): void;
}

export function collect(iterator: AsyncIterableIterator<Result>): Watch {
  const watch: Watch = { results: [], completed: false, failure: undefined, stop: () => void iterator.return?.(), done: Promise.resolve() };
  watch.done = (async () => {
    try {
      for await (const result of iterator) watch.results.push(result);
      watch.completed = true;
    } catch (error) {
      watch.failure = error;
    }
  })();
  return watch;
}

/** Headers that make the gateway (TRUST_PROXY=1) see `address` as the client. */
export const from = (address: string) => ({ 'x-forwarded-for': address });

/** The clients a suite made, disposed of by `disposeAll`. */
const open: Array<{ dispose(): void | Promise<void> }> = [];

export async function disposeAll(): Promise<void> {
  await Promise.all(open.splice(0).map((client) => client.dispose()));
}

/** One subscription over SSE (its own request), as `address`. */
export function sse(gatewayUrl: string, query: string, address: string): Watch {
  const client = createSseClient({ url: `${gatewayUrl}/graphql`, retryAttempts: 0, headers: from(address) });
  open.push(client);
  return collect(client.iterate({ query }) as AsyncIterableIterator<Result>);
}

/** A graphql-ws client (one WebSocket, opened on its first subscription) as `address`. */
export function wsClient(gatewayUrl: string, address: string): WsClient {
  const headers = from(address);
  class WebSocketFrom extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers });
    }
  }
  const client = createWsClient({
    url: `${gatewayUrl.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocketFrom,
    retryAttempts: 0,
    lazy: true,
  });
  open.push(client);
  return client;
}

export function ws(client: WsClient, query: string): Watch {
  return collect(client.iterate({ query }) as AsyncIterableIterator<Result>);
}

export async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

export const TOKEN_SUBSCRIPTION = (ticker: string) => `subscription { brc20Token(ticker: ${JSON.stringify(ticker)}) { token { ticker } } }`;
export const tokenPath = (ticker: string) => `/ordinals/v1/brc-20/tokens/${ticker}`;
