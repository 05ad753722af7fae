import "server-only";
import { layoutDocument } from "@/components/editor/layout";
import { listAgents } from "@/lib/db/agents";
import { dbPathMemory } from "@/lib/providers/path-memory";
import { listSubflowTargets, type SubflowTarget } from "@/lib/db/subflow-targets";
import { llmDesignerModel } from "@/lib/designer/llm";
import type { DesignerOptions } from "@/lib/designer/pipeline";
import { offeredWorkflows, type ContextWorkflow } from "@/lib/designer/workflows";
import { modelLabel, type ModelConfig } from "@/lib/llm/models";
import { ownerModelResolver } from "@/lib/providers/resolver";
import { listRunnableTools } from "@/lib/tools/catalog";
import type { Workflow } from "@/lib/workflow/schema";
import { subflowWorkflowIds } from "@/lib/workflow/validate-subflows";

/**
 * Which model designs, for one user: the designer provider/model from Settings; without one, the
 * user's default (OPENAI_* from the environment, else their most recently updated provider, else
 * the scripted demo model) — the same chain a run uses for an agent without a model.
 */
export async function designerModelConfig(workspaceId: string): Promise<ModelConfig> {
  return ownerModelResolver(workspaceId)(null);
}

/** A short description of the designer model for logs and the chat ("Scripted demo model" for scripted ones). */
export const designerModelName = (config: ModelConfig): string => modelLabel(config);

/** How the designer lists MCP servers' tools: it waits at most 3 s (a slower server's listing goes on for the next request); kept 5 min, failures 30 s. */
const DESIGNER_MCP_LISTING = { waitMs: 3_000 } as const;

/** What the designer's context depends on in one request. Default: a new design with no request words. */
export interface DesignerRequestInfo {
  /** What the user typed: the saved workflows it names are offered first. */
  message?: string;
  /** The workflow being edited: not offered to itself. */
  workflowId?: string;
  /** The current graph of an edit: the workflows its subflows run are offered first. */
  workflow?: Workflow;
}

/**
 * The saved workflows offered to the model (lib/designer/workflows.ts: only those with a saved
 * version, not the one being edited, at most 30, those the edited graph runs or the request names
 * first, then the most recently updated).
 */
function contextWorkflows(targets: SubflowTarget[], request: DesignerRequestInfo): ContextWorkflow[] {
  const prefer = request.workflow ? subflowWorkflowIds(request.workflow) : [];
  const candidates = targets.map((t) => ({ ...t, updatedAt: new Date(t.updatedAt) }));
  return offeredWorkflows(candidates, { message: request.message, exclude: request.workflowId, prefer });
}

/**
 * Everything design() needs besides the request: the user's designer model (on the structured-output
 * path remembered for it, lib/db/model-capabilities.ts), the registry context (built-in and approved
 * code tools and the tools of approved MCP servers, with whether they have side effects; saved agents
 * to reuse, with what they are saved with, so a design reusing one runs it as saved; saved
 * workflows a subflow may run) and the validation context (saved agent ids; every one of the user's
 * workflows with its input fields, as the editor validates subflows, so a subflow of the edited graph
 * running a workflow not offered is not reported as unknown). MCP servers come from the per-process
 * listing cache (lib/mcp/client/listing.ts), with a short wait: a server that has not answered within
 * it is left out of this design (logged) rather than holding up the request, and its listing goes on
 * for the next.
 */
export async function designerOptions(
  workspaceId: string,
  request: DesignerRequestInfo = {},
): Promise<{ options: Omit<DesignerOptions, "signal" | "dryRun">; config: ModelConfig }> {
  const [config, agents, tools, targets] = await Promise.all([
    designerModelConfig(workspaceId),
    listAgents(workspaceId),
    listRunnableTools(workspaceId, { mcp: DESIGNER_MCP_LISTING }),
    listSubflowTargets(workspaceId),
  ]);
  const workflows = contextWorkflows(targets, request);
  return {
    config,
    options: {
      model: llmDesignerModel(config, { memory: dbPathMemory(workspaceId) }),
      context: {
        tools: tools.map((t) => ({
          name: t.descriptor.name,
          description: t.descriptor.description,
          sideEffect: t.descriptor.sideEffect,
        })),
        savedAgents: agents.map((a) => ({
          id: a.id,
          name: a.name,
          description: a.description,
          instructions: a.instructions,
          tools: a.tools,
          model: a.model,
        })),
        ...(workflows.length ? { workflows } : {}),
      },
      validation: {
        savedAgentIds: agents.map((a) => a.id),
        workflows: targets.map(({ id, name, inputs }) => ({
          id,
          name,
          inputs: inputs.map(({ key, required }) => ({ key, required })),
        })),
      },
      layout: (doc) => layoutDocument(doc),
    },
  };
}
