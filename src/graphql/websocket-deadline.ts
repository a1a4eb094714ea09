/**
 * REQUEST_TIMEOUT_MS for a query or mutation over graphql-ws, as over HTTP (plugins/request-deadline.ts):
 * its cancellation (the context's signal) aborts at the deadline with REQUEST_TIMEOUT, which the
 * fields still waiting then answer, in its first part or a later one (@defer, @stream), or when
 * the connection closes. A subscription lasts as long as its connection.
 */
import { Cancellation } from '../lib/cancellation.js';

export interface OperationDeadline {
  cancellation: Cancellation;
  /** The operation is complete: its timer and its hold on the connection's signal go. */
  stop(): void;
  /** Ends it now (shutdown): the fields still waiting answer `reason`. */
  cut(reason: Error): void;
}

export function operationDeadline(connection: AbortSignal, timeoutMs: number, expired: () => Error): OperationDeadline {
  const cancellation = new Cancellation();
  const closed = () => cancellation.abort(connection.reason);
  connection.addEventListener('abort', closed, { once: true });
  const timer = setTimeout(() => cancellation.abort(expired()), timeoutMs);
  timer.unref();
  return {
    cancellation,
    stop() {
      clearTimeout(timer);
      connection.removeEventListener('abort', closed);
    },
    cut(reason) {
      cancellation.abort(reason);
    },
  };
}
