import { diffGrouped, type OperationGroup } from "@/lib/workflow/diff";
import { tryApplyOperations, type Operation } from "@/lib/workflow/operations";
import type { Workflow } from "@/lib/workflow/schema";
import { nodeTitle, type DiffMark } from "@/components/terms/words";

/**
 * A designer proposal as the editor shows it: never saved by itself. The canvas shows a preview
 * (the proposal plus what it would remove, every difference marked); the user accepts all groups,
 * some of them (a group pulls in the groups it needs), or rejects. Pure, so it is unit-tested.
 */

export type { DiffMark };

/** A tool the design needs that the registry lacks (lib/designer ToolToCreate). */
export type ToolToCreate = { name: string; purpose: string; usedBy: string[] };

export type PendingProposal = {
  /** The document the proposal was computed against (the editor's document when it was asked). */
  base: Workflow;
  proposal: Workflow;
  /** What accepting applies, change by change (lib/workflow diffGrouped of base → proposal). */
  groups: OperationGroup[];
  summary: string;
  toCreate: ToolToCreate[];
  /** Lines shown under the summary (a simplification's saving and evaluation verdict). */
  notes?: string[];
};

/** A blank draft (nodes are start/end only, no agents) is designed from scratch, not edited. */
export function isBlankDocument(doc: Workflow): boolean {
  return (
    doc.agents.length === 0 && doc.nodes.every((n) => n.type === "start" || n.type === "end") && doc.nodes.length <= 2
  );
}

/**
 * The groups to accept for a designer result against the editor's current document: the result's own
 * `changes` when it was computed on that very document (an edit), else a fresh diff (a new design
 * replaces a blank draft, whose start/end nodes the proposal changes in place).
 */
export function proposalGroups(
  current: Workflow,
  proposal: Workflow,
  result: { base?: Workflow; changes: OperationGroup[] },
): OperationGroup[] {
  if (result.base && JSON.stringify(result.base) === JSON.stringify(current)) return result.changes;
  return diffGrouped(current, proposal);
}

/** The groups the user chooses between ("order" is bookkeeping and always applied). */
export const choosableGroups = (groups: readonly OperationGroup[]): OperationGroup[] =>
  groups.filter((g) => g.key !== "order");

function nodeRefs(op: Operation): string[] {
  switch (op.type) {
    case "addEdge":
      return [op.edge.source, op.edge.target];
    case "updateEdge":
      return [op.patch.source, op.patch.target].filter((x): x is string => typeof x === "string");
    default:
      return [];
  }
}

function agentRefs(op: Operation): string[] {
  const fromNode = (n: Record<string, unknown>) => [
    ...(typeof n.agent === "string" ? [n.agent] : []),
    ...(Array.isArray(n.workers) ? n.workers.filter((w): w is string => typeof w === "string") : []),
  ];
  if (op.type === "addNode") return fromNode(op.node as Record<string, unknown>);
  if (op.type === "updateNode") return fromNode(op.patch as Record<string, unknown>);
  return [];
}

/**
 * For each group key, the keys of the earlier groups it needs: the group adding a node its edges
 * touch, and the workflow group when it adds an agent the group's nodes use.
 */
export function groupDependencies(groups: readonly OperationGroup[]): Map<string, Set<string>> {
  const addsNode = new Map<string, string>();
  const addsAgent = new Map<string, string>();
  for (const g of groups) {
    for (const op of g.ops) {
      if (op.type === "addNode") addsNode.set(op.node.id, g.key);
      if (op.type === "addAgent") addsAgent.set(op.agent.key, g.key);
    }
  }
  const deps = new Map<string, Set<string>>();
  for (const g of groups) {
    const mine = new Set<string>();
    for (const op of g.ops) {
      for (const id of nodeRefs(op)) {
        const k = addsNode.get(id);
        if (k && k !== g.key) mine.add(k);
      }
      for (const key of agentRefs(op)) {
        const k = addsAgent.get(key);
        if (k && k !== g.key) mine.add(k);
      }
    }
    deps.set(g.key, mine);
  }
  return deps;
}

/** Toggles one group in a selection, keeping it closed: selecting pulls in what it needs, deselecting drops what needs it. */
export function toggleGroup(
  groups: readonly OperationGroup[],
  selected: ReadonlySet<string>,
  key: string,
): Set<string> {
  const deps = groupDependencies(groups);
  const next = new Set(selected);
  if (!selected.has(key)) {
    const stack = [key];
    while (stack.length) {
      const k = stack.pop()!;
      if (next.has(k)) continue;
      next.add(k);
      stack.push(...(deps.get(k) ?? []));
    }
    return next;
  }
  const stack = [key];
  while (stack.length) {
    const k = stack.pop()!;
    if (!next.delete(k)) continue;
    for (const [other, needs] of deps) if (needs.has(k)) stack.push(other);
  }
  return next;
}

/** The document after accepting the selected groups (plus the order group), in diff order. */
export function acceptGroups(
  doc: Workflow,
  groups: readonly OperationGroup[],
  selected: ReadonlySet<string>,
): { ok: true; doc: Workflow } | { ok: false; error: string } {
  const ops = groups.filter((g) => g.key === "order" || selected.has(g.key)).flatMap((g) => g.ops);
  const r = tryApplyOperations(doc, ops);
  return r.ok
    ? { ok: true, doc: r.workflow }
    : { ok: false, error: `This change cannot be applied: ${r.error.message}` };
}

/** Marks per node/edge id: what the proposal adds, changes or removes (edges of removed nodes are removed too). */
export function diffMarks(base: Workflow, groups: readonly OperationGroup[]): Map<string, DiffMark> {
  const marks = new Map<string, DiffMark>();
  const removedNodes = new Set<string>();
  for (const op of groups.flatMap((g) => g.ops)) {
    switch (op.type) {
      case "addNode":
        marks.set(op.node.id, "added");
        break;
      case "addEdge":
        marks.set(op.edge.id, "added");
        break;
      case "removeNode":
        marks.set(op.id, "removed");
        removedNodes.add(op.id);
        break;
      case "removeEdge":
        marks.set(op.id, "removed");
        break;
      case "updateNode":
      case "moveNode":
      case "updateEdge":
        if (!marks.has(op.id)) marks.set(op.id, "changed");
        break;
      default:
        break;
    }
  }
  for (const e of base.edges) if (removedNodes.has(e.source) || removedNodes.has(e.target)) marks.set(e.id, "removed");
  return marks;
}

/**
 * What the canvas shows while a proposal is pending: the proposal, plus the base's nodes and edges it
 * would remove (so removals are visible), with their marks.
 */
export function previewDocument(p: PendingProposal): { doc: Workflow; marks: Map<string, DiffMark> } {
  const marks = diffMarks(p.base, p.groups);
  const inProposal = new Set(p.proposal.nodes.map((n) => n.id));
  const goneNodes = p.base.nodes.filter((n) => !inProposal.has(n.id));
  const nodes = [...p.proposal.nodes, ...goneNodes];
  const ids = new Set(nodes.map((n) => n.id));
  const edgeIds = new Set(p.proposal.edges.map((e) => e.id));
  const goneEdges = p.base.edges.filter((e) => !edgeIds.has(e.id) && ids.has(e.source) && ids.has(e.target));
  for (const e of goneEdges) marks.set(e.id, "removed");
  const baseAgents = p.base.agents.filter((a) => !p.proposal.agents.some((b) => b.key === a.key));
  return {
    doc: {
      ...p.proposal,
      nodes,
      edges: [...p.proposal.edges, ...goneEdges],
      agents: [...p.proposal.agents, ...baseAgents],
    },
    marks,
  };
}

/** Messages per node id for the tools still to create (the visible placeholders). */
export function placeholderIssues(proposal: Workflow, toCreate: readonly ToolToCreate[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const tool of toCreate) {
    const users = new Set(tool.usedBy);
    for (const n of proposal.nodes) {
      const agent = "agent" in n && typeof n.agent === "string" ? n.agent : undefined;
      if (users.has(n.id) || (agent && users.has(agent))) {
        out.set(n.id, [
          ...(out.get(n.id) ?? []),
          `Tool "${tool.name}" does not exist yet: to create${tool.purpose ? ` (${tool.purpose})` : ""}.`,
        ]);
      }
    }
  }
  return out;
}

/**
 * One line per group for the chat panel, e.g. `Add node "fact check"` / `Workflow: add agent "Writer"`.
 * A node is named by its title as the canvas draws it (components/terms nodeTitle: its name, else its
 * id), from the proposal or, for a removed node, from the base document.
 */
export function describeGroup(g: OperationGroup, p?: Pick<PendingProposal, "base" | "proposal">): string {
  if (g.nodeId) {
    const node = p?.proposal.nodes.find((n) => n.id === g.nodeId) ?? p?.base.nodes.find((n) => n.id === g.nodeId);
    return node ? `${g.label.split(" ")[0]} node "${nodeTitle(node)}"` : g.label;
  }
  if (g.key !== "workflow") return g.label;
  const parts = g.ops.map((op) => {
    switch (op.type) {
      case "addAgent":
        return `add agent "${op.agent.name || op.agent.key}"`;
      case "updateAgent":
        return `change agent "${op.key}"`;
      case "removeAgent":
        return `remove agent "${op.key}"`;
      case "setInfo":
        return "name and description";
      default:
        return op.type.slice(3).toLowerCase();
    }
  });
  return `Workflow: ${parts.join(", ")}`;
}
