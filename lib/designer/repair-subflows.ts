import type { NodeOf } from "@/lib/workflow/schema";
import type { SubflowWorkflow } from "@/lib/workflow/validate-nodes";
import { fieldsAtVersion } from "@/lib/workflow/validate-subflows";
import { fix } from "./fixes";
import type { Draft } from "./repair-graph";
import { resolveRef } from "./resolve";

/**
 * Subflow repairs: a workflow named by something other than its id (its name, a near spelling) is
 * resolved; an input the child does not declare is renamed to the closest one it does (or to the only
 * required one still unset), else dropped;
 * a required child input left out is passed on from this workflow's input of that name (declared
 * here when missing). A subflow naming no workflow at all stays an issue for the model.
 */
export function repairSubflows(d: Draft, workflows: readonly SubflowWorkflow[] | undefined): void {
  if (!workflows?.length) return;
  const candidates = workflows.map((w) => ({ id: w.id, aliases: [w.name] }));
  for (const id of d.wf.nodes.filter((n) => n.type === "subflow").map((n) => n.id)) {
    let node = d.node(id) as NodeOf<"subflow">;
    if (!node.workflowId.trim()) continue;
    if (!workflows.some((w) => w.id === node.workflowId)) {
      const hit = resolveRef(node.workflowId, candidates);
      if (!hit) continue;
      d.fixes.push(
        fix(
          "reference_resolved",
          `Subflow "${id}" runs "${node.workflowId}": read as workflow "${hit.id}".`,
          "subflow_unknown_workflow",
        ),
      );
      node = { ...node, workflowId: hit.id };
    }
    const target = workflows.find((w) => w.id === node.workflowId)!;
    const fields = fieldsAtVersion(target, node.version);
    if (!fields) continue;
    node = { ...node, inputs: childInputs(d, node, fields.inputs) };
    d.replaceNode(node);
  }
}

function childInputs(
  d: Draft,
  node: NodeOf<"subflow">,
  declared: readonly { key: string; required: boolean }[],
): Record<string, string> {
  const keys = declared.map((f) => ({ id: f.key }));
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(node.inputs)) {
    if (declared.some((f) => f.key === key)) {
      out[key] = value;
      continue;
    }
    const open = declared.filter((f) => !(f.key in node.inputs) && !(f.key in out));
    const onlyRequired = open.filter((f) => f.required);
    const hit =
      resolveRef(
        key,
        keys.filter((k) => open.some((f) => f.key === k.id)),
      ) ?? (onlyRequired.length === 1 ? { id: onlyRequired[0]!.key } : undefined);
    if (hit) out[hit.id] = value;
    d.fixes.push(
      hit
        ? fix(
            "reference_resolved",
            `Subflow "${node.id}" sets input "${key}": read as "${hit.id}".`,
            "subflow_unknown_input",
          )
        : fix(
            "reference_dropped",
            `Subflow "${node.id}" set input "${key}", which its workflow does not take: dropped.`,
            "subflow_unknown_input",
          ),
    );
  }
  for (const f of declared.filter((x) => x.required && !(x.key in out))) {
    if (!d.wf.inputs.some((i) => i.key === f.key)) {
      d.wf = { ...d.wf, inputs: [...d.wf.inputs, { key: f.key, type: "text", description: "", required: true }] };
    }
    out[f.key] = `{{inputs.${f.key}}}`;
    d.fixes.push(
      fix(
        "field_declared",
        `Subflow "${node.id}" needs input "${f.key}": passed on from this workflow's input "${f.key}".`,
        "subflow_input_missing",
      ),
    );
  }
  return out;
}
