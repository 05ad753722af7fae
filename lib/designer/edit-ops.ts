import type { Operation } from "@/lib/workflow/operations";
import { compileAgent } from "./compile";
import { noOp, nodeRef, type EditState } from "./edit-state";
import { fix } from "./fixes";
import { resolveRef, slug } from "./resolve";
import type { EditOperation } from "./schemas";

/**
 * Translations of the agent, loop-cap, input and variable edits (edit.ts has the node and edge ones).
 * Adding an agent whose key exists updates it; updating one named by a near spelling updates that
 * one; removing what is not there is a no-op.
 */

type AgentOp = Extract<EditOperation, { op: "add_agent" | "update_agent" | "remove_agent" }>;

function agentKey(s: EditState, i: number, ref: string): string | undefined {
  const hit = resolveRef(
    ref,
    s.wf.agents.map((a) => ({ id: a.key, aliases: [a.name] })),
  );
  if (hit && hit.how !== "exact")
    s.fixes.push(
      fix("reference_resolved", `Operation ${i + 1}: agent "${ref}" read as "${hit.id}".`, "invalid_operation"),
    );
  return hit?.id;
}

function updateAgent(
  s: EditState,
  i: number,
  key: string,
  set: Extract<AgentOp, { op: "update_agent" }>["set"],
): Operation[] {
  const current = s.wf.agents.find((a) => a.key === key)!;
  const role = set.role ?? current.description;
  const merged = compileAgent(
    {
      key,
      role,
      instructions: set.instructions ?? current.instructions,
      tools: set.tools ?? current.tools.map((t) => t.name),
      modelClass: set.modelClass,
      ...(set.reuse ? { reuse: set.reuse } : {}),
    },
    s.opts.models,
    s.opts.savedAgents,
  );
  const patch = {
    description: merged.description,
    instructions: merged.instructions,
    tools: merged.tools,
    ...(set.role || set.reuse ? { name: merged.name } : {}),
    ...(merged.model ? { model: merged.model } : {}),
    ...(merged.savedAgentId ? { savedAgentId: merged.savedAgentId } : {}),
  };
  return [{ type: "updateAgent", key, patch }];
}

/** add_agent / update_agent / remove_agent. */
export function agentOps(s: EditState, i: number, op: AgentOp): Operation[] | undefined {
  switch (op.op) {
    case "add_agent": {
      if (!s.wf.agents.some((a) => a.key === op.agent.key)) {
        return [{ type: "addAgent", agent: compileAgent(op.agent, s.opts.models, s.opts.savedAgents) }];
      }
      s.fixes.push(
        fix("operation_fixed", `Operation ${i + 1}: agent "${op.agent.key}" exists: updated it.`, "invalid_operation"),
      );
      const { key, ...set } = op.agent;
      return updateAgent(s, i, key, set);
    }
    case "update_agent": {
      const key = agentKey(s, i, op.key);
      if (key) return updateAgent(s, i, key, op.set);
      const created = slug(op.key, "agent");
      s.fixes.push(
        fix(
          "operation_fixed",
          `Operation ${i + 1}: agent "${op.key}" did not exist: added it with the given settings.`,
          "invalid_operation",
        ),
      );
      const role = op.set.role ?? created.replace(/[_-]+/g, " ");
      return [
        {
          type: "addAgent",
          agent: compileAgent(
            { ...op.set, key: created, role, instructions: op.set.instructions ?? "" },
            s.opts.models,
            s.opts.savedAgents,
          ),
        },
      ];
    }
    case "remove_agent": {
      const key = agentKey(s, i, op.key);
      if (!key) return noOp(s, i, `agent "${op.key}" does not exist`);
      const workers = s.wf.nodes.filter((n) => n.type === "orchestrator" && n.workers.includes(key));
      return [
        ...workers.map((n): Operation => ({
          type: "updateNode",
          id: n.id,
          patch: { workers: n.type === "orchestrator" ? n.workers.filter((w) => w !== key) : [] },
        })),
        { type: "removeAgent", key },
      ];
    }
  }
}

/** set_loop_cap: the loop edge between the two nodes, else the only loop edge leaving `from`. */
export function loopCapOps(s: EditState, i: number, op: Extract<EditOperation, { op: "set_loop_cap" }>): Operation[] {
  const [from, to] = [nodeRef(s, i, op.from), nodeRef(s, i, op.to)];
  const loops = s.wf.edges.filter((e) => e.kind === "loop");
  let hit = loops.filter(
    (e) => e.source === from && e.target === to && (op.branch === undefined || e.sourceHandle === op.branch),
  );
  if (hit.length === 0) {
    const leaving = loops.filter((e) => e.source === from);
    if (leaving.length === 1)
      s.fixes.push(
        fix(
          "operation_fixed",
          `Operation ${i + 1}: the loop leaving "${from}" goes to "${leaving[0]!.target}": capped that one.`,
          "invalid_operation",
        ),
      );
    hit = leaving.length === 1 ? leaving : [];
  }
  if (hit.length === 0) return noOp(s, i, `there is no loop edge ${op.from} -> ${op.to}`);
  const cap = Math.max(1, op.maxIterations);
  return hit.map((e) => ({
    type: "updateEdge",
    id: e.id,
    patch: { maxIterations: cap, ...(op.onExhausted ? { onExhausted: op.onExhausted } : {}) },
  }));
}

/** add_input: a new required input (an existing key is a no-op). */
export function inputOps(s: EditState, i: number, op: Extract<EditOperation, { op: "add_input" }>): Operation[] {
  const key = slug(op.field.key, "input");
  if (s.wf.inputs.some((f) => f.key === key)) return noOp(s, i, `input "${key}" exists`);
  const field = { key, type: op.field.type ?? "string", description: op.field.description ?? "", required: true };
  return [{ type: "setInputs", inputs: [...s.wf.inputs, field] }];
}

/** set_variable: sets (or adds) a variable. */
export function variableOps(s: EditState, op: Extract<EditOperation, { op: "set_variable" }>): Operation[] {
  const key = slug(op.key, "var");
  const variables = [...s.wf.variables.filter((v) => v.key !== key), { key, value: op.value, description: "" }];
  return [{ type: "setVariables", variables }];
}
