import { nodeKindRegistry, type NodeKindSpec } from "@/lib/workflow/registry";
import { nodeKinds, type NodeKind } from "@/lib/workflow/schema";
import type { KindInfo } from "./prompts";

/**
 * The node-kind catalogue the model sees, generated from lib/workflow's registry (description,
 * outcomes, terminal) plus the design-form fields of each kind. Keyed by NodeKind like every other
 * per-kind table, so a kind added to lib/workflow without a designer entry fails to compile.
 */
const DESIGN_FIELDS: { [K in NodeKind]: string | null } = {
  start: "id",
  agent: "id, agent (agent key), task, branches [{id, condition}]",
  router: "id, prompt, branches [{id, condition}] (>= 2)",
  tool: "id, tool (tool name), args",
  orchestrator: "id, agent, task, workers (agent keys)",
  human: "id, prompt (what a person is asked), branches [{id, condition}] (the choices offered, default approve/reject)",
  // not offered to the model: a subflow names one of the user's workflows by id, which a design
  // cannot know; one already in an edited graph round-trips through `args` (compile.ts)
  subflow: null,
  end: "id, outputs {key: template}",
  abort: "id, reason",
};

function outcomes<K extends NodeKind>(spec: NodeKindSpec<K>): string {
  if (spec.terminal) return "none";
  if (spec.kind === "agent") return "its branches (default one branch done)";
  if (spec.kind === "router") return "its branches";
  if (spec.kind === "human") return "its branches (default approve, reject)";
  return spec.outcomes(spec.defaultConfig("x")).join(", ");
}

/** Catalogue entries for every node kind the model may design, in lib/workflow's order. */
export function kindCatalogue(): KindInfo[] {
  return nodeKinds.flatMap((kind) => {
    const spec = nodeKindRegistry[kind] as NodeKindSpec<NodeKind>;
    const fields = DESIGN_FIELDS[kind];
    if (fields === null) return [];
    const once = spec.singleton ? " Exactly one per workflow." : "";
    return [{ kind, does: `${spec.description}${once}`, fields, outcomes: outcomes(spec) }];
  });
}

/** The real kind names (a design may hold any of them; the catalogue offers those a design can fill in). */
export const KIND_NAMES: readonly string[] = nodeKinds;
