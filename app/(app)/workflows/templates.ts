import "server-only";
import { type TemplateOption } from "@/components/workflows/template-picker";
import { listProviders } from "@/lib/db/providers";
import { blankWorkflowDocument } from "@/lib/db/workflows";
import { type ModelRef, type WorkflowInput } from "@/lib/workflow/schema";
import { instantiateTemplate, workflowTemplates } from "@/lib/workflow/templates";

const PATTERN_LABEL: Record<(typeof workflowTemplates)[number]["pattern"], string> = {
  routing: "Routing",
  parallel: "Parallel",
  "evaluator-optimizer": "Evaluator–optimizer",
  fsm: "State machine",
  "orchestrator-workers": "Orchestrator–workers",
  "human-review": "Human review",
  map: "Map",
};

/** The choices of "New workflow": blank first, then lib/workflow's pattern templates. */
export function templateOptions(): TemplateOption[] {
  return [
    { id: "blank", name: "Blank workflow", description: "A start node wired to an end node." },
    ...workflowTemplates.map((t) => ({
      id: t.id,
      name: t.title,
      description: t.description,
      tag: PATTERN_LABEL[t.pattern],
    })),
  ];
}

/**
 * The document of a template by id, or null for an unknown id (callers fall back to blank). `models`
 * are the workspace's configured models (workspaceModels): a template's agents meant for different models take
 * them; no template names a model the user has not configured.
 */
export function templateDocument(id: string, models: readonly ModelRef[] = []): WorkflowInput | null {
  if (id === "blank") return blankWorkflowDocument();
  return instantiateTemplate(id, models) ?? null;
}

/** The workspace's configured models: each provider's default model, by provider name. */
export async function workspaceModels(workspaceId: string): Promise<ModelRef[]> {
  return (await listProviders(workspaceId)).map((p) => ({ provider: p.name, model: p.defaultModel }));
}
