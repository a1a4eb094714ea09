/**
 * A bound on the requests one connection may have waiting for their answers (HTTP/1.1 pipelining).
 * node parses every request a connection has sent and runs each at once, and answers must leave in
 * order, so a client that sends many requests in one write and never reads makes the process run
 * and hold every answer: 200 pipelined etching pages a connection, unread, held about 1.5 MiB of
 * heap each until the connection timed out. Past the bound the connection is closed: answers can
 * only go in order, so no error can be sent ahead of the ones still waiting. Browsers and HTTP
 * clients do not pipeline this deep.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Requests one connection may have unanswered (their answers not yet handed to the socket). */
export const MAX_PIPELINED_REQUESTS = 16;

export function capPipelining(listener: RequestListener): RequestListener {
  const waiting = new WeakMap<Socket, number>();
  return (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const count = (waiting.get(socket) ?? 0) + 1;
    if (count > MAX_PIPELINED_REQUESTS) {
      socket.destroy();
      return;
    }
    waiting.set(socket, count);
    res.once('close', () => waiting.set(socket, (waiting.get(socket) ?? 1) - 1));
    listener(req, res);
  };
}
