import "server-only";
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import type { JobTrace, StepTrace, TracePort } from "@/lib/engine/ports";
import { capturesContent, contextOf, tracer } from "./tracing";

const fail = (span: Span, error: string) =>
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.slice(0, 500) });

/**
 * The engine's trace port over OpenTelemetry. Span tree of one run job:
 * `weft.run` (kind consumer, child of the run's traceparent) → `weft.step <node>` per step →
 * `chat <model>` per model call (GenAI semantic conventions: gen_ai.operation.name,
 * gen_ai.request.model, gen_ai.response.model, gen_ai.usage.input_tokens / output_tokens,
 * gen_ai.response.finish_reasons; gen_ai.input.messages / gen_ai.output.messages only with
 * WEFT_OTEL_CAPTURE_CONTENT) and `execute_tool <name>` per tool call (gen_ai.tool.name).
 */
export const otelTracePort: TracePort = {
  job(runId, traceParent, attributes): JobTrace {
    const job = tracer().startSpan(
      "weft.run",
      { kind: SpanKind.CONSUMER, attributes: { "weft.run.id": runId, ...attributes } },
      contextOf(traceParent),
    );
    const jobContext = trace.setSpan(ROOT_CONTEXT, job);
    return {
      step(s): StepTrace {
        const step = tracer().startSpan(
          `weft.step ${s.nodeId}`,
          {
            attributes: {
              "weft.run.id": runId,
              "weft.node.id": s.nodeId,
              "weft.node.kind": s.kind,
              "weft.step.iteration": s.iteration,
              "weft.step.attempt": s.attempt,
            },
          },
          jobContext,
        );
        const stepContext = trace.setSpan(ROOT_CONTEXT, step);
        const content = capturesContent();
        return {
          modelCall(c) {
            const span = tracer().startSpan(
              `chat ${c.model ?? "default"}`,
              {
                kind: SpanKind.CLIENT,
                attributes: {
                  "gen_ai.operation.name": c.operation,
                  ...(c.model ? { "gen_ai.request.model": c.model } : {}),
                  ...(c.name ? { "weft.structured.name": c.name } : {}),
                  ...(content && c.input !== undefined ? { "gen_ai.input.messages": JSON.stringify(c.input) } : {}),
                },
              },
              stepContext,
            );
            return {
              end(r) {
                if (r.model) span.setAttribute("gen_ai.response.model", r.model);
                if (r.promptTokens !== undefined) span.setAttribute("gen_ai.usage.input_tokens", r.promptTokens);
                if (r.completionTokens !== undefined)
                  span.setAttribute("gen_ai.usage.output_tokens", r.completionTokens);
                if (r.finishReason) span.setAttribute("gen_ai.response.finish_reasons", [r.finishReason]);
                if (content && r.output !== undefined) span.setAttribute("gen_ai.output.messages", r.output);
                if (r.error) fail(span, r.error);
                span.end();
              },
            };
          },
          toolCall(c) {
            const span = tracer().startSpan(
              `execute_tool ${c.name}`,
              { attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": c.name } },
              stepContext,
            );
            return {
              end(r) {
                if (r.error) fail(span, r.error);
                span.end();
              },
            };
          },
          end(status, error) {
            step.setAttribute("weft.step.status", status);
            if (error) fail(step, error);
            step.end();
          },
        };
      },
      end(outcome) {
        job.setAttribute("weft.run.outcome", outcome);
        job.end();
      },
    };
  },
};
