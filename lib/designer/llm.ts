import "server-only";
import { askJson, nextPath, type StructuredPath } from "@/lib/llm/json-call";
import type { ModelConfig } from "@/lib/llm/models";
import { pathKey, processPathMemory, type PathMemory } from "@/lib/llm/path-memory";
import type { DesignerModel, StructuredRequest, StructuredResult } from "./model";

/**
 * The designer's model over lib/llm: any configured OpenAI-compatible provider (or the scripted
 * server). Each call goes out on the provider's structured-output path — strict json_schema, a forced
 * tool call, JSON mode, or JSON in text (lib/llm/json-call.ts) — starting from the one remembered for
 * this provider and model (`memory`), falling back when the provider refuses one, and remembering
 * what worked. `path` pins one path (no fallback; the evaluation of a single path uses it). A bad
 * answer comes back as data to read or `ok: false` with its raw text, never thrown; transport
 * failures (ProviderError after lib/llm's retries) still throw: the pipeline reports them.
 */
export interface DesignerModelOptions {
  /** Pin one path; default "auto" (remembered, else json_schema, falling back in order). */
  path?: StructuredPath | "auto";
  /** Where the path that works is remembered. Default: in this process. */
  memory?: PathMemory;
}

const shared = processPathMemory();

export function llmDesignerModel(config: ModelConfig, options: DesignerModelOptions = {}): DesignerModel {
  const memory = options.memory ?? shared;
  const pinned = options.path && options.path !== "auto" ? options.path : undefined;
  const key = pathKey(config);
  return {
    async structured(request: StructuredRequest): Promise<StructuredResult> {
      const remembered = pinned ? undefined : await memory.get(key);
      const start = pinned ?? remembered ?? "json_schema";
      const res = await askJson({
        config,
        name: request.schema.name,
        schema: { loose: request.schema.loose, strict: request.schema.strict },
        path: start,
        only: pinned !== undefined,
        signal: request.signal,
        ...(request.onText ? { onDelta: request.onText } : {}),
        messages: [{ role: "system", content: request.system }, ...request.messages],
      });
      if (!pinned && nextPath(res) !== remembered) await memory.set(key, nextPath(res));
      const usage = { promptTokens: res.usage.promptTokens, completionTokens: res.usage.completionTokens };
      if (res.data === undefined) {
        const error = res.text.trim()
          ? "The answer is not valid JSON: no JSON object was found in it."
          : "The answer was empty.";
        return { ok: false, error, raw: res.text, usage, method: res.path };
      }
      return { ok: true, data: res.data, raw: res.text, usage, method: res.path };
    },
  };
}
