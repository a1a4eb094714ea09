/** What every server the bench forks does with its HTTP server: listen, report, and stop with its parent. */
import type { Server } from 'node:http';
import type { ProxyMessage } from './protocol.js';

/**
 * Listens on 127.0.0.1 (PORT, or any free port), sends the parent `ready` with the URL, and exits on
 * SIGTERM, SIGINT or the parent's leaving; `close` runs first (e.g. a pool to close).
 */
export function serveChild(server: Server, name: string, close: () => Promise<unknown> = async () => {}): void {
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error(`${name}: no TCP address`);
    const message: ProxyMessage = { type: 'ready', url: `http://127.0.0.1:${address.port}` };
    process.send?.(message);
  });
  const shutdown = () => {
    server.close();
    server.closeAllConnections();
    void close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  process.on('disconnect', () => process.exit(0));
}
