import { workflowSchema, type Workflow } from "@/lib/workflow/schema";

/** Grid spacing of the generated graphs (node boxes are ~224 × 90 px in the editor, 150 × 40 in the peer). */
export const GAP = { x: 300, y: 160 };

/**
 * The B3 graph with `n` nodes in total: start → `lanes` parallel chains of agents → end (a join of
 * all lanes). Lanes are rows, so the graph is roughly square. Every agent points at one of five
 * shared agent specs, as a real workflow would; the document is valid (no issues drawn).
 */
export function benchWorkflow(n: number): Workflow {
  const agentCount = Math.max(1, n - 2);
  const lanes = Math.max(1, Math.round(Math.sqrt(agentCount / 2)));
  const perLane = Math.ceil(agentCount / lanes);
  const specs = Array.from({ length: 5 }, (_, i) => ({
    key: `spec_${i}`,
    name: `Specialist ${i + 1}`,
    instructions: `You are specialist ${i + 1}.`,
  }));
  const nodes: unknown[] = [];
  const edges: unknown[] = [];
  const laneEnds: string[] = [];
  const midY = ((lanes - 1) * GAP.y) / 2;
  nodes.push({ id: "start", type: "start", name: "Start", position: { x: 0, y: midY } });
  for (let i = 0; i < agentCount; i++) {
    const lane = Math.floor(i / perLane);
    const col = i % perLane;
    const id = `a${i}`;
    nodes.push({
      id,
      type: "agent",
      name: `Step ${lane + 1}.${col + 1}`,
      agent: specs[i % specs.length]!.key,
      task: "{{inputs.topic}}",
      position: { x: GAP.x * (col + 1), y: GAP.y * lane },
    });
    const prev = col === 0 ? "start" : `a${i - 1}`;
    edges.push({ id: `e${i}`, source: prev, sourceHandle: col === 0 ? "next" : "done", target: id });
    if (col === perLane - 1 || i === agentCount - 1) laneEnds.push(id);
  }
  nodes.push({
    id: "end",
    type: "end",
    name: "End",
    position: { x: GAP.x * (perLane + 1), y: midY },
    outputs: { result: "{{nodes.a0.output}}" },
  });
  laneEnds.forEach((id, k) => edges.push({ id: `end${k}`, source: id, sourceHandle: "done", target: "end" }));
  return workflowSchema.parse({
    name: `B3 ${n} nodes`,
    inputs: [{ key: "topic" }],
    outputs: [{ key: "result" }],
    agents: specs,
    nodes,
    edges,
    limits: { maxSteps: Math.max(100, n * 2) },
  });
}

/** The same graph as a plain React Flow page sees it: ids, positions, labels, edges. No Weft data. */
export function peerGraph(doc: Workflow): {
  nodes: { id: string; position: { x: number; y: number }; data: { label: string }; type?: string }[];
  edges: { id: string; source: string; target: string }[];
} {
  return {
    nodes: doc.nodes.map((n) => ({
      id: n.id,
      position: n.position ?? { x: 0, y: 0 },
      data: { label: n.name },
      ...(n.type === "start" ? { type: "input" } : n.type === "end" ? { type: "output" } : {}),
    })),
    edges: doc.edges.map((e) => ({ id: e.id, source: e.source, target: e.target })),
  };
}
