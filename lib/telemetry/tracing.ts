import "server-only";
import {
  context,
  propagation,
  ROOT_CONTEXT,
  trace,
  TraceFlags,
  SpanKind,
  SpanStatusCode,
  type Context,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import type { TracerProvider } from "@opentelemetry/sdk-trace";

/**
 * OpenTelemetry traces, exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set. Unset: nothing is installed, the API's tracer is a
 * no-op and nothing is sent (the engine gets no trace port at all). The exporter reads the standard
 * OTEL_* variables itself (headers, timeout, protocol http/json); OTEL_SERVICE_NAME names the process.
 */
export function tracingConfigured(source: Record<string, string | undefined> = process.env): boolean {
  return Boolean(source.OTEL_EXPORTER_OTLP_ENDPOINT || source.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** Whether prompts and answers are recorded on model spans (WEFT_OTEL_CAPTURE_CONTENT=1): off by default. */
export const capturesContent = (): boolean => /^(1|true|yes)$/i.test(process.env.WEFT_OTEL_CAPTURE_CONTENT ?? "");

let provider: TracerProvider | null = null;

/**
 * Installs the tracer provider for this process (once) when an endpoint is configured, with W3C
 * trace context propagation and an async-local context (so a span started inside a request handler
 * has the request's span as parent). Answers whether tracing is on.
 */
export async function startTracing(serviceName: string): Promise<boolean> {
  if (provider) return true;
  if (!tracingConfigured()) return false;
  // the SDK is loaded only when traces are on: a process without an endpoint never pays for it
  const [
    { AsyncLocalStorageContextManager },
    { W3CTraceContextPropagator },
    { OTLPTraceExporter },
    { resourceFromAttributes },
    { BatchSpanProcessor, TracerProvider },
  ] = await Promise.all([
    import("@opentelemetry/context-async-hooks"),
    import("@opentelemetry/core"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/sdk-trace"),
  ]);
  if (provider) return true;
  provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": process.env.OTEL_SERVICE_NAME || serviceName }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter(),
        ...(Number(process.env.OTEL_BSP_SCHEDULE_DELAY) > 0
          ? { scheduledDelayMillis: Number(process.env.OTEL_BSP_SCHEDULE_DELAY) }
          : {}),
      }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return true;
}

/** Sends what is buffered and stops (process shutdown). */
export async function stopTracing(): Promise<void> {
  const p = provider;
  provider = null;
  await p?.shutdown().catch(() => undefined);
}

/** Exports buffered spans now (tests, before reading the receiver). */
export async function flushTracing(): Promise<void> {
  await provider?.forceFlush();
}

export const tracingOn = (): boolean => provider !== null;

export const tracer = (): Tracer => trace.getTracer("weft");

/** A span's context as a W3C traceparent header value. */
export function traceParentOf(span: Span): string {
  const c = span.spanContext();
  return `00-${c.traceId}-${c.spanId}-0${(c.traceFlags & TraceFlags.SAMPLED).toString(16)}`;
}

/** The context a traceparent names (a remote parent), or the root context when it does not parse. */
export function contextOf(traceParent: string | null): Context {
  const m = traceParent ? /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(traceParent) : null;
  if (!m) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: m[1]!,
    spanId: m[2]!,
    traceFlags: parseInt(m[3]!, 16),
    isRemote: true,
  });
}

/**
 * A span of this process under the active context (e.g. the API request's span), or null when
 * tracing is off: its traceparent is what a run started inside it carries to the worker.
 */
export function startSpan(
  name: string,
  attributes: Record<string, string | number>,
): { traceParent: string; end(error?: string): void } | null {
  if (!provider) return null;
  const span = tracer().startSpan(name, { kind: SpanKind.PRODUCER, attributes }, context.active());
  return {
    traceParent: traceParentOf(span),
    end(error) {
      if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error.slice(0, 500) });
      span.end();
    },
  };
}
