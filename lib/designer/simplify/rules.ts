import type { AgentSpec, NodeOf } from "@/lib/workflow/schema";
import { sameNodeSettings, type Facts } from "./facts";

/**
 * The merge rules (MetaAgent's state merging): each finds candidate merges in a workflow's facts.
 * A candidate is only a suggestion; index.ts folds it, validates it and prices it.
 */
export type RuleId = "sequential" | "parallel" | "fsm";

export type Candidate =
  { rule: "sequential" | "fsm"; first: string; second: string } | { rule: "parallel"; keep: string; remove: string[] };

/**
 * `first` → `second` where one agent could do both in one turn: `first` has one outcome and one exit
 * (to `second`), `second` has no other entry, and their agents and node settings can be one.
 */
function chained(f: Facts): { first: NodeOf<"agent">; second: NodeOf<"agent">; onLoop: boolean }[] {
  const out: { first: NodeOf<"agent">; second: NodeOf<"agent">; onLoop: boolean }[] = [];
  for (const first of f.workflow.nodes) {
    if (first.type !== "agent" || first.branches.length !== 1) continue;
    const exits = f.edgesOut(first.id);
    if (exits.length !== 1 || exits[0]!.kind !== "forward") continue;
    const second = f.agentNode(exits[0]!.target);
    if (!second || second.id === first.id || f.edgesIn(second.id).length !== 1) continue;
    const a = f.agentOf(first);
    const b = f.agentOf(second);
    if (!a || !b || !compatible(a, b) || !sameNodeSettings(first, second)) continue;
    if (f.readsFeedback(second.id)) continue; // the loop's message would reach the merged turn twice
    const onLoop = f.graph.loopIn.has(first.id) || f.graph.loopOut.has(second.id) || f.readsFeedback(first.id);
    out.push({ first, second, onLoop });
  }
  return out;
}

/** Models, temperature and saved agent agree; tools may differ (the merged agent gets both). */
function compatible(a: AgentSpec, b: AgentSpec): boolean {
  if (a.key === b.key) return true;
  if (a.savedAgentId || b.savedAgentId) return false;
  if (JSON.stringify(a.model ?? null) !== JSON.stringify(b.model ?? null) || a.temperature !== b.temperature)
    return false;
  return a.tools.every((t) => {
    const same = b.tools.find((x) => x.name === t.name);
    return !same || (same.toolId === t.toolId && same.version === t.version);
  });
}

/** Rule 1: straight-line agent steps (no loop enters or leaves the pair) that one agent could do in one turn. */
export function sequentialRule(f: Facts): Candidate[] {
  return chained(f)
    .filter((c) => !c.onLoop)
    .map((c) => ({ rule: "sequential", first: c.first.id, second: c.second.id }));
}

/** Rule 3: states of a state machine (a loop enters the first or leaves the second) that always follow each other. */
export function fsmRule(f: Facts): Candidate[] {
  return chained(f)
    .filter((c) => c.onLoop)
    .map((c) => ({ rule: "fsm", first: c.first.id, second: c.second.id }));
}

/**
 * Rule 2: siblings under one fan-out doing the same thing: agent nodes entered by the same edges
 * (source and outcome), leaving to the same nodes, with the same task, outcomes and node settings,
 * and agents that are the same or alike in everything but their key and name.
 */
export function parallelRule(f: Facts): Candidate[] {
  const groups = new Map<string, string[]>();
  for (const node of f.workflow.nodes) {
    if (node.type !== "agent") continue;
    const ins = f.edgesIn(node.id);
    const outs = f.edgesOut(node.id);
    if (ins.length === 0 || ins.some((e) => e.kind !== "forward") || outs.some((e) => e.kind !== "forward")) continue;
    const agent = f.agentOf(node);
    if (!agent) continue;
    const key = JSON.stringify({
      in: ins.map((e) => `${e.source}|${e.sourceHandle}`).sort(),
      out: outs.map((e) => `${e.sourceHandle}|${e.target}`).sort(),
      task: node.task,
      branches: node.branches.map((b) => [b.id, b.condition]),
      settings: [node.onError ?? null, node.timeoutMs ?? null, node.join, node.maxTurnsPerVisit ?? null],
      agent: agentShape(agent),
    });
    groups.set(key, [...(groups.get(key) ?? []), node.id]);
  }
  const out: Candidate[] = [];
  for (const ids of groups.values()) {
    if (ids.length < 2) continue;
    // The fan-out must give each sibling the same start: one shared entry that forks (not a router's choice).
    const [keep, ...remove] = ids as [string, ...string[]];
    if (!isFanOut(f, ids)) continue;
    out.push({ rule: "parallel", keep, remove });
  }
  return out;
}

/** Siblings run side by side: their shared entries come from one outcome that leads to all of them. */
function isFanOut(f: Facts, ids: readonly string[]): boolean {
  const entries = f.edgesIn(ids[0]!);
  return entries.every((e) =>
    ids.every((id) => f.edgesIn(id).some((x) => x.source === e.source && x.sourceHandle === e.sourceHandle)),
  );
}

/** What makes two agents interchangeable: all but key, name and description. */
function agentShape(a: AgentSpec): unknown {
  return {
    instructions: a.instructions,
    model: a.model ?? null,
    temperature: a.temperature ?? null,
    tools: a.tools.map((t) => t.name).sort(),
    saved: a.savedAgentId ?? null,
  };
}

export const rules: Record<RuleId, (f: Facts) => Candidate[]> = {
  sequential: sequentialRule,
  parallel: parallelRule,
  fsm: fsmRule,
};
