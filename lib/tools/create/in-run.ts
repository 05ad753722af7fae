import "server-only";
import { approveToolVersion } from "@/lib/db/tools";
import type { MemoPort, PendingTool, ToolCreation, ToolCreationPort } from "@/lib/engine/ports";
import type { ModelConfig } from "@/lib/llm/models";
import type { ModelRef } from "@/lib/workflow/schema";
import { createTool, toolDraftSchema, type CreateToolProgress } from "./create";

/**
 * The tool creation loop inside a run (the engine's ToolCreationPort) for one owner: the model of
 * the agent that asked writes the tool, each finished round's draft is kept in the step memo under
 * the call's key (a crash resumes at the next round without asking the model again), a passing tool
 * is saved unapproved, and under `auto` one that asks for no network is approved at once.
 */
export function runToolCreator(
  workspaceId: string,
  memo: MemoPort,
  modelConfig: (ref: ModelRef | null) => Promise<ModelConfig>,
): ToolCreationPort {
  return {
    async create(r): Promise<ToolCreation> {
      const config = await modelConfig(r.model);
      const outcome = await createTool({
        workspaceId,
        request: r.request,
        config,
        signal: r.signal,
        onProgress: (e) => r.onProgress?.(progressLine(e)),
        onUsage: (model, usage, latencyMs) =>
          r.onUsage?.(model, { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens }, latencyMs),
        rounds: {
          load: async (round) => {
            const parsed = toolDraftSchema.safeParse(await memo.get(`${r.key}:round${round}`));
            return parsed.success ? parsed.data : undefined;
          },
          save: (round, draft) => memo.put(`${r.key}:round${round}`, r.runId, draft),
        },
      });
      if (outcome.status === "reused")
        return { status: "reused", ref: { name: outcome.name }, similarity: outcome.score, rounds: 0 };
      if (outcome.status === "failed") return { status: "failed", error: outcome.error, rounds: outcome.rounds };
      const v = outcome.version;
      const tool: PendingTool = {
        name: outcome.draft.name,
        description: outcome.draft.description,
        toolId: v.toolId,
        versionId: v.id,
        version: v.version,
        codeHash: v.codeHash ?? "",
        code: v.code ?? "",
        argsSchema: outcome.draft.argsSchema,
        tests: outcome.results,
        allowedDomains: outcome.draft.allowedDomains ?? [],
        nearDuplicates: outcome.nearDuplicates,
      };
      if (r.policy === "auto" && tool.allowedDomains.length === 0) {
        await approveToolVersion(workspaceId, v.id, tool.codeHash);
        return { status: "approved", ref: { name: tool.name, version: v.version }, tool, rounds: outcome.rounds };
      }
      return { status: "pending", tool, rounds: outcome.rounds };
    },
  };
}

function progressLine(e: CreateToolProgress): string {
  if (e.type === "round") return `create_tool: round ${e.round} of ${e.maxRounds}`;
  if (e.type === "draft") return `create_tool: drafted "${e.draft.name}"`;
  const passed = e.results.filter((t) => t.passed).length;
  return `create_tool: ${passed} of ${e.results.length} test(s) passed`;
}
