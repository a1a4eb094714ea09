/**
 * Distributed tracing: OpenTelemetry spans exported over OTLP/HTTP (JSON). Off unless an OTLP
 * endpoint is configured; then createTracing loads the SDK with dynamic imports (nothing of it is
 * loaded otherwise) and builds a tracer provider for this gateway instance, never registered
 * globally. Spans travel down explicitly, not through an async context manager: the request's
 * span on its RequestStats, the operation's and each loader batch's on CallOptions.trace. With
 * tracing off no span code runs at all: the layers only check that field.
 *
 *   request (SERVER: `GET /ordinals/v1/brc-20/tokens/:ticker`, `POST /graphql`)
 *     └ operation (`query Overview`) └ loader batch (`dataloader.batch brc20Token`)
 *         └ upstream lookup (`upstream /ordinals/v1/brc-20/tokens/:ticker`: cache outcome)
 *             └ attempt (CLIENT: `GET /ordinals/v1/brc-20/tokens/:ticker`: status, retry, breaker)
 *
 * Spans carry route templates, never paths, arguments, headers or messages: keys travel in those.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  defaultTextMapGetter,
  defaultTextMapSetter,
  trace,
  type AttributeValue,
  type Attributes,
  type Context,
  type Span,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, Sampler, SpanExporter } from '@opentelemetry/sdk-trace';
import type { Logger } from 'pino';
import type { SamplerName, TracingConfig } from '../config.js';

export { SpanKind };

/** How long shutdown waits for the last spans to reach the collector. */
const SHUTDOWN_FLUSH_MS = 2_000;
/** Span names and attribute values are cut to this length: a queued span stays small whatever a client sends. */
const MAX_ATTRIBUTE_LENGTH = 256;
/** Paths yoga serves whose names are fixed (any other path might hold anything: not named). */
const YOGA_ROUTES = new Set(['/graphql', '/healthz', '/readyz', '/metrics']);

interface Exporting {
  tracer: Tracer;
  propagator: TextMapPropagator;
}

/** A span, and the context its children start from. */
export class TraceSpan {
  constructor(
    private readonly exporting: Exporting,
    private readonly span: Span,
    private readonly context: Context,
  ) {}

  /** Starts a child span; its name is cut as attribute values are (it may hold an operation's name). */
  child(name: string, attributes: Attributes, kind: SpanKind = SpanKind.INTERNAL): TraceSpan {
    const span = this.exporting.tracer.startSpan(name.slice(0, MAX_ATTRIBUTE_LENGTH), { kind, attributes }, this.context);
    return new TraceSpan(this.exporting, span, trace.setSpan(this.context, span));
  }

  set(name: string, value: AttributeValue | undefined): this {
    if (value !== undefined) this.span.setAttribute(name, value);
    return this;
  }

  /** Marks the span failed; `error.type` says how (never a message: it may echo what a client sent). */
  fail(errorType: string): this {
    this.span.setAttribute('error.type', errorType);
    this.span.setStatus({ code: SpanStatusCode.ERROR });
    return this;
  }

  /** Points at a span whose work this one waited on (a joined in-flight call). */
  link(to: TraceSpan): this {
    this.span.addLink({ context: to.span.spanContext() });
    return this;
  }

  /** Writes this span's `traceparent` (and the client's `tracestate`) into outgoing headers. */
  inject(headers: Record<string, string>): void {
    this.exporting.propagator.inject(this.context, headers, defaultTextMapSetter);
  }

  end(): void {
    this.span.end();
  }
}

/** What tracing reads and writes of a client request's stats (http/request-stats.ts's RequestStats). */
export interface TracedStats {
  trace: TraceSpan | undefined;
  readonly route: string | undefined;
  readonly operationName: string | undefined;
  readonly cache: string | undefined;
  readonly upstreamCalls: number;
}

export interface Tracing {
  /**
   * Starts a request's span, continuing the client's `traceparent`, and keeps it on `stats.trace`;
   * it ends when the response closes, named after the route template (TracedStats.route, or a
   * fixed yoga path), never the raw path.
   */
  traceRequest(req: IncomingMessage, res: ServerResponse, stats: TracedStats, requestId: string): void;
  /** Sends the spans ended so far (tests). */
  flush(): Promise<void>;
  /** Sends the last spans (at most SHUTDOWN_FLUSH_MS) and stops exporting. */
  shutdown(): Promise<void>;
}

/** Loads the OpenTelemetry SDK and starts exporting: called only when tracing is configured. */
export async function createTracing(config: TracingConfig, logger: Logger): Promise<Tracing> {
  const [sdk, { OTLPTraceExporter }, resources, { W3CTraceContextPropagator, ExportResultCode }] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/core'),
  ]);
  // service.name: OTEL_SERVICE_NAME, else OTEL_RESOURCE_ATTRIBUTES' (read by the SDK), else satgate.
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ 'service.name': 'satgate' }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }))
    .merge(config.serviceName ? resources.resourceFromAttributes({ 'service.name': config.serviceName }) : null);
  // Headers, timeout, compression and certificates: the exporter reads OTEL_EXPORTER_OTLP_* itself.
  const exporter = reportingFailures(new OTLPTraceExporter({ url: config.url }), ExportResultCode.SUCCESS, logger);
  const provider = new sdk.TracerProvider({
    resource,
    sampler: sampler(config.sampler, config.samplerRatio, config.clientSampling, sdk),
    spanLimits: { attributeValueLengthLimit: MAX_ATTRIBUTE_LENGTH },
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter })],
  });
  const exporting: Exporting = { tracer: provider.getTracer('satgate'), propagator: new W3CTraceContextPropagator() };
  let shutdown: Promise<void> | undefined;
  return {
    traceRequest(req, res, stats, requestId) {
      const parent = exporting.propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
      const method = req.method ?? 'GET';
      const span = exporting.tracer.startSpan(
        method,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'satgate.request_id': requestId } },
        parent,
      );
      stats.trace = new TraceSpan(exporting, span, trace.setSpan(parent, span));
      res.once('close', () => {
        const path = (req.url ?? '/').split('?', 1)[0]!;
        const route = stats.route ?? (YOGA_ROUTES.has(path) ? path : undefined);
        if (route !== undefined) span.updateName(`${method} ${route}`).setAttribute('http.route', route);
        // Only an answer that was sent has a status (node holds 200 until one is set).
        if (res.headersSent) span.setAttribute('http.response.status_code', res.statusCode);
        if (stats.operationName !== undefined) span.setAttribute('graphql.operation.name', stats.operationName);
        if (stats.cache !== undefined) span.setAttribute('satgate.cache', stats.cache);
        span.setAttribute('satgate.upstream_calls', stats.upstreamCalls);
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        else if (!res.writableFinished) span.setAttribute('error.type', 'aborted').setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      });
    },
    flush: () => provider.forceFlush(),
    shutdown: () =>
      (shutdown ??= (async () => {
        let timer: NodeJS.Timeout | undefined;
        const cut = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_FLUSH_MS)));
        await Promise.race([provider.shutdown().catch(() => undefined), cut]);
        clearTimeout(timer);
      })()),
  };
}

/**
 * OTEL_TRACES_SAMPLER as the specification defines it (the default: parentbased_always_on), but at
 * the edge: a client's `traceparent` joins its trace without deciding whether it is kept. Otherwise
 * a client sending `-00` would hide its requests, and one sending `-01` would force full tracing
 * past a ratio (about +40% CPU a request). Under a ratio a client's request is kept at random, not
 * by its trace id, which the client chose. TRACE_CLIENT_SAMPLING=follow restores the specification's
 * rule, for a gateway behind a tier that samples. Spans started inside the gateway follow theirs.
 */
function sampler(
  name: SamplerName,
  ratio: number,
  clientSampling: TracingConfig['clientSampling'],
  sdk: typeof import('@opentelemetry/sdk-trace'),
): Sampler {
  const on = name.endsWith('always_on');
  const off = name.endsWith('always_off');
  const root = on ? new sdk.AlwaysOnSampler() : off ? new sdk.AlwaysOffSampler() : new sdk.TraceIdRatioBasedSampler(ratio);
  if (clientSampling === 'follow') return name.startsWith('parentbased_') ? new sdk.ParentBasedSampler({ root }) : root;
  const atEdge = on || off ? root : randomRatio(ratio, sdk.SamplingDecision);
  return new sdk.ParentBasedSampler({ root, remoteParentSampled: atEdge, remoteParentNotSampled: atEdge });
}

/** Keeps a trace with probability `ratio`, whatever its id. */
function randomRatio(ratio: number, decisions: typeof import('@opentelemetry/sdk-trace').SamplingDecision): Sampler {
  return {
    shouldSample: () => ({ decision: Math.random() < ratio ? decisions.RECORD_AND_SAMPLED : decisions.NOT_RECORD }),
    toString: () => `RandomRatio{${ratio}}`,
  };
}

/** Logs when export starts failing (spans are dropped meanwhile) and when it works again: once each. */
function reportingFailures(exporter: SpanExporter, success: number, logger: Logger): SpanExporter {
  let failing = false;
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      exporter.export(spans, (result) => {
        const failed = result.code !== success;
        if (failed && !failing) {
          logger.warn({ error: result.error?.message }, 'trace export failed: spans are dropped until the collector answers');
        } else if (!failed && failing) {
          logger.info('trace export resumed');
        }
        failing = failed;
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
