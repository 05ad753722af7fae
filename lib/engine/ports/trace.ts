/**
 * Tracing port: where a run job reports its spans (OpenTelemetry in the worker, lib/telemetry).
 * Optional: without it nothing is traced and nothing costs anything. A job's span nests under the
 * run's trace parent (the W3C traceparent the run was started with), steps under the job, and every
 * model and tool call of a step under the step.
 */
export interface TracePort {
  /** A run job begins (after its claim). */
  job(runId: string, traceParent: string | null, attributes: Record<string, string | number>): JobTrace;
}

export interface JobTrace {
  step(step: { nodeId: string; iteration: number; attempt: number; kind: string }): StepTrace;
  /** The job ended (terminal, waiting, handed back…). */
  end(outcome: string): void;
}

/** How a model call ended, in OpenTelemetry GenAI terms. */
export interface ModelCallEnd {
  model?: string;
  promptTokens?: number;
  completionTokens?: number;
  finishReason?: string;
  error?: string;
  /** The answer's text (recorded only when the operator enables content capture). */
  output?: string;
}

export interface StepTrace {
  /** A model call of the step (`chat` or a structured output named `name`). */
  modelCall(call: { operation: "chat"; model: string | null; name?: string; input?: unknown }): {
    end(result: ModelCallEnd): void;
  };
  toolCall(call: { name: string }): { end(result: { error?: string }): void };
  /** The step's result: succeeded, failed (with its error), waiting, timed_out, or cancelled. */
  end(status: string, error?: string): void;
}
