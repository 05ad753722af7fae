import type { ModelPort, StepTrace, ToolsPort } from "../ports";

/**
 * A step's model port whose every call is a span of the step (model, tokens, finish reason; the
 * answer's text only if the trace port records content).
 */
export function tracedModel(model: ModelPort, step: StepTrace): ModelPort {
  return {
    async chat(request) {
      const span = step.modelCall({ operation: "chat", model: request.model?.model ?? null, input: request.messages });
      try {
        const res = await model.chat(request);
        span.end({
          model: res.model,
          promptTokens: res.usage.promptTokens,
          completionTokens: res.usage.completionTokens,
          finishReason: res.finishReason,
          output: res.content,
        });
        return res;
      } catch (err) {
        span.end({ error: err instanceof Error ? err.message : String(err) });
        throw err;
      }
    },
    async structured(request) {
      const span = step.modelCall({
        operation: "chat",
        model: request.model?.model ?? null,
        name: request.name,
        input: request.messages,
      });
      try {
        const res = await model.structured(request);
        span.end({
          model: res.model,
          promptTokens: res.usage.promptTokens,
          completionTokens: res.usage.completionTokens,
          ...(res.ok ? { finishReason: "stop", output: JSON.stringify(res.value) } : { error: res.error }),
        });
        return res;
      } catch (err) {
        span.end({ error: err instanceof Error ? err.message : String(err) });
        throw err;
      }
    },
  };
}

/** A step's tools port whose every call is a span of the step. */
export function tracedTools(tools: ToolsPort, step: StepTrace): ToolsPort {
  return {
    ...tools,
    resolve: (ref) => tools.resolve(ref),
    async call(request) {
      const span = step.toolCall({ name: request.ref.name });
      try {
        const res = await tools.call(request);
        span.end(res.ok ? {} : { error: res.error });
        return res;
      } catch (err) {
        span.end({ error: err instanceof Error ? err.message : String(err) });
        throw err;
      }
    },
  };
}
