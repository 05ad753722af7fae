import "server-only";
import { layoutDocument } from "@/components/editor/layout";
import { listAgents } from "@/lib/db/agents";
import { llmDesignerModel } from "@/lib/designer/llm";
import type { DesignerOptions } from "@/lib/designer/pipeline";
import { modelLabel, type ModelConfig } from "@/lib/llm/models";
import { ownerModelResolver } from "@/lib/runs/model-resolver";
import { listRunnableTools } from "@/lib/tools/catalog";

/**
 * Which model designs, for one user: the designer provider/model from Settings; without one, the
 * user's default (OPENAI_* from the environment, else their most recently updated provider, else
 * the scripted demo model) — the same chain a run uses for an agent without a model.
 */
export async function designerModelConfig(userId: string): Promise<ModelConfig> {
  return ownerModelResolver(userId)(null);
}

/** A short description of the designer model for logs and the chat ("Scripted demo model" for scripted ones). */
export const designerModelName = (config: ModelConfig): string => modelLabel(config);

/** How the designer lists MCP servers' tools: it waits at most 3 s (a slower server's listing goes on for the next request); kept 5 min, failures 30 s. */
const DESIGNER_MCP_LISTING = { waitMs: 3_000 } as const;

/**
 * Everything design() needs besides the request: the user's designer model, the registry context
 * (built-in and approved code tools, the tools of approved MCP servers; saved agents to reuse) and
 * the validation context (saved agent ids). MCP servers come from the per-process listing cache
 * (lib/tools/mcp/listing.ts), with a short wait: a server that has not answered within it is left
 * out of this design (logged) rather than holding up the request, and its listing goes on for the next.
 */
export async function designerOptions(userId: string): Promise<{ options: Omit<DesignerOptions, "signal" | "dryRun">; config: ModelConfig }> {
  const [config, agents, tools] = await Promise.all([
    designerModelConfig(userId),
    listAgents(userId),
    listRunnableTools(userId, { mcp: DESIGNER_MCP_LISTING }),
  ]);
  return {
    config,
    options: {
      model: llmDesignerModel(config),
      context: {
        tools: tools.map((t) => ({ name: t.descriptor.name, description: t.descriptor.description })),
        savedAgents: agents.map((a) => ({ id: a.id, name: a.name, description: a.description })),
      },
      validation: { savedAgentIds: agents.map((a) => a.id) },
      layout: (doc) => layoutDocument(doc),
    },
  };
}
