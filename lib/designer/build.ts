import { validate, type ValidationContext } from "@/lib/workflow/validate";
import type { ToolRef, Workflow } from "@/lib/workflow/schema";
import { compileDesign, type DesignIssue, type ModelClassMap } from "./compile";
import { applyEdits } from "./edit";
import type { DesignerIssue, ToolToCreate } from "./events";
import type { DesignContext } from "./prompts";
import { repairAnswer, repairDocument, type LocalFix } from "./repair";
import type { DesignAnswer, EditAnswer } from "./schemas";

/**
 * One model answer → a checked document: local repairs, compile (or apply the edit operations),
 * "to create" placeholders for unregistered tools, then lib/workflow's validate(). Blocking issues go
 * back to the model; placeholder issues only say which tools still have to be created.
 */

export interface BuildEnv {
  kinds: readonly string[];
  models?: ModelClassMap;
  context: DesignContext;
  /** Extra validation context (configured models, saved agent ids); tools come from `context`. */
  validation?: Omit<ValidationContext, "tools">;
}

export type Built = {
  workflow?: Workflow;
  blocking: DesignerIssue[];
  pending: DesignerIssue[];
  fixes: LocalFix[];
  toCreate: ToolToCreate[];
};

type Needed = { name: string; purpose?: string }[] | undefined;

/** Marks every tool the registry lacks as a placeholder and lists it as "to create". */
export function markPlaceholders(wf: Workflow, registered: readonly string[], needed: Needed): { workflow: Workflow; toCreate: ToolToCreate[] } {
  const toCreate = new Map<string, ToolToCreate>();
  const mark = (ref: ToolRef, user: string): ToolRef => {
    if (registered.includes(ref.name)) return ref;
    const purpose = ref.description ?? needed?.find((t) => t.name === ref.name)?.purpose ?? "";
    const entry = toCreate.get(ref.name) ?? { name: ref.name, purpose, usedBy: [] };
    entry.usedBy.push(user);
    toCreate.set(ref.name, entry);
    return { ...ref, placeholder: true, ...(purpose ? { description: purpose } : {}) };
  };
  const agents = wf.agents.map((a) => ({ ...a, tools: a.tools.map((t) => mark(t, a.key)) }));
  const nodes = wf.nodes.map((n) => (n.type === "tool" && n.tool.name ? { ...n, tool: mark(n.tool, n.id) } : n));
  return { workflow: { ...wf, agents, nodes }, toCreate: [...toCreate.values()] };
}

function check(doc: Workflow, designIssues: DesignIssue[], fixes: LocalFix[], needed: Needed, env: BuildEnv): Built {
  const registered = env.context.tools.map((t) => t.name);
  const { workflow, toCreate } = markPlaceholders(repairDocument(doc, fixes), registered, needed);
  const errors = validate(workflow, { ...env.validation, tools: registered }).filter((i) => i.severity === "error");
  return {
    workflow,
    blocking: [...designIssues, ...errors.filter((i) => i.code !== "tool_placeholder")],
    pending: errors.filter((i) => i.code === "tool_placeholder"),
    fixes,
    toCreate,
  };
}

/** Builds a new workflow from a {profile, design} answer. */
export function buildFromDesign(answer: DesignAnswer, env: BuildEnv): Built {
  const { answer: fixed, fixes } = repairAnswer(answer, env.kinds);
  const { workflow, issues } = compileDesign(fixed.design, fixed.profile, { kinds: env.kinds, models: env.models });
  if (!workflow) return { blocking: issues, pending: [], fixes, toCreate: [] };
  return check(workflow, issues, fixes, fixed.profile.toolsNeeded, env);
}

/** Builds the edited workflow from an {operations} answer on `base`. */
export function buildFromEdits(base: Workflow, answer: EditAnswer, env: BuildEnv): Built {
  const { workflow, issues, fixes } = applyEdits(base, answer.operations, { kinds: env.kinds, models: env.models });
  return check(workflow, issues, fixes, answer.toolsNeeded, env);
}
