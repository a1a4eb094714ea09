/**
 * Subscription clients for `npm run bench -- --abuse`, each speaking as a given client address
 * (X-Forwarded-For; the bench gateway runs with TRUST_PROXY=1): GraphQL over SSE (one request per
 * subscription, undici) and graphql-ws (`graphql-transport-ws`, several subscriptions per socket,
 * over ws). Written small rather than with graphql-sse and graphql-ws's clients: an attacker needs
 * every answer as it came (a refused upgrade's status, a stream that ends), not retries.
 */
import { request, type Dispatcher } from 'undici';
import WebSocket from 'ws';

export interface Result {
  data?: unknown;
  errors?: Array<{ message?: string; extensions?: { code?: string } }>;
}

/** One subscription, updated as its answers come. */
export interface Watch {
  results: Result[];
  /** How the stream ended (`complete`, `closed`, `left`, `http 429`, …); undefined while open. */
  ended: string | undefined;
  /** Settles at the first result or the end, whichever comes first. */
  first: Promise<void>;
  /** Leaves (idempotent). */
  stop(): void;
}

function newWatch(stop: () => void): { watch: Watch; settle: () => void } {
  let settle!: () => void;
  const first = new Promise<void>((resolve) => (settle = resolve));
  const watch: Watch = { results: [], ended: undefined, first, stop };
  return { watch, settle };
}

/** A subscription's first answer: `value` (data), an error code, `pending` (nothing yet), or how it ended. */
export function firstAnswer(watch: Pick<Watch, 'results' | 'ended'>): string {
  const result = watch.results[0];
  if (result?.errors?.length) return result.errors[0]!.extensions?.code ?? 'error without a code';
  if (result) return result.data ? 'value' : 'result without data';
  return watch.ended === undefined ? 'pending' : `ended (${watch.ended})`;
}

/** The complete events at the head of an SSE text (`event`, `data` lines), and what is left to come. */
export function parseSse(text: string): { events: Array<{ event: string; data: string }>; rest: string } {
  const events: Array<{ event: string; data: string }> = [];
  const blocks = text.replace(/\r\n/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    // A block of comments only (keep-alive) is no event.
    if (data.length > 0 || event !== 'message') events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
}

const xff = (address: string) => ({ 'x-forwarded-for': address });

/** One subscription over SSE as `address`, until it ends or `stop()`. */
export function sseSubscribe(gatewayUrl: string, query: string, address: string, dispatcher: Dispatcher): Watch {
  const controller = new AbortController();
  const { watch, settle } = newWatch(() => {
    watch.ended ??= 'left';
    controller.abort();
  });
  const end = (why: string) => {
    watch.ended ??= why;
    settle();
  };
  void (async () => {
    try {
      const response = await request(`${gatewayUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...xff(address) },
        body: JSON.stringify({ query }),
        dispatcher,
        signal: controller.signal,
      });
      if (response.statusCode !== 200) {
        // A refusal before any stream (429 past the client's subscription starts) says why in JSON.
        const text = await response.body.text();
        if (response.headers['content-type']?.toString().startsWith('application/json')) {
          watch.results.push(JSON.parse(text) as Result);
          settle();
        }
        return end(`http ${response.statusCode}`);
      }
      let buffer = '';
      const decoder = new TextDecoder();
      for await (const chunk of response.body) {
        const parsed = parseSse(buffer + decoder.decode(chunk as Buffer, { stream: true }));
        buffer = parsed.rest;
        for (const { event, data } of parsed.events) {
          if (event === 'next') {
            watch.results.push(JSON.parse(data) as Result);
            settle();
          } else if (event === 'complete') {
            end('complete');
          }
        }
      }
      end('closed');
    } catch (error) {
      end(controller.signal.aborted ? 'left' : `error: ${error instanceof Error ? error.message : String(error)}`);
    }
  })();
  return watch;
}

type Message = { type: string; id?: string; payload?: unknown };

/** A graphql-ws connection that has been acknowledged. */
export interface GraphqlSocket {
  subscribe(query: string): Watch;
  /** Whether the server has closed it (or it was closed here). */
  readonly closed: boolean;
  close(): void;
}

export type SocketOutcome = { socket: GraphqlSocket } | { refused: number; body: string } | { failed: string };

/** Opens a graphql-ws connection as `address`: acknowledged, refused (the upgrade's status and body), or failed. */
export function openGraphqlSocket(gatewayUrl: string, address: string, timeoutMs: number): Promise<SocketOutcome> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${gatewayUrl.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { headers: xff(address) });
    const watches = new Map<string, { watch: Watch; settle: () => void }>();
    let nextId = 1;
    let closed = false;
    const timer = setTimeout(() => {
      ws.terminate();
      resolve({ failed: `no connection_ack within ${timeoutMs} ms` });
    }, timeoutMs);
    const send = (message: Message) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
    };
    const socket: GraphqlSocket = {
      subscribe(query) {
        const id = String(nextId++);
        const entry = newWatch(() => {
          if (entry.watch.ended !== undefined) return;
          entry.watch.ended = 'left';
          send({ id, type: 'complete' });
          watches.delete(id);
        });
        watches.set(id, entry);
        if (closed) {
          entry.watch.ended = 'closed';
          entry.settle();
        } else {
          send({ id, type: 'subscribe', payload: { query } });
        }
        return entry.watch;
      },
      get closed() {
        return closed;
      },
      close: () => ws.close(1000),
    };
    ws.once('unexpected-response', (_req, res) => {
      clearTimeout(timer);
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ refused: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', () => resolve({ refused: res.statusCode ?? 0, body: '' }));
    });
    ws.on('error', (error) => {
      clearTimeout(timer);
      resolve({ failed: error.message });
    });
    ws.once('open', () => send({ type: 'connection_init' }));
    ws.on('message', (raw: Buffer) => {
      const message = JSON.parse(String(raw)) as Message;
      const entry = message.id === undefined ? undefined : watches.get(message.id);
      switch (message.type) {
        case 'connection_ack':
          clearTimeout(timer);
          resolve({ socket });
          return;
        case 'ping':
          send({ type: 'pong' });
          return;
        case 'next':
          if (!entry) return;
          entry.watch.results.push(message.payload as Result);
          entry.settle();
          return;
        case 'error':
          if (!entry) return;
          entry.watch.results.push({ errors: message.payload as Result['errors'] });
          entry.watch.ended ??= 'error';
          entry.settle();
          watches.delete(message.id!);
          return;
        case 'complete':
          if (!entry) return;
          entry.watch.ended ??= 'complete';
          entry.settle();
          watches.delete(message.id!);
          return;
      }
    });
    ws.once('close', () => {
      closed = true;
      clearTimeout(timer);
      resolve({ failed: 'closed before connection_ack' });
      for (const { watch, settle } of watches.values()) {
        watch.ended ??= 'closed';
        settle();
      }
      watches.clear();
    });
  });
}
