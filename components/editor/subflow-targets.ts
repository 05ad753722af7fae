import type { Field } from "@/lib/workflow/schema";
import type { ValidationContext } from "@/lib/workflow/validate";
import { fieldsAtVersion } from "@/lib/workflow/validate-subflows";

/**
 * A workflow a subflow node may run (lib/db/subflow-targets.ts loads them; the same shape, declared
 * here because components may not import lib/db): its newest saved version and that version's
 * input fields and output keys (the draft's while nothing is saved).
 */
export type SubflowTarget = {
  id: string;
  name: string;
  /** The newest saved version's number; null while nothing is saved (a subflow cannot run it yet). */
  version: number | null;
  inputs: Pick<Field, "key" | "type" | "required" | "description">[];
  outputs: { key: string }[];
  /** Each saved version where the inputs or outputs changed, with those from it on (a run page's targets have none). */
  history?: { from: number; inputs: SubflowTarget["inputs"]; outputs: { key: string }[] }[];
  /** What it does, and when it last changed (ISO); lib/db gives both, the editor does not need them. */
  description?: string;
  updatedAt?: string;
};

/**
 * What is known about subflow targets: in the editor the owner's workflows and which one is being
 * edited; on a run page (`partial`) only the workflows its subflow steps started, so a workflow not
 * listed there is not missing, just not known.
 */
export type SubflowTargets = { targets: readonly SubflowTarget[]; currentId?: string; partial?: boolean };

/** The validation context that makes subflow issues (unknown workflow, undeclared or missing inputs) show in the editor. */
export function subflowValidationContext(targets: readonly SubflowTarget[]): ValidationContext {
  const keys = (inputs: SubflowTarget["inputs"]) => inputs.map(({ key, required }) => ({ key, required }));
  return {
    workflows: targets.map(({ id, name, inputs, version, history }) => ({
      id,
      name,
      inputs: keys(inputs),
      version,
      ...(history ? { history: history.map((h) => ({ from: h.from, inputs: keys(h.inputs) })) } : {}),
    })),
  };
}

/** The inputs and outputs of the version a subflow node runs (its pinned one, else the newest); null when the pinned version is not saved. */
export function targetFields(
  target: SubflowTarget,
  pinned: number | undefined,
): { inputs: SubflowTarget["inputs"]; outputs: SubflowTarget["outputs"] } | null {
  const fields = fieldsAtVersion(target, pinned);
  return fields && { inputs: [...fields.inputs], outputs: [...(fields.outputs ?? [])] };
}

/** The target a subflow node runs, when the editor knows it. */
export const findTarget = (subflows: SubflowTargets | undefined, workflowId: string): SubflowTarget | undefined =>
  workflowId === "" ? undefined : subflows?.targets.find((t) => t.id === workflowId);
