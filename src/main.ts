/** The process: configuration → upstream pools → server → listen; SIGTERM/SIGINT drain and exit. */
import { createServer as createHttpServer } from 'node:http';
import type { DestinationStream } from 'pino';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { createServer } from './server.js';
import { createUpstreams } from './upstream/index.js';

export interface StartOptions {
  /** Where logs go (default stdout): tests capture them to check that no key is ever written. */
  logDestination?: DestinationStream;
}

export async function start(env: Record<string, string | undefined> = process.env, options: StartOptions = {}) {
  const config = loadConfig(env);
  const logger = createLogger(config.logLevel, options.logDestination);
  const upstreams = createUpstreams(config, logger);
  const yoga = createServer({ upstreams, logger });
  const http = createHttpServer(yoga);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.port, config.host, resolve);
  });
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `http://${shownHost}:${port}`;
  logger.info({ url }, 'satgate listening');

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      logger.info('shutting down');
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeIdleConnections();
      });
      await upstreams.close();
    })());
  return { url, port, http, logger, config, stop };
}

const isMain = import.meta.url === new URL(process.argv[1] ?? '', 'file://').href;
if (isMain) {
  try {
    const server = await start();
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => void server.stop().then(() => process.exit(0)));
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`satgate: configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}
