import type { Field, Workflow } from "@/lib/workflow/schema";
import type { ValidationContext } from "@/lib/workflow/validate";

/**
 * The user's saved workflows as the designer sees them: a subflow node runs one of them by id, so
 * the model is offered a short list (which ones: `offeredWorkflows`), each as one prompt line, and a
 * repair of a subflow issue is told that workflow's inputs. Pure; app/api/designer/setup.ts loads them.
 */

/** One saved workflow a design may run as a subflow: what a run of it takes and gives back. */
export interface ContextWorkflow {
  id: string;
  name: string;
  /** One line about what it does (the workflow's description). Default: none. */
  description?: string;
  /** The input fields of its newest saved version (what a subflow without a pinned version runs). */
  inputs: Pick<Field, "key" | "type" | "required" | "description">[];
  outputs: { key: string }[];
}

/** One of the owner's workflows as lib/db lists it; `version` null = nothing saved (a subflow cannot run it). */
export type WorkflowCandidate = Omit<ContextWorkflow, "description"> & {
  version: number | null;
  description?: string;
  updatedAt?: Date;
};

/** How many workflows a prompt lists at most (each is one line, ~30–60 tokens). */
export const MAX_OFFERED_WORKFLOWS = 30;

export interface OfferOptions {
  /** The user's request: workflows whose name (or description) it mentions come first. Default "". */
  message?: string;
  /** Ids listed first whatever the request says (those the edited graph's subflows already run). Default none. */
  prefer?: readonly string[];
  /** The workflow being edited: never offered (a workflow running itself only stops at the depth limit). */
  exclude?: string;
  /** Default MAX_OFFERED_WORKFLOWS. */
  limit?: number;
}

const STOP = new Set([
  "the",
  "and",
  "for",
  "with",
  "from",
  "into",
  "that",
  "this",
  "your",
  "then",
  "run",
  "runs",
  "workflow",
]);
const words = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => (w.length > 2 || /\d/.test(w)) && !STOP.has(w)),
  );
const shared = (text: string, request: Set<string>) => [...words(text)].filter((w) => request.has(w)).length;

/**
 * The workflows the model is offered: only those with a saved version, not the one being edited,
 * at most `limit`. Ranked: `prefer` first, then by how many words of the name (x3) and description
 * the request shares, then most recently updated, then the order given.
 */
export function offeredWorkflows(
  candidates: readonly WorkflowCandidate[],
  options: OfferOptions = {},
): ContextWorkflow[] {
  const request = words(options.message ?? "");
  const prefer = new Set(options.prefer ?? []);
  const ranked = candidates
    .filter((w) => w.version !== null && w.id !== options.exclude)
    .map((w, order) => ({
      w,
      order,
      score: (prefer.has(w.id) ? 1000 : 0) + 3 * shared(w.name, request) + shared(w.description ?? "", request),
    }))
    .sort(
      (a, b) =>
        b.score - a.score || (b.w.updatedAt?.getTime() ?? 0) - (a.w.updatedAt?.getTime() ?? 0) || a.order - b.order,
    );
  return ranked.slice(0, options.limit ?? MAX_OFFERED_WORKFLOWS).map(({ w }) => ({
    id: w.id,
    name: w.name,
    ...(w.description?.trim() ? { description: w.description } : {}),
    inputs: w.inputs,
    outputs: w.outputs,
  }));
}

/** `text` on one line, at most `max` characters. */
function oneLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

const inputList = (inputs: readonly { key: string; required: boolean; type?: string }[]) =>
  inputs.map((f) => `${f.key}${f.type ? `:${f.type}` : ""}${f.required ? "*" : ""}`).join(", ") || "none";

/** One workflow as a prompt line: id, name, description, inputs (key:type, * = required), outputs. */
export function workflowLine(w: ContextWorkflow): string {
  const about = w.description ? ` (${oneLine(w.description)})` : "";
  return `- ${w.id}: ${oneLine(w.name, 80)}${about}; inputs ${inputList(w.inputs)}; outputs ${w.outputs.map((o) => o.key).join(", ") || "none"}`;
}

/** The context section's workflow list; "" when there are none (the prompt is then unchanged). */
export function workflowsSection(workflows: readonly ContextWorkflow[] | undefined): string {
  if (!workflows?.length) return "";
  const head =
    "Saved workflows (only when the request asks to run one: a subflow node with workflowId = its id and inputs setting every required (*) input and no other key):";
  return [head, ...workflows.map(workflowLine)].join("\n");
}

type Known = NonNullable<ValidationContext["workflows"]>;
const SUBFLOW_CODES = new Set([
  "subflow_unknown_workflow",
  "subflow_workflow_missing",
  "subflow_unknown_input",
  "subflow_input_missing",
]);

/**
 * Lines a repair message adds for subflow issues: the inputs of the workflow a subflow runs (from
 * the offered list, else the validation list), or the ids a subflow may run. None without such issues.
 */
export function subflowRepairNotes(
  issues: readonly { code: string; nodeId?: string }[],
  doc: Workflow | undefined,
  offered: readonly ContextWorkflow[] = [],
  known: Known = [],
): string[] {
  const notes = new Set<string>();
  for (const i of issues) {
    if (!SUBFLOW_CODES.has(i.code)) continue;
    const node = doc?.nodes.find((n) => n.id === i.nodeId);
    const target =
      node?.type === "subflow"
        ? (offered.find((w) => w.id === node.workflowId) ?? known.find((w) => w.id === node.workflowId))
        : undefined;
    if ((i.code === "subflow_unknown_input" || i.code === "subflow_input_missing") && target) {
      notes.add(
        `Subflow "${i.nodeId}" runs ${target.id} (${target.name}): inputs ${inputList(target.inputs)} (* = required).`,
      );
    } else if (i.code === "subflow_unknown_workflow" || i.code === "subflow_workflow_missing") {
      notes.add(
        offered.length
          ? `A subflow's workflowId is one of: ${offered.map((w) => `${w.id} (${w.name})`).join(", ")}.`
          : "No saved workflow can be run as a subflow here.",
      );
    }
  }
  return [...notes];
}
