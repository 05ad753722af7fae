import "server-only";
import { structured, StructuredOutputError, type StructuredMethod } from "@/lib/llm/structured";
import type { ModelConfig } from "@/lib/llm/models";
import type { DesignerModel, StructuredRequest, StructuredResult } from "./model";

/**
 * The designer's model over lib/llm: any configured OpenAI-compatible model (or the scripted
 * server). lib/llm's own format repairs are turned off (maxRepairs 0) so the designer's single
 * repair budget decides; a failed answer comes back as `ok: false` with its raw text, never thrown.
 * Transport failures (ProviderError after lib/llm's retries) still throw: the pipeline reports them.
 */
export function llmDesignerModel(config: ModelConfig, method: StructuredMethod = "tool"): DesignerModel {
  return {
    async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
      try {
        const result = await structured({
          config,
          method,
          maxRepairs: 0,
          name: request.name,
          schema: request.schema,
          signal: request.signal,
          messages: [{ role: "system", content: request.system }, ...request.messages],
        });
        const { promptTokens, completionTokens } = result.usage;
        return { ok: true, value: result.value, raw: JSON.stringify(result.value), usage: { promptTokens, completionTokens } };
      } catch (e) {
        if (!(e instanceof StructuredOutputError) || e.reason === "refusal") throw e;
        const { promptTokens, completionTokens } = e.usage;
        return { ok: false, error: e.message, raw: e.lastOutput, usage: { promptTokens, completionTokens } };
      }
    },
  };
}
