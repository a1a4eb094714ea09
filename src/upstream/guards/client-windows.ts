import { LruTable } from '../../lib/lru-table.js';

const MINUTE_MS = 60_000;
/**
 * Clients whose windows are kept. A record is two numbers under a 43-character key, about 200
 * bytes with the Map's own overhead: 10,000 clients are ~2 MB.
 */
const MAX_CLIENTS = 10_000;

/**
 * Per-client call windows of one process: a client may cause at most `limit` upstream calls in a
 * one-minute window that opens with its first call (a fixed window, as the upstreams count theirs).
 * Clients are keyed hashes of their addresses; the least recently seen are forgotten first.
 */
interface Window {
  openedAt: number;
  calls: number;
}

export class ClientWindows {
  private readonly windows = new LruTable<Window>(MAX_CLIENTS, MINUTE_MS);

  /** Counts one call of `client` if it is within `limit`: 0; else the seconds until it may (not counted). */
  take(client: string, limit: number, now = Date.now()): number {
    const window = this.windows.use(client, () => ({ openedAt: now, calls: 0 }), now);
    if (now - window.openedAt >= MINUTE_MS) Object.assign(window, { openedAt: now, calls: 0 });
    const wait = waitIn(window, limit, now);
    if (wait === 0) window.calls++;
    return wait;
  }

  /** What `take` would answer now, without counting anything. */
  wait(client: string, limit: number, now = Date.now()): number {
    const window = this.windows.peek(client, now);
    return window ? waitIn(window, limit, now) : 0;
  }
}

/** 0 when `window` admits one more call (or is over); else the seconds until it ends. */
function waitIn(window: Window, limit: number, now: number): number {
  if (now - window.openedAt >= MINUTE_MS || window.calls < limit) return 0;
  return Math.max(1, Math.ceil((window.openedAt + MINUTE_MS - now) / 1000));
}
