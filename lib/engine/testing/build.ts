import { workflowSchema, type Workflow, type WorkflowInput } from "@/lib/workflow/schema";

/**
 * Small builders for workflow documents in engine tests (and scenario fixtures A–E). They produce
 * real, zod-parsed workflow documents, never engine-private shapes.
 */

type NodeInput = NonNullable<WorkflowInput["nodes"]>[number];
type EdgeInput = NonNullable<WorkflowInput["edges"]>[number];

/** A forward edge from `source`'s outcome `handle` to `target` (id derived from the three). */
export function fwd(source: string, handle: string, target: string): EdgeInput {
  return { id: `${source}-${handle}-${target}`, source, sourceHandle: handle, target, kind: "forward" };
}

/** A loop edge with its cap and exhaustion policy. */
export function loop(
  source: string,
  handle: string,
  target: string,
  maxIterations: number,
  onExhausted: "continue" | "abort" = "abort",
  continueWith?: string,
): EdgeInput {
  return {
    id: `${source}-${handle}-${target}`,
    source,
    sourceHandle: handle,
    target,
    kind: "loop",
    maxIterations,
    onExhausted,
    ...(continueWith ? { continueWith } : {}),
  };
}

/** An agent node using agent `agentKey` (default "a") with the given branch ids (default [done]). */
export function agentNode(id: string, branches: string[] = ["done"], extra: Partial<NodeInput> = {}): NodeInput {
  return {
    id,
    type: "agent",
    agent: "a",
    task: `Do ${id}`,
    branches: branches.map((b) => ({ id: b, label: b, condition: `when ${b}` })),
    ...extra,
  } as NodeInput;
}

export const startNode = (id = "start"): NodeInput => ({ id, type: "start" });
export const endNode = (id = "end", outputs: Record<string, string> = {}): NodeInput => ({ id, type: "end", outputs });
export const abortNode = (id = "abort", reason = "Aborted"): NodeInput => ({ id, type: "abort", reason });
export const routerNode = (id: string, branches: string[]): NodeInput => ({
  id,
  type: "router",
  prompt: "Route the request",
  branches: branches.map((b) => ({ id: b, label: b, condition: `when ${b}` })),
});

/** A human review offering `choices` (branch ids), with optional fields to fill in. */
export const humanNode = (
  id: string,
  choices: string[] = ["approve", "reject"],
  extra: Partial<NodeInput> = {},
): NodeInput =>
  ({
    id,
    type: "human",
    prompt: `Review {{nodes.draft.output}}`,
    branches: choices.map((b) => ({ id: b, label: b.toUpperCase(), condition: "" })),
    ...extra,
  }) as NodeInput;

/** A map node over `items` (a template) running agent "a" on `{{item}}` for each. */
export const mapNode = (id: string, items: string, extra: Partial<NodeInput> = {}): NodeInput =>
  ({ id, type: "map", items, body: { type: "agent", agent: "a", task: "Research {{item}}" }, ...extra }) as NodeInput;

/** Parses a workflow with a default agent "a" and any given agents. */
export function buildWorkflow(doc: WorkflowInput): Workflow {
  const agents = doc.agents ?? [];
  const withDefault = agents.some((a) => a.key === "a")
    ? agents
    : [...agents, { key: "a", name: "Agent", instructions: "You are a helpful agent." }];
  return workflowSchema.parse({ ...doc, agents: withDefault });
}
