/**
 * Graceful shutdown's gate. It counts the requests in flight; once shutdown begins, the listener
 * stays open for the operator endpoints only (a load balancer sees /readyz turn 503), every other
 * new request is answered 503 with `Connection: close`, every answer still to be written says
 * `Connection: close` too, and `begin()` resolves when the last request in flight has finished.
 */
import type { ServerResponse } from 'node:http';

/** Served while draining: health checks and the last scrape. */
const OPERATOR_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export interface Drain {
  readonly draining: boolean;
  /** Counts a request until its response closes; false (nothing counted) when it must be refused. */
  admit(url: string | undefined, res: ServerResponse): boolean;
  /** Starts draining; resolves once no request is in flight. */
  begin(): Promise<void>;
}

export function createDrain(): Drain {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  let idle: (() => void) | undefined;
  return {
    get draining() {
      return draining;
    },
    admit(url, res) {
      if (draining && !OPERATOR_PATHS.has((url ?? '/').split('?', 1)[0]!)) return false;
      inFlight.add(res);
      // While draining, an answer still to be written says it closes its connection (RFC 9112 9.6).
      if (draining) res.setHeader('connection', 'close');
      res.once('close', () => {
        inFlight.delete(res);
        if (inFlight.size === 0) idle?.();
      });
      return true;
    },
    begin() {
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
      return inFlight.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve));
    },
  };
}
