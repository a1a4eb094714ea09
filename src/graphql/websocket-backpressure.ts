/**
 * A WebSocket whose client does not read what it is sent is cut once that much waits for it: ws
 * queues every message (a `pong` echoing each `ping`'s payload, a subscription's events) in
 * memory without a bound, and one client that sent pings without reading the pongs grew the
 * process by gigabytes before the keep-alive noticed it. A message is sent whole whatever its
 * size; only what is already waiting is counted.
 */
import type { WebSocket } from 'ws';

/** Bytes waiting for one client past which its socket is cut: many answers, far above a healthy client's lag. */
export const MAX_WAITING_BYTES = 4 * 1024 * 1024;

export function cutWhenNotRead(socket: WebSocket, maxWaiting = MAX_WAITING_BYTES): void {
  const notReading = () => {
    if (socket.bufferedAmount <= maxWaiting) return false;
    // Not close(): its frame would wait behind what the client does not read.
    socket.terminate();
    return true;
  };
  const send = socket.send.bind(socket) as (...args: unknown[]) => void;
  socket.send = ((data: unknown, ...rest: unknown[]) => {
    const at = rest.findIndex((arg) => typeof arg === 'function');
    const callback = at >= 0 ? (rest[at] as (error?: Error) => void) : undefined;
    // Once cut, what its messages still ask to send is dropped, as a closed socket's would be, and
    // what was waiting when it was cut is let go without an error for each message.
    if (socket.readyState !== socket.OPEN || notReading()) return callback?.();
    if (callback) rest[at] = (error?: Error) => callback(socket.readyState === socket.OPEN ? error : undefined);
    send(data, ...rest);
  }) as WebSocket['send'];
  // ws answers a protocol ping with a pong of its own, queued the same way.
  socket.on('ping', notReading);
}
