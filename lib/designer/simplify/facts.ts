import { buildGraph, type Graph } from "@/lib/workflow/graph";
import { templateRefs } from "@/lib/workflow/template";
import { templatedFields } from "@/lib/workflow/validate";
import type { AgentSpec, Edge, NodeOf, Workflow, WorkflowNode } from "@/lib/workflow/schema";

/**
 * What the merge rules need to know about a workflow's graph: predecessors and successors (forward
 * and loop), which nodes read whose output, and each agent node's agent. Pure, computed once per
 * proposal round.
 */
export interface Facts {
  workflow: Workflow;
  graph: Graph;
  /** Every edge into a node (forward and loop). */
  edgesIn: (id: string) => Edge[];
  /** Every edge out of a node (forward and loop). */
  edgesOut: (id: string) => Edge[];
  /** Node ids whose templates read `{{nodes.<id>…}}` of the given node. */
  readersOf: (id: string) => Set<string>;
  /** Node ids a node's templates read. */
  readsOf: (id: string) => Set<string>;
  /** Whether the node's templates read `{{feedback}}` (a loop's message). */
  readsFeedback: (id: string) => boolean;
  agentNode: (id: string) => NodeOf<"agent"> | undefined;
  agentOf: (node: NodeOf<"agent">) => AgentSpec | undefined;
}

/** The template strings of a node (task, prompt, args, outputs, map body …); expressions are not templates. */
export function templatesOf(node: WorkflowNode): string[] {
  return templatedFields(node)
    .filter((f) => f.kind === "template")
    .map((f) => f.text);
}

/** Node ids an expression router's expressions name (`nodes.<id>`). */
function expressionReads(node: WorkflowNode): string[] {
  return templatedFields(node)
    .filter((f) => f.kind === "expression")
    .flatMap((f) => [...f.text.matchAll(/nodes\.([A-Za-z][A-Za-z0-9_-]*)/g)].map((m) => m[1]!));
}

export function factsOf(workflow: Workflow): Facts {
  const graph = buildGraph(workflow);
  const readers = new Map<string, Set<string>>();
  const reads = new Map<string, Set<string>>();
  const feedback = new Set<string>();
  for (const node of workflow.nodes) {
    const own = new Set<string>();
    for (const t of templatesOf(node))
      for (const ref of templateRefs(t)) {
        if (ref.kind === "node") own.add(ref.nodeId);
        if (ref.kind === "feedback") feedback.add(node.id);
      }
    for (const id of expressionReads(node)) own.add(id);
    reads.set(node.id, own);
    for (const id of own) readers.set(id, new Set([...(readers.get(id) ?? []), node.id]));
  }
  const agents = new Map(workflow.agents.map((a) => [a.key, a]));
  return {
    workflow,
    graph,
    edgesIn: (id) => [...(graph.forwardIn.get(id) ?? []), ...(graph.loopIn.get(id) ?? [])],
    edgesOut: (id) => [...(graph.forwardOut.get(id) ?? []), ...(graph.loopOut.get(id) ?? [])],
    readersOf: (id) => readers.get(id) ?? new Set(),
    readsOf: (id) => reads.get(id) ?? new Set(),
    readsFeedback: (id) => feedback.has(id),
    agentNode: (id) => {
      const n = graph.nodes.get(id);
      return n?.type === "agent" ? n : undefined;
    },
    agentOf: (node) => agents.get(node.agent),
  };
}

/** Node settings a merged node cannot keep for both: error policy and timeout must agree. */
export function sameNodeSettings(a: WorkflowNode, b: WorkflowNode): boolean {
  return JSON.stringify(a.onError ?? null) === JSON.stringify(b.onError ?? null) && a.timeoutMs === b.timeoutMs;
}
