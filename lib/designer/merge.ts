import type { AgentSpec, Workflow } from "@/lib/workflow/schema";

/**
 * Optimisation step (MetaAgent's state merging, applied to agents): two agents whose roles overlap
 * — same tools, same model, near-identical role and instructions — become one. Agents used side by
 * side in one fan-out are never merged (parallel voters are meant to be independent). The caller
 * keeps the result only if it still validates.
 */

const words = (text: string) =>
  new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 2),
  );

/** Roles overlap: near-identical role words AND largely shared instructions. */
const overlap = (a: AgentSpec, b: AgentSpec, threshold: number) =>
  jaccard(words(a.description || a.name), words(b.description || b.name)) >= threshold &&
  jaccard(words(a.instructions), words(b.instructions)) >= threshold - 0.2;

function jaccard(x: Set<string>, y: Set<string>): number {
  if (x.size === 0 && y.size === 0) return 1;
  let inter = 0;
  for (const w of x) if (y.has(w)) inter++;
  return inter / (x.size + y.size - inter);
}

const sameConfig = (a: AgentSpec, b: AgentSpec) =>
  JSON.stringify(a.model ?? null) === JSON.stringify(b.model ?? null) &&
  a.savedAgentId === b.savedAgentId &&
  JSON.stringify(a.tools.map((t) => t.name).sort()) === JSON.stringify(b.tools.map((t) => t.name).sort());

/** Agent keys used by nodes that share a predecessor outcome (a fan-out): never merged together. */
function siblingPairs(wf: Workflow): Set<string> {
  const agentOf = new Map<string, string>();
  for (const n of wf.nodes) if (n.type === "agent" || n.type === "orchestrator") agentOf.set(n.id, n.agent);
  const pairs = new Set<string>();
  const groups = new Map<string, string[]>();
  for (const e of wf.edges) {
    const agent = agentOf.get(e.target);
    if (e.kind !== "forward" || !agent) continue;
    const key = `${e.source}|${e.sourceHandle}`;
    groups.set(key, [...(groups.get(key) ?? []), agent]);
  }
  for (const g of groups.values()) for (const a of g) for (const b of g) if (a !== b) pairs.add(`${a}|${b}`);
  for (const n of wf.nodes)
    if (n.type === "orchestrator")
      for (const a of n.workers) for (const b of n.workers) if (a !== b) pairs.add(`${a}|${b}`);
  return pairs;
}

/** Merges overlapping agents (threshold: Jaccard similarity of role words, default 0.8; instructions need threshold − 0.2). */
export function mergeOverlappingAgents(
  wf: Workflow,
  threshold = 0.8,
): { workflow: Workflow; merged: { kept: string; removed: string }[] } {
  const siblings = siblingPairs(wf);
  const rename = new Map<string, string>();
  const kept: AgentSpec[] = [];
  for (const agent of wf.agents) {
    const twin = kept.find(
      (k) => sameConfig(k, agent) && !siblings.has(`${k.key}|${agent.key}`) && overlap(k, agent, threshold),
    );
    if (twin) rename.set(agent.key, twin.key);
    else kept.push(agent);
  }
  if (rename.size === 0) return { workflow: wf, merged: [] };
  const to = (k: string) => rename.get(k) ?? k;
  const nodes = wf.nodes.map((n) => {
    if (n.type === "agent") return { ...n, agent: to(n.agent) };
    if (n.type === "orchestrator") return { ...n, agent: to(n.agent), workers: [...new Set(n.workers.map(to))] };
    return n;
  });
  return {
    workflow: { ...wf, agents: kept, nodes },
    merged: [...rename].map(([removed, k]) => ({ kept: k, removed })),
  };
}
