import { validate, type ValidationContext } from "@/lib/workflow/validate";
import type { ToolRef, Workflow } from "@/lib/workflow/schema";
import { compileDesign, type DesignIssue, type ModelClassMap } from "./compile";
import { applyEdits } from "./edit";
import type { DesignerIssue, ToolToCreate } from "./events";
import type { LocalFix } from "./fixes";
import type { DesignContext } from "./prompts";
import { defaultCapOf, repairAnswer, repairDocument, type RepairContext } from "./repair";
import type { DesignAnswer, EditAnswer, ToolNeeded } from "./schemas";

/**
 * One read answer → a checked document: answer-level repairs, compile (or apply the edit
 * operations), document-level repairs, "to create" placeholders for unregistered tools, then
 * lib/workflow's validate(). Blocking issues go back to the model; placeholder issues only say which
 * tools still have to be created.
 */

export interface BuildEnv {
  kinds: readonly string[];
  models?: ModelClassMap;
  context: DesignContext;
  /** Extra validation context (configured models, saved agent ids, workflows); tools come from `context`. */
  validation?: Omit<ValidationContext, "tools">;
}

export type Built = {
  workflow?: Workflow;
  blocking: DesignerIssue[];
  pending: DesignerIssue[];
  fixes: LocalFix[];
  toCreate: ToolToCreate[];
};

type Needed = ToolNeeded[] | undefined;

/** Marks every tool the registry lacks as a placeholder and lists it as "to create". */
export function markPlaceholders(
  wf: Workflow,
  registered: readonly string[],
  needed: Needed,
): { workflow: Workflow; toCreate: ToolToCreate[] } {
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

/** What document repairs resolve against, from the build environment. */
export function repairContextOf(env: BuildEnv): RepairContext {
  return {
    savedAgents: env.context.savedAgents,
    ...(env.validation?.savedAgentIds ? { savedAgentIds: env.validation.savedAgentIds } : {}),
    tools: env.context.tools.map((t) => t.name),
    ...(env.validation?.workflows ? { workflows: env.validation.workflows } : {}),
  };
}

/** A proposal that does no work is not a design (the model is asked again). */
function emptyDesign(wf: Workflow): DesignIssue[] {
  if (wf.nodes.some((n) => n.type !== "start" && n.type !== "end" && n.type !== "abort")) return [];
  return [
    {
      code: "empty_design",
      message:
        "The design has no node that does any work (only start and end): add the agents and steps the request needs.",
    },
  ];
}

function check(
  doc: Workflow,
  designIssues: DesignIssue[],
  fixes: LocalFix[],
  needed: Needed,
  env: BuildEnv,
  mode: "design" | "edit",
): Built {
  const registered = env.context.tools.map((t) => t.name);
  const repaired = repairDocument(doc, repairContextOf(env), fixes);
  const { workflow, toCreate } = markPlaceholders(repaired, registered, needed);
  const errors = validate(workflow, { ...env.validation, tools: registered }).filter((i) => i.severity === "error");
  return {
    workflow,
    blocking: [
      ...designIssues,
      ...(mode === "design" ? emptyDesign(workflow) : []),
      ...errors.filter((i) => i.code !== "tool_placeholder"),
    ],
    pending: errors.filter((i) => i.code === "tool_placeholder"),
    fixes,
    toCreate,
  };
}

const savedSpecs = (env: BuildEnv) => env.context.savedAgents;

/** Builds a new workflow from a {profile, design} answer. */
export function buildFromDesign(answer: DesignAnswer, env: BuildEnv, readFixes: LocalFix[] = []): Built {
  const { answer: fixed, fixes } = repairAnswer(answer, env.kinds, defaultCapOf(answer.design));
  const all = [...readFixes, ...fixes];
  const { workflow, issues } = compileDesign(fixed.design, fixed.profile, {
    kinds: env.kinds,
    models: env.models,
    savedAgents: savedSpecs(env),
  });
  if (!workflow) return { blocking: issues, pending: [], fixes: all, toCreate: [] };
  return check(workflow, issues, all, fixed.profile.toolsNeeded, env, "design");
}

/** Builds the edited workflow from an {operations} answer on `base`. */
export function buildFromEdits(base: Workflow, answer: EditAnswer, env: BuildEnv, readFixes: LocalFix[] = []): Built {
  const { workflow, issues, fixes } = applyEdits(base, answer.operations, {
    kinds: env.kinds,
    models: env.models,
    savedAgents: savedSpecs(env),
  });
  return check(workflow, issues, [...readFixes, ...fixes], answer.toolsNeeded, env, "edit");
}
