import type { ChatResult, ModelPort, StructuredRequest, StructuredResult } from "@/lib/engine/ports";
import { branchChoiceSchema } from "@/lib/engine/executors/branch";
import type { ModelCalls } from "./langgraph-arm";
import { LOOP_ITERATIONS } from "./shapes";

/**
 * B1's "same trivial node functions in both arms" (docs/benchmarks.md): every node answers at once, in
 * process. A step says "ok"; the loop's evaluator makes the branch choice our LLM-judged router
 * makes (validated by the router's own zod schema), "revise" LOOP_ITERATIONS − 1 times, then
 * "approved". The LangGraph arm's nodes call these functions directly; our worker reaches them
 * through its model port (bench/engine/worker.ts), so each of our steps still goes through the
 * agent or router executor, the planner, the durable commits, BullMQ and the wake-ups, and only
 * the model's transport is left out — in both arms alike.
 */
export function trivialCalls(): ModelCalls {
  let verdicts = 0;
  return {
    call: async () => "ok",
    choose: async (_prompt, branches) => {
      const answer = ++verdicts % LOOP_ITERATIONS === 0 ? "approved" : "revise";
      return branchChoiceSchema(branches as [string, ...string[]]).parse({ branch: answer }).branch;
    },
  };
}

/** The engine's model port over the trivial node functions (chat = a step, structured = the evaluator's choice). */
export function trivialModelPort(calls: ModelCalls = trivialCalls()): ModelPort {
  const usage = { promptTokens: 0, completionTokens: 0 };
  return {
    async chat(request): Promise<ChatResult> {
      const last = request.messages.at(-1);
      const content = await calls.call(last && "content" in last ? last.content : "", request.signal);
      return { content, toolCalls: [], usage, latencyMs: 0, finishReason: "stop", model: "trivial" };
    },
    async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
      if (request.name !== "choose_branch")
        throw new Error(`B1's trivial model answers branch choices only, not ${request.name}`);
      const branches = branchIdsOf(request.schema);
      const value = request.schema.parse({ branch: await calls.choose("", branches, request.signal) });
      return { ok: true, value, usage, latencyMs: 0, model: "trivial" };
    },
  };
}

/** The branch ids a branch-choice schema accepts (its `branch` enum). */
function branchIdsOf(schema: unknown): string[] {
  const shape = (schema as { shape?: { branch?: { options?: string[] } } }).shape;
  const ids = shape?.branch?.options;
  if (!ids?.length) throw new Error("B1's trivial model: not a branch-choice schema");
  return ids;
}
