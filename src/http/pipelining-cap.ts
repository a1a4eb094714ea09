/**
 * The requests one connection has waiting for their answers (HTTP/1.1 pipelining), kept for two
 * things node does not do:
 *
 * - A bound. node parses every request a connection has sent and runs each at once, and answers
 *   must leave in order, so a client that sends many requests in one write and never reads makes
 *   the process run and hold every answer: 200 pipelined etching pages a connection, unread, held
 *   about 1.5 MiB of heap each until the connection timed out. Past the bound the connection is
 *   closed: answers can only go in order, so no error can be sent ahead of the ones still waiting.
 *   Browsers and HTTP clients do not pipeline this deep.
 * - Their end. When a connection closes, node closes the answer it is writing but never the ones
 *   queued behind it: their 'close' never comes, so their work was not cancelled, no access line
 *   was written, and the drain waited for them until SHUTDOWN_TIMEOUT_MS. They are closed here.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Requests one connection may have unanswered (their answers not yet closed). */
export const MAX_PIPELINED_REQUESTS = 16;

export function capPipelining(listener: RequestListener): RequestListener {
  /** Per connection, the answers that were queued behind another (and have not closed since). */
  const queued = new WeakMap<Socket, Set<ServerResponse>>();
  return (req: IncomingMessage, res: ServerResponse) => {
    // node gives an answer its socket at once unless another is being written: the common case
    // (no pipelining) costs this one check (a Set and a listener an answer were 3% of a warm one).
    if (res.socket) return listener(req, res);
    const socket = req.socket;
    let waiting = queued.get(socket);
    if (!waiting) {
      const open = (waiting = new Set());
      queued.set(socket, open);
      // The answers node left queued when the connection went (no socket yet): closed, once each.
      // One given the socket is closed by node itself.
      socket.on('close', () => {
        for (const answer of open) if (!answer.socket) answer.emit('close');
      });
    }
    // The one being written, and those queued behind it.
    if (1 + waiting.size >= MAX_PIPELINED_REQUESTS) {
      socket.destroy();
      return;
    }
    const open = waiting;
    open.add(res);
    res.on('close', () => open.delete(res));
    listener(req, res);
  };
}
