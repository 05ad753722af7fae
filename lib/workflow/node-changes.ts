import { deepEqual } from "./equal";
import type { AgentSpec, Workflow, WorkflowNode } from "./schema";

/**
 * What a node's step depends on in its document, besides its upstream steps' outputs: the node's
 * own settings (not its name or position), the agents it runs (instructions, model, tools; an
 * orchestrator's workers too), the workflow's default model when one of them names none, and the
 * variables its settings or its agents' instructions mention. Two versions whose fingerprints of a
 * node are equal run that node's step the same way, given the same data.
 */
export function nodeFingerprint(doc: Workflow, nodeId: string): unknown {
  const node = doc.nodes.find((n) => n.id === nodeId);
  if (!node) return undefined;
  const { name: _name, position: _position, ...settings } = node;
  const agents = agentKeys(node).map((key) => doc.agents.find((a) => a.key === key) ?? { missing: key });
  const text = JSON.stringify([settings, agents]);
  const variables = doc.variables.filter((v) => new RegExp(`vars\\.${v.key}\\b`).test(text));
  const usesDefault =
    agents.some((a) => !("missing" in a) && !(a as AgentSpec).model) || (node.type === "router" && !node.model);
  return { settings, agents, variables, ...(usesDefault ? { defaultModel: doc.defaultModel ?? null } : {}) };
}

function agentKeys(node: WorkflowNode): string[] {
  if (node.type === "agent") return [node.agent];
  if (node.type === "orchestrator") return [node.agent, ...node.workers];
  return [];
}

/**
 * The nodes of `before` whose step would not run the same way in `after`: gone, or with another
 * fingerprint. A retry "with the current version" runs these again (and, through the engine's
 * reuse rule, everything downstream of them); the others keep their recorded results.
 */
export function changedNodes(before: Workflow, after: Workflow): string[] {
  return before.nodes
    .map((n) => n.id)
    .filter((id) => !deepEqual(nodeFingerprint(before, id), nodeFingerprint(after, id)));
}
