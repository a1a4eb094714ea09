/** The process: configuration → upstream pools → server → listen; SIGTERM/SIGINT drain and exit. */
import cluster from 'node:cluster';
import { createServer as createHttpServer } from 'node:http';
import type { DestinationStream } from 'pino';
import { ConfigError, loadConfig } from './config.js';
import { createLiveHub, liveSettings } from './live/hub.js';
import { createRedisCoordinator } from './live/redis-coordinator.js';
import { attachWebSockets } from './live/websocket.js';
import { createLogger } from './logger.js';
import { loadPersistedOperations } from './hardening.js';
import { createMetrics } from './metrics.js';
import { createRequestListener } from './http-listener.js';
import { createRestHandler } from './rest/handler.js';
import { corsOptions, createServer } from './server.js';
import { createUpstreams } from './upstream/index.js';

export interface StartOptions {
  /** Where logs go (default stdout): tests capture them to check that no key is ever written. */
  logDestination?: DestinationStream;
}

export async function start(env: Record<string, string | undefined> = process.env, options: StartOptions = {}) {
  const config = loadConfig(env);
  const persistedOperations = config.persistedOperations ? loadPersistedOperations(config.persistedOperations) : undefined;
  const logger = createLogger(config.logLevel, options.logDestination);
  const metrics = createMetrics();
  const upstreams = createUpstreams(config, logger, metrics.upstream);
  let draining = false;
  const live = createLiveHub({
    upstreams,
    settings: liveSettings(config),
    logger,
    events: metrics.live,
    // With Redis, one replica polls each watched resource and the others hear its changes.
    coordinator: config.redisUrl ? createRedisCoordinator(config.redisUrl, config.livePollIntervalMs, logger) : undefined,
  });
  const yoga = createServer({ config, upstreams, metrics, isDraining: () => draining, persistedOperations, live });
  const rest = createRestHandler({ upstreams, logger, metrics, cors: corsOptions(config) });
  const http = createHttpServer(createRequestListener(yoga, rest, logger));
  // A client gets this long to send its request; upstream waits are bounded by UPSTREAM_TIMEOUT_MS.
  http.requestTimeout = config.requestTimeoutMs;
  http.headersTimeout = Math.min(config.requestTimeoutMs, 60_000);
  http.timeout = config.requestTimeoutMs;
  const webSockets = attachWebSockets(http, yoga, {
    maxSubscriptionsPerConnection: config.maxSubscriptionsPerConnection,
    maxPayloadBytes: config.maxBodyBytes,
    origins: config.corsOrigins,
  }, logger);
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
  /**
   * Graceful shutdown: stop accepting, let accepted requests finish (closing keep-alive connections
   * as they go idle), force-close what is left after SHUTDOWN_TIMEOUT_MS, then close the pools.
   */
  const stop = () =>
    (stopping ??= (async () => {
      draining = true;
      logger.info({ timeoutMs: config.shutdownTimeoutMs }, 'shutting down: draining in-flight requests');
      // Subscriptions end cleanly first (a complete event on each stream), then their connections close.
      await live.close();
      await webSockets.close();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      const idle = setInterval(() => http.closeIdleConnections(), 50);
      http.closeIdleConnections();
      const timer = setTimeout(() => {
        logger.warn('shutdown timeout: closing the remaining connections');
        http.closeAllConnections();
      }, config.shutdownTimeoutMs);
      await closed;
      clearInterval(idle);
      clearTimeout(timer);
      await upstreams.close();
      logger.info('stopped');
    })());
  return { url, port, http, logger, config, metrics, upstreams, live, stop };
}

/**
 * With WORKERS > 1 the primary only supervises: node:cluster workers share the port, each with its
 * own pools (and its own in-process cache, or the shared Redis one). A worker that dies is replaced.
 */
function supervise(workers: number): void {
  let stopping = false;
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on('exit', (worker, code) => {
    if (!stopping && code !== 0) {
      console.error(`satgate: worker ${worker.process.pid} exited with ${code}; starting another`);
      cluster.fork();
    }
    if (stopping && Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    });
  }
}

async function runProcess(): Promise<void> {
  try {
    const config = loadConfig(process.env);
    if (config.workers > 1 && cluster.isPrimary) return supervise(config.workers);
    const server = await start();
    // A bug in one request must cost that request, never the process that serves all the others.
    process.on('unhandledRejection', (reason) => {
      server.logger.error({ err: reason instanceof Error ? reason.message : String(reason) }, 'unhandled rejection');
    });
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

if (import.meta.url === new URL(process.argv[1] ?? '', 'file://').href) await runProcess();
