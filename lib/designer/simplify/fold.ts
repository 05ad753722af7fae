import { renameNodeInTemplate, templateRefs } from "@/lib/workflow/template";
import {
  IDENTIFIER_MAX_LENGTH,
  type AgentSpec,
  type NodeOf,
  type Workflow,
  type WorkflowNode,
} from "@/lib/workflow/schema";

/**
 * Applying a merge to a copy of the workflow. Nothing here decides whether a merge is wise (rules.ts
 * does); each fold gives a document whose references all still resolve, which index.ts validates.
 */

/** Rewrites every `{{nodes.<from>…}}` tag of a node's templates to `{{nodes.<to>…}}`. */
function renameReads(node: WorkflowNode, from: string, to: string): WorkflowNode {
  const r = (t: string) => renameNodeInTemplate(t, from, to);
  switch (node.type) {
    case "agent":
    case "orchestrator":
      return { ...node, task: r(node.task) };
    case "router":
      return node.mode === "llm" ? { ...node, prompt: r(node.prompt) } : node;
    case "human":
      return { ...node, prompt: r(node.prompt) };
    case "subflow":
      return { ...node, inputs: Object.fromEntries(Object.entries(node.inputs).map(([k, v]) => [k, r(v)])) };
    case "end":
      return { ...node, outputs: Object.fromEntries(Object.entries(node.outputs).map(([k, v]) => [k, r(v)])) };
    case "tool":
      return { ...node, args: renameArgs(node.args, r) };
    case "map": {
      const body =
        node.body.type === "agent"
          ? { ...node.body, task: r(node.body.task) }
          : { ...node.body, args: renameArgs(node.body.args, r) };
      return { ...node, items: r(node.items), body };
    }
    default:
      return node;
  }
}

function renameArgs(args: Record<string, unknown>, r: (t: string) => string): Record<string, unknown> {
  const walk = (v: unknown): unknown =>
    typeof v === "string"
      ? r(v)
      : Array.isArray(v)
        ? v.map(walk)
        : v && typeof v === "object"
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
          : v;
  return walk(args) as Record<string, unknown>;
}

/** `{{nodes.<id>…}}` tags replaced by a phrase (the merged agent's own earlier part). */
function replaceReads(template: string, id: string, phrase: string): string {
  let out = "";
  let at = 0;
  for (const ref of templateRefs(template)) {
    if (ref.kind !== "node" || ref.nodeId !== id) continue;
    out += template.slice(at, ref.start) + phrase;
    at = ref.end;
  }
  return out + template.slice(at);
}

/** A key not yet taken by an agent, from `base`. */
function freshKey(taken: Set<string>, base: string): string {
  const stem = base.slice(0, IDENTIFIER_MAX_LENGTH - 3);
  if (!taken.has(stem)) return stem;
  for (let n = 2; ; n++) if (!taken.has(`${stem}_${n}`)) return `${stem}_${n}`;
}

/** Agents no node uses any more are left out. */
function dropUnusedAgents(wf: Workflow): Workflow {
  const used = new Set<string>();
  for (const n of wf.nodes) {
    if (n.type === "agent") used.add(n.agent);
    if (n.type === "orchestrator") [n.agent, ...n.workers].forEach((k) => used.add(k));
    if (n.type === "map" && n.body.type === "agent") used.add(n.body.agent);
  }
  return { ...wf, agents: wf.agents.filter((a) => used.has(a.key)) };
}

/** One agent doing both jobs: the first's instructions, then the second's; tools of both. */
export function combinedAgent(a: AgentSpec, b: AgentSpec, taken: Set<string>): AgentSpec {
  if (a.key === b.key) return a;
  const tools = [...a.tools, ...b.tools.filter((t) => !a.tools.some((x) => x.name === t.name))];
  return {
    ...b,
    key: freshKey(taken, `${a.key}_${b.key}`),
    name: `${a.name} + ${b.name}`,
    description: [a.description, b.description].filter(Boolean).join("; "),
    instructions: `You do two jobs in one answer.\n\n1. ${a.name}: ${a.instructions}\n\n2. ${b.name}: ${b.instructions}`,
    tools,
  };
}

/**
 * Sequential merge: `first`'s only exit leads to `second`, which nothing else enters. The merged node
 * keeps `second`'s id, outcomes and exits, takes `first`'s entries (loops included) and does both
 * tasks in one turn; readers of `first`'s output read the merged node's.
 */
export function foldSequential(wf: Workflow, firstId: string, secondId: string): Workflow {
  const first = wf.nodes.find((n) => n.id === firstId) as NodeOf<"agent">;
  const second = wf.nodes.find((n) => n.id === secondId) as NodeOf<"agent">;
  const agentA = wf.agents.find((a) => a.key === first.agent)!;
  const agentB = wf.agents.find((a) => a.key === second.agent)!;
  const agent = combinedAgent(agentA, agentB, new Set(wf.agents.map((a) => a.key)));
  const secondTask = replaceReads(second.task, firstId, "(your answer to part 1 above)");
  const turns = Math.max(first.maxTurnsPerVisit ?? 0, second.maxTurnsPerVisit ?? 0);
  const merged: NodeOf<"agent"> = {
    ...second,
    name: `${first.name || first.id} + ${second.name || second.id}`,
    agent: agent.key,
    task: `Answer in two parts.\n\nPart 1 (${first.name || first.id}): ${first.task}\n\nPart 2 (${second.name || second.id}), building on part 1: ${secondTask}\n\nEnd with part 2: it is your answer.`,
    join: first.join,
    ...(first.position ? { position: first.position } : {}),
    ...(turns > 0 ? { maxTurnsPerVisit: turns } : {}),
  };
  const nodes = wf.nodes
    .filter((n) => n.id !== firstId)
    .map((n) => (n.id === secondId ? merged : renameReads(n, firstId, secondId)));
  const edges = wf.edges
    .filter((e) => !(e.source === firstId && e.target === secondId))
    .map((e) => (e.target === firstId ? { ...e, target: secondId } : e));
  const agents = agent.key === agentB.key ? wf.agents : [...wf.agents, agent];
  return dropUnusedAgents({ ...wf, agents, nodes, edges: renameEdgeIds(edges) });
}

/**
 * Parallel merge: siblings doing the same thing become the first of them. The others and their
 * edges go; their readers (the join) read the one left, whose single answer stands for all of them.
 */
export function foldParallel(wf: Workflow, keepId: string, removeIds: readonly string[]): Workflow {
  const gone = new Set(removeIds);
  let nodes = wf.nodes.filter((n) => !gone.has(n.id));
  for (const id of removeIds) nodes = nodes.map((n) => renameReads(n, id, keepId));
  const edges = wf.edges.filter((e) => !gone.has(e.source) && !gone.has(e.target));
  return dropUnusedAgents({ ...wf, nodes, edges });
}

/** Edge ids stay unique after endpoints moved (an id is kept unless another edge has it). */
function renameEdgeIds(edges: Workflow["edges"]): Workflow["edges"] {
  const seen = new Set<string>();
  return edges.map((e) => {
    let id = e.id;
    for (let n = 2; seen.has(id); n++) id = `${e.id.slice(0, IDENTIFIER_MAX_LENGTH - 4)}_${n}`;
    seen.add(id);
    return id === e.id ? e : { ...e, id };
  });
}
