/**
 * graphql-ws's protocol (its `makeServer`) on a `ws` server: what `graphql-ws/use/ws` does, with
 * three differences. Errors go to the gateway's log as one line, not to `console.error` with their
 * stack: there a client could write a dozen lines to stderr per socket, outside the JSON log and
 * past LOG_LEVEL, with a frame too large or a message only a server sends. And such a message
 * (`connection_ack`, `next`, `error`) closes its socket with 4400, "Invalid message received", as
 * the protocol asks, not with 4500.
 *
 * And an id the client completed is taken again only once its operation has ended. graphql-ws
 * tells operations apart by id alone: a subscribe of that id while the first one was still ending
 * (or being set up) let the first one's end send a bare `complete` for the second and delete its
 * entry, so that its result was never sent. The protocol lets a client reuse a completed id at
 * once; the subscribe waits here instead, unless the client completes it too meanwhile.
 */
import type { IncomingMessage } from 'node:http';
import { CloseCode, handleProtocols, makeServer, type ServerOptions } from 'graphql-ws';
import type { Logger } from 'pino';
import type { WebSocket, WebSocketServer } from 'ws';

/** What each operation's context carries of its connection (as `graphql-ws/use/ws` names it). */
export interface Extra {
  readonly socket: WebSocket;
  readonly request: IncomingMessage;
}

/** The message types a client may send (graphql-ws's PROTOCOL.md). */
const CLIENT_MESSAGES = new Set(['connection_init', 'ping', 'pong', 'subscribe', 'complete']);

/** An operation of a socket, from its subscribe to its end. */
interface Operation {
  ended: Promise<void>;
  end(): void;
  completedByClient: boolean;
}

function operation(): Operation {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  return { ended, end, completedByClient: false };
}

export function serveGraphqlWs<E extends object>(
  options: ServerOptions<Record<string, unknown>, Extra & Partial<E>>,
  wss: WebSocketServer,
  keepAliveMs: number,
  logger: Logger,
): { dispose(): void } {
  const server = makeServer(options);
  wss.options.handleProtocols = handleProtocols;
  const onConnection = (socket: WebSocket, request: IncomingMessage) => {
    /** The socket's operations by id, from the subscribe graphql-ws takes to the end of its handling. */
    const running = new Map<string, Operation>();
    /** Subscribes waiting for their id's previous operation to end: cancelled by the client's complete. */
    const waiting = new Map<string, { cancelled: boolean }>();
    /**
     * A message's turn: a subscribe whose id the client completed while its operation still runs
     * waits for that operation's end. Resolves with the operation a subscribe starts (undefined
     * for other messages), or false when the message is dropped.
     */
    const admit = async (message: ClientMessage | undefined): Promise<Operation | undefined | false> => {
      if (message?.type === 'complete') {
        const op = running.get(message.id);
        if (op) op.completedByClient = true;
        const wait = waiting.get(message.id);
        if (wait) wait.cancelled = true;
      }
      if (message?.type !== 'subscribe') return undefined;
      const previous = running.get(message.id);
      if (previous?.completedByClient) {
        const wait = { cancelled: false };
        waiting.set(message.id, wait);
        await previous.ended;
        if (waiting.get(message.id) === wait) waiting.delete(message.id);
        if (wait.cancelled || socket.readyState !== socket.OPEN) return false;
      }
      // A subscribe of an id still running, not completed, is graphql-ws's to refuse (4409).
      if (running.has(message.id)) return undefined;
      const op = operation();
      running.set(message.id, op);
      return op;
    };
    // `ws` has already closed the socket (1009 for a frame too large, 1002 for a bad frame).
    socket.once('error', (error) => logger.debug({ err: error.message }, 'websocket closed on a client error'));
    // A peer that does not answer a ping within the next interval is dropped.
    let pongWait: NodeJS.Timeout | undefined;
    const pings =
      keepAliveMs > 0
        ? setInterval(() => {
            if (socket.readyState !== socket.OPEN) return;
            pongWait = setTimeout(() => socket.terminate(), keepAliveMs);
            socket.once('pong', () => clearTimeout(pongWait));
            socket.ping();
          }, keepAliveMs)
        : undefined;
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, (error) => (error ? reject(error) : resolve()));
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (handle) =>
          socket.on('message', async (data) => {
            const text = String(data);
            const message = peek(text);
            const op = await admit(message);
            if (op === false) return;
            try {
              // For a subscribe, graphql-ws settles this once the operation has ended and its id is free.
              await handle(text);
            } catch (error) {
              // graphql-ws throws on a message only a server sends, as on a failure of its own.
              if (message && !CLIENT_MESSAGES.has(message.type)) return socket.close(CloseCode.BadRequest, 'Invalid message received');
              logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'websocket message failed');
              socket.close(CloseCode.InternalServerError, 'Internal server error');
            } finally {
              if (op) {
                if (running.get(message!.id) === op) running.delete(message!.id);
                op.end();
              }
            }
          }),
      },
      { socket, request } as Extra & Partial<E>,
    );
    socket.once('close', (code, reason) => {
      clearTimeout(pongWait);
      clearInterval(pings);
      void closed(code, String(reason));
    });
  };
  wss.on('connection', onConnection);
  return { dispose: () => wss.off('connection', onConnection) };
}

interface ClientMessage {
  type: string;
  id: string;
}

/** A message's type and id as graphql-ws will read them; undefined for what it will refuse anyway. */
function peek(text: string): ClientMessage | undefined {
  try {
    const message: unknown = JSON.parse(text);
    if (typeof message !== 'object' || message === null || !('type' in message) || typeof message.type !== 'string') return undefined;
    return { type: message.type, id: 'id' in message && typeof message.id === 'string' ? message.id : '' };
  } catch {
    return undefined;
  }
}
