/** The process: configuration → upstream pools → server → listen; SIGTERM/SIGINT drain and exit. */
import cluster from 'node:cluster';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { DestinationStream } from 'pino';
import { ConfigError, effectiveConfig, loadConfig, type Config } from './config.js';
import { createDrain, drainAwareResponse } from './server/drain.js';
import { createLiveHub, liveSettings } from './live/hub.js';
import { createRedisCoordinator, liveDataScope } from './live/redis-coordinator.js';
import { attachWebSockets } from './graphql/websocket.js';
import { closeLogs, createLogger } from './observe/logger.js';
import { loadPersistedOperations } from './graphql/limits/persisted-operations.js';
import { createMetrics } from './observe/metrics.js';
import { serveClusterMetrics } from './observe/cluster-metrics.js';
import { serveClusterWindows } from './sources/unisat/cluster-window.js';
import { createRequestListener } from './server/listener.js';
import { answerClientErrors } from './server/client-errors.js';
import { createResponseCache } from './server/response-cache.js';
import { createRestHandler } from './rest/handler.js';
import { schema } from './graphql/schema/index.js';
import { createServer } from './graphql/yoga.js';
import { corsPolicy } from './http/cors.js';
import { capPipelining } from './http/pipelining-cap.js';
import { createTracing } from './observe/tracing.js';
import { createUpstreams } from './upstream/index.js';
import { createSources } from './sources/index.js';
import { createStartsGate } from './server/subscription-starts-gate.js';
import { RestartBackoff } from './server/restart-backoff.js';

export interface StartOptions {
  /** Where logs go (default stdout): tests capture them to check that no key is ever written. */
  logDestination?: DestinationStream;
}

/** How long past REQUEST_TIMEOUT_MS an idle socket is kept: room for the 504 to be written. */
const SOCKET_TIMEOUT_MARGIN_MS = 5_000;
/** How long the last log lines may take to reach stdout on the way out (a reader may not read). */
const LOG_CLOSE_MS = 250;
/** Before SHUTDOWN_TIMEOUT_MS, when WebSocket operations still running are cut (their results sent). */
const WEBSOCKET_CUT_MARGIN_MS = 500;
/** Past SHUTDOWN_TIMEOUT_MS, how long a SIGTERM'd process may take before it exits anyway. */
const EXIT_MARGIN_MS = 1_000;

export async function start(env: Record<string, string | undefined> = process.env, options: StartOptions = {}) {
  const config = loadConfig(env);
  const persistedOperations = config.persistedOperations ? loadPersistedOperations(config.persistedOperations, schema) : undefined;
  const logger = createLogger({ level: config.logLevel, format: config.logFormat }, options.logDestination);
  // The OpenTelemetry SDK is loaded only here, and only when an OTLP endpoint is set.
  const tracing = config.tracing ? await createTracing(config.tracing, logger) : undefined;
  const metrics = createMetrics({ clustered: cluster.isWorker });
  const upstreams = createUpstreams(config, logger, metrics.upstream, (shared) =>
    createSources({ config, logger, events: metrics.upstream, ...shared }),
  );
  const redisHealth = upstreams.redisHealth;
  if (redisHealth) metrics.watchRedis(() => redisHealth().status === 'ready');
  const drain = createDrain();
  const live = createLiveHub({
    upstreams,
    settings: liveSettings(config),
    logger,
    events: metrics.live,
    // With Redis, one replica polls each watched resource and the others hear its changes.
    coordinator: config.redisUrl
      ? createRedisCoordinator(config.redisUrl, config.livePollIntervalMs, logger, liveDataScope(config))
      : undefined,
  });
  const yoga = createServer({ config, upstreams, metrics, logger, isDraining: () => drain.leaving, persistedOperations, live, tracing });
  const cors = corsPolicy(config);
  const rest = createRestHandler({
    upstreams,
    logger,
    metrics,
    cors,
    requestTimeoutMs: config.requestTimeoutMs,
    trustProxy: config.trustProxy,
    maxConcurrentUpstreamCalls: config.maxConcurrentUpstreamCallsPerRequest,
    secrets: upstreams.secrets,
  });
  const responses =
    config.responseCache === 'on'
      ? createResponseCache({
          maxBytes: config.responseCacheMaxBytes,
          maxBodyBytes: config.maxBodyBytes,
          trustProxy: config.trustProxy,
          maxUpstreamCalls: config.maxUpstreamCallsPerRequest,
          maxConcurrentUpstreamCalls: config.maxConcurrentUpstreamCallsPerRequest,
          cors,
          metrics,
        })
      : undefined;
  const http = createHttpServer(
    {
      // A client gets REQUEST_TIMEOUT_MS to send its headers and its body (then 408 and the
      // connection closes). node checks these deadlines only every connectionsCheckingInterval
      // (30 s by default): check often enough that a slow client is cut close to the deadline.
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(config.requestTimeoutMs / 10)),
      ServerResponse: drainAwareResponse(drain),
    },
    capPipelining(
      createRequestListener({
        yoga,
        rest,
        logger,
        drain,
        responses,
        tracing,
        startsGate: createStartsGate({ startRefusal: live.startRefusal, trustProxy: config.trustProxy, cors }),
      }),
    ),
  );
  answerClientErrors(http, { logger, metrics });
  // Answering is bounded by REQUEST_TIMEOUT_MS too (504 on GraphQL and REST). The idle-socket
  // timeout stays above it, or it could close the connection before the 504 is written.
  http.timeout = config.requestTimeoutMs + SOCKET_TIMEOUT_MARGIN_MS;
  const webSockets = attachWebSockets(
    http,
    yoga,
    {
      maxSubscriptionsPerConnection: config.maxSubscriptionsPerConnection,
      maxWebSocketsPerClient: config.maxWebSocketsPerClient,
      maxWebSockets: config.maxWebSockets,
      trustProxy: config.trustProxy,
      maxPayloadBytes: config.maxBodyBytes,
      origins: config.corsOrigins,
      persistedOperations,
      requestTimeoutMs: config.requestTimeoutMs,
      startRefusal: live.startRefusal,
    },
    logger,
  );
  // With Redis, clients are hashed alike in every worker and replica before any is counted.
  await upstreams.ready;
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(config.port, config.host, resolve);
    });
  } catch (error) {
    await upstreams.close();
    await tracing?.shutdown();
    throw new ListenError(config, error);
  }
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `http://${shownHost}:${port}`;
  logger.info({ url, config: effectiveConfig(config, persistedOperations?.size) }, 'satgate listening');
  if (config.compiledExecution === 'eager') {
    // Every new document compiles at once, synchronously, with no per-client budget: a client
    // sending large new documents holds the event loop (about 56 ms each) for everyone.
    logger.warn('COMPILED_EXECUTION=eager compiles every new document without a budget: for checking the executors, not for production');
  }

  let stopping: Promise<void> | undefined;
  /**
   * Graceful shutdown: /readyz turns 503; for SHUTDOWN_DELAY_MS requests are still served (each
   * answer closing its connection) while load balancers stop sending; then new requests other than
   * the operator endpoints are refused (503, Connection: close) while the listener stays open; once
   * the requests in flight have finished (or SHUTDOWN_TIMEOUT_MS has passed, and their connections
   * are cut) it closes, then the pools and Redis.
   */
  const stop = () =>
    (stopping ??= (async () => {
      if (config.shutdownDelayMs > 0) {
        drain.leave();
        logger.info({ delayMs: config.shutdownDelayMs }, 'shutting down: /readyz is 503, still serving for SHUTDOWN_DELAY_MS');
        await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
      }
      logger.info({ timeoutMs: config.shutdownTimeoutMs }, 'shutting down: draining in-flight requests');
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          logger.warn('shutdown timeout: closing the remaining connections');
          http.closeAllConnections();
          resolve();
        }, config.shutdownTimeoutMs);
      });
      const drained = drain.begin();
      // Subscriptions stop polling and their HTTP connections are dropped, without a last event,
      // so their clients subscribe again elsewhere (live/hub.ts, suspend); an open stream would
      // otherwise hold the drain until the timeout.
      live.suspend();
      // Queries and mutations over a WebSocket get the time HTTP requests in flight get, less a
      // margin in which those still running are cut and their results sent; then the sockets close
      // with 1001, which ends their subscriptions without a complete (graphql/websocket.ts).
      const socketsClosed = webSockets.close(Math.max(0, config.shutdownTimeoutMs - WEBSOCKET_CUT_MARGIN_MS));
      await Promise.race([drained, timedOut]);
      await socketsClosed;
      await live.close();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      // Keep-alive connections close as soon as they are idle (a health check may still be on one).
      http.closeIdleConnections();
      const idle = setInterval(() => http.closeIdleConnections(), 50);
      await closed;
      clearInterval(idle);
      clearTimeout(timer);
      await upstreams.close();
      // The last requests' spans (SHUTDOWN_FLUSH_MS at most: a collector that is down cannot hold the exit).
      await tracing?.shutdown();
      logger.info('stopped');
      await closeLogs(logger, LOG_CLOSE_MS);
    })());
  return { url, port, http, logger, config, metrics, upstreams, live, tracing, stop };
}

/** The port is taken, forbidden, or the address is not this machine's: one line says which. */
export class ListenError extends Error {
  override name = 'ListenError';
  constructor(config: Config, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException).code ?? 'unknown';
    const where = `${config.host}:${config.port}`;
    const why =
      code === 'EADDRINUSE'
        ? 'the port is already in use; stop the other process or choose another PORT'
        : code === 'EACCES'
          ? `this user may not listen there${config.port < 1024 ? ' (ports below 1024 need privileges); choose a PORT from 1024' : ''}`
          : code === 'EADDRNOTAVAIL'
            ? "the address is not one of this machine's; check HOST"
            : (cause as Error).message;
    super(`cannot listen on ${where}: ${why} (${code})`);
  }
}

/**
 * With WORKERS > 1 the primary only supervises: node:cluster workers share the port, each with its
 * own pools (and its own in-process cache, or the shared Redis one). A worker that dies after it
 * began serving is replaced, after a growing wait when workers keep dying (restart-backoff.ts); one
 * that dies during start-up stops the whole group (exit 1), since its replacement would fail the
 * same way. The primary also answers the workers' /metrics scrapes, and keeps UniSat's call window
 * for them (cluster-window.ts).
 */
function supervise(config: Config): void {
  const logger = createLogger({ level: config.logLevel, format: config.logFormat });
  const serving = new Set<number>();
  serveClusterMetrics(serving);
  serveClusterWindows();
  const backoff = new RestartBackoff();
  /** Replacements waiting out their backoff: a signal cancels them. */
  const restarts = new Set<NodeJS.Timeout>();
  let stopping = false;
  let status = 0;
  let exiting = false;
  const exitOnceAllGone = () => {
    if (exiting || !stopping || restarts.size > 0 || Object.keys(cluster.workers ?? {}).length > 0) return;
    exiting = true;
    void closeLogs(logger, LOG_CLOSE_MS).then(() => process.exit(status));
  };
  const stopAll = () => {
    stopping = true;
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    exitOnceAllGone();
  };
  cluster.on('listening', (worker) => serving.add(worker.id));
  cluster.on('exit', (worker, code, signal) => {
    const wasServing = serving.delete(worker.id);
    if (!stopping && wasServing) {
      const restartInMs = backoff.next();
      logger.error({ worker: worker.process.pid, code, signal, restartInMs }, 'worker exited; starting another');
      const timer = setTimeout(() => {
        restarts.delete(timer);
        cluster.fork();
      }, restartInMs);
      restarts.add(timer);
    } else if (!stopping) {
      logger.fatal({ worker: worker.process.pid, code, signal }, 'worker exited during start-up; stopping');
      status = 1;
      stopAll();
    } else if (code !== 0) {
      // A worker whose shutdown failed (it overran, exiting 1, or was killed): so did the group's.
      status = 1;
    }
    exitOnceAllGone();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, stopAll);
  for (let i = 0; i < config.workers; i++) cluster.fork();
}

/**
 * What would stop every worker, checked once in the primary so the group fails with one line:
 * the persisted operations, and the port (listened on and released).
 */
async function preflight(config: Config): Promise<void> {
  if (config.persistedOperations) loadPersistedOperations(config.persistedOperations, schema);
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(config.port, config.host, resolve);
  }).catch((error: unknown) => {
    throw new ListenError(config, error);
  });
  await new Promise((resolve) => probe.close(resolve));
}

/** A configuration or listen failure: one line on stderr, exit 1. Anything else is a bug: thrown. */
export function exitOnStartupFailure(error: unknown): never {
  if (error instanceof ConfigError) console.error(`satgate: configuration error: ${error.message}`);
  else if (error instanceof ListenError) console.error(`satgate: ${error.message}`);
  else throw error;
  process.exit(1);
}

async function runProcess(): Promise<void> {
  let server: Awaited<ReturnType<typeof start>> | undefined;
  let signalled = false;
  // Repeated signals (a terminal's Ctrl-C reaches npm and the gateway, and npm forwards it) join
  // the one shutdown; SHUTDOWN_DELAY_MS + SHUTDOWN_TIMEOUT_MS bound it. Should anything still hold
  // it EXIT_MARGIN_MS later, the process exits anyway, with 1 (the timer itself keeps nothing alive).
  let deadline: NodeJS.Timeout | undefined;
  const shutdown = (running: Awaited<ReturnType<typeof start>>) => {
    const timeoutMs = running.config.shutdownDelayMs + running.config.shutdownTimeoutMs + EXIT_MARGIN_MS;
    const exitAnyway = () => {
      running.logger.error({ timeoutMs }, 'shutdown did not finish in time: exiting');
      void closeLogs(running.logger, LOG_CLOSE_MS / 2).then(() => process.exit(1));
    };
    deadline ??= setTimeout(exitAnyway, timeoutMs - LOG_CLOSE_MS / 2).unref();
    void running.stop().then(() => process.exit(0));
  };
  // Installed before start-up: a signal that arrives once the start-up line is out, but before
  // start() has returned, still stops the process gracefully (not by the default action).
  const onSignal = () => {
    if (server) shutdown(server);
    else signalled = true;
  };
  try {
    const config = loadConfig(process.env);
    if (config.workers > 1 && cluster.isPrimary) {
      await preflight(config);
      return supervise(config);
    }
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, onSignal);
    server = await start();
  } catch (error) {
    exitOnStartupFailure(error);
  }
  const running = server;
  // A bug in one request must cost that request, never the process that serves all the others.
  process.on('unhandledRejection', (reason) => {
    running.logger.error({ err: reason instanceof Error ? reason.message : String(reason) }, 'unhandled rejection');
  });
  if (signalled) shutdown(running);
}

if (import.meta.url === new URL(process.argv[1] ?? '', 'file://').href) await runProcess();
