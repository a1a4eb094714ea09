/**
 * Graceful shutdown's gate. It counts the requests in flight. Once the process is leaving
 * (`leave()`), /readyz is 503 and every answer says `Connection: close` (drainAwareResponse), but
 * requests are still served: a load balancer that has not yet seen the 503 still sends some here
 * (SHUTDOWN_DELAY_MS). Once draining (`begin()`), the listener stays open for the operator
 * endpoints only, every other new request is answered 503 with `Connection: close`, and `begin()`
 * resolves when the last request in flight has finished.
 */
import { ServerResponse, type IncomingMessage } from 'node:http';

/** Served while draining: health checks and the last scrape. */
const OPERATOR_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export interface Drain {
  /** True from `leave()` on: /readyz is 503 and connections close after their answer. */
  readonly leaving: boolean;
  /** True from `begin()` on: new requests are refused. */
  readonly draining: boolean;
  /** Counts a request until its response closes; false (nothing counted) when it must be refused. */
  admit(url: string | undefined, res: ServerResponse): boolean;
  /** Stops being ready; requests are still served. */
  leave(): void;
  /** Starts draining (leaving too); resolves once no request is in flight. */
  begin(): Promise<void>;
}

export function createDrain(): Drain {
  let inFlight = 0;
  let leaving = false;
  let draining = false;
  let idle: (() => void) | undefined;
  const closed = () => {
    if (--inFlight === 0) idle?.();
  };
  return {
    // eslint-disable-next-line no-restricted-syntax -- made once per process
    get leaving() {
      return leaving;
    },
    // eslint-disable-next-line no-restricted-syntax -- made once per process
    get draining() {
      return draining;
    },
    admit(url, res) {
      if (draining && !OPERATOR_PATHS.has((url ?? '/').split('?', 1)[0]!)) return false;
      inFlight++;
      // A response closes once: one handler for all, without once()'s wrapper per request.
      res.on('close', closed);
      return true;
    },
    leave() {
      leaving = true;
    },
    begin() {
      leaving = true;
      draining = true;
      return inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve));
    },
  };
}

/**
 * node:http's response class for a server behind `drain`: once leaving, an answer whose head is
 * not yet written says `Connection: close` and node closes its connection after it (RFC 9112 9.6),
 * so a keep-alive client sends its next request elsewhere rather than down a connection that is
 * about to close. node reads `shouldKeepAlive` as it writes the head: a getter on the prototype,
 * nothing kept per request (a set of the responses in flight showed in the bench's tail).
 */
export function drainAwareResponse(drain: Drain): typeof ServerResponse {
  class DrainAwareResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {}
  const keepAlive = Symbol('keepAlive');
  Object.defineProperty(DrainAwareResponse.prototype, 'shouldKeepAlive', {
    get(this: Record<symbol, boolean>) {
      return this[keepAlive] && !drain.leaving;
    },
    set(this: Record<symbol, boolean>, value: boolean) {
      this[keepAlive] = value;
    },
  });
  return DrainAwareResponse;
}
