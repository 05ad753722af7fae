import { buildGraph, nodesReachingTerminal, reachableFromStart } from "@/lib/workflow/graph";
import { MIN_BRANCHES, isTerminal, outcomesOf, type NodeOf, type WorkflowNode } from "@/lib/workflow/schema";
import { fix } from "./fixes";
import type { Draft } from "./repair-graph";
import { resolveRef, slug, uniqueId } from "./resolve";

/**
 * Wiring repairs, in the answer's node order (models list nodes in flow order): an unreachable node is
 * wired from the outcome named like it, else as a sibling of the node listed before it (a new route
 * when that sibling hangs off a router), else from a router short of branches, else from the nearest
 * earlier node with an unwired outcome, else after the nearest earlier node, else from start. Then
 * every unwired outcome goes to the terminal named like it, else the next unreachable terminal, else
 * the first end; nodes that can only loop get a way out; loops that continue get something to continue on.
 */

type Branching = NodeOf<"agent" | "router" | "human">;
const branching = (n: WorkflowNode): n is Branching => n.type === "agent" || n.type === "router" || n.type === "human";

const reached = (d: Draft) => reachableFromStart(buildGraph(d.wf));
const label = (n: WorkflowNode) => n.name || n.id;

/** Outcomes of `n` with no edge at all (a tool's optional `error` is not counted). */
function unwired(d: Draft, n: WorkflowNode): string[] {
  const wired = new Set(d.wf.edges.filter((e) => e.source === n.id).map((e) => e.sourceHandle));
  return outcomesOf(n).filter((h) => !wired.has(h) && !(n.type === "tool" && h === "error"));
}

/** Adds a branch to a branching node for `target`; returns its id. */
function addBranch(d: Draft, node: Branching, target: WorkflowNode): string {
  const id = uniqueId(slug(target.id, "route"), new Set(node.branches.map((b) => b.id)));
  d.replaceNode({ ...node, branches: [...node.branches, { id, label: label(target), condition: "" }] } as WorkflowNode);
  d.fixes.push(
    fix(
      "branch_added",
      `${node.type === "router" ? "Router" : "Node"} "${node.id}" got a branch "${id}" to "${target.id}".`,
      "unreachable_node",
    ),
  );
  return id;
}

/** The outcome to leave `from` by for a new target: a new branch of a router; else its first outcome no loop takes. */
function handleFor(d: Draft, from: WorkflowNode, u: WorkflowNode): string {
  if (from.type === "router") return addBranch(d, from, u);
  const looped = new Set(
    d.wf.edges.filter((e) => e.source === from.id && e.kind === "loop").map((e) => e.sourceHandle),
  );
  const free = outcomesOf(from).find((h) => !looped.has(h));
  if (free !== undefined) return free;
  return branching(from) ? addBranch(d, from, u) : (outcomesOf(from)[0] ?? "done");
}

/** Wires `from` to `u` (a new branch when `from` is a router), reporting why. */
function wireFrom(d: Draft, from: WorkflowNode, u: WorkflowNode, why: string, handle?: string): void {
  const h = handle ?? handleFor(d, from, u);
  d.connect(from.id, h, u.id);
  d.fixes.push(
    fix("node_wired", `Node "${u.id}" was not reachable: wired from "${from.id}" (${h}), ${why}.`, "unreachable_node"),
  );
}

const successors = (d: Draft, id: string) =>
  new Set(d.wf.edges.filter((e) => e.source === id && e.kind === "forward").map((e) => e.target));

/** Tries the rules of the module comment in order; false when none applies (a terminal no outcome names). */
function wireInto(d: Draft, u: WorkflowNode, live: Set<string>): boolean {
  const at = d.wf.nodes.indexOf(u);
  const earlier = d.wf.nodes
    .slice(0, Math.max(at, 0))
    .reverse()
    .filter((n) => live.has(n.id) && !isTerminal(n));
  const others = d.wf.nodes.filter((n) => live.has(n.id) && !isTerminal(n) && !earlier.includes(n));
  for (const n of [...earlier, ...others]) {
    const named = unwired(d, n).find((h) => resolveRef(h, [{ id: u.id, aliases: [u.name] }]));
    if (named) return (wireFrom(d, n, u, `whose outcome "${named}" names it`, named), true);
  }
  if (!isTerminal(u)) {
    const mine = successors(d, u.id);
    const sibling = earlier.find((p) => [...successors(d, p.id)].some((t) => mine.has(t)));
    const into = sibling && d.wf.edges.find((e) => e.target === sibling.id && e.kind === "forward");
    const parent = into && d.node(into.source);
    if (sibling && into && parent) {
      return (
        wireFrom(
          d,
          parent,
          u,
          `like its sibling "${sibling.id}"`,
          parent.type === "router" ? undefined : into.sourceHandle,
        ),
        true
      );
    }
    const short = earlier.find(
      (r): r is NodeOf<"router"> => r.type === "router" && r.branches.length < MIN_BRANCHES.router,
    );
    if (short) return (wireFrom(d, short, u, "a router short of branches"), true);
  }
  const open = earlier.find((n) => unwired(d, n).length > 0);
  if (open)
    return (wireFrom(d, open, u, "the nearest earlier node with an unwired outcome", unwired(d, open)[0]), true);
  if (isTerminal(u)) return false;
  const before = earlier[0];
  if (before) return (wireFrom(d, before, u, "after the node listed before it"), true);
  const start = d.wf.nodes.find((n) => n.type === "start");
  if (start) return (wireFrom(d, start, u, "from the start", "next"), true);
  return false;
}

/** Every node reachable from start: the rules above, one unreachable node at a time. */
export function wireUnreachable(d: Draft): void {
  const skipped = new Set<string>();
  for (let guard = 0; guard <= d.wf.nodes.length * 2; guard++) {
    const live = reached(d);
    const dead = d.wf.nodes.filter((n) => !live.has(n.id) && !skipped.has(n.id));
    const fedByDead = (n: WorkflowNode) =>
      d.wf.edges.some((e) => e.target === n.id && dead.some((x) => x.id === e.source && x.id !== n.id));
    const u = dead.find((n) => !isTerminal(n) && !fedByDead(n)) ?? dead.find((n) => !isTerminal(n)) ?? dead[0];
    if (!u) return;
    if (!wireInto(d, u, live)) skipped.add(u.id);
  }
}

/** A router still short of branches gets an "otherwise" one (wired next, like any unwired outcome). */
export function routerMinimum(d: Draft): void {
  for (const n of d.wf.nodes) {
    if (n.type !== "router" || n.branches.length >= MIN_BRANCHES.router) continue;
    const taken = new Set(n.branches.map((b) => b.id));
    const added = Array.from({ length: MIN_BRANCHES.router - n.branches.length }, () => ({
      id: uniqueId("otherwise", taken),
      label: "Otherwise",
      condition: "",
    }));
    d.replaceNode({ ...n, branches: [...n.branches, ...added] });
    d.fixes.push(
      fix(
        "branch_added",
        `Router "${n.id}" had ${n.branches.length} branch${n.branches.length === 1 ? "" : "es"}: added ${added.map((b) => `"${b.id}"`).join(", ")}.`,
        "router_too_few_branches",
      ),
    );
  }
}

/** The terminal an unwired outcome should end in (see the module comment). */
function terminalFor(d: Draft, n: WorkflowNode, handle: string, live: Set<string>) {
  const terminals = d.wf.nodes.filter(isTerminal);
  const named = resolveRef(
    handle,
    terminals.map((t) => ({ id: t.id, aliases: [t.name] })),
  );
  if (named && named.how !== "exact") return d.node(named.id);
  const after = d.wf.nodes.slice(d.wf.nodes.indexOf(n) + 1);
  return (
    after.find((t) => isTerminal(t) && !live.has(t.id)) ??
    terminals.find((t) => t.type === "end" && live.has(t.id)) ??
    terminals.find((t) => t.type === "end")
  );
}

/** Every outcome of a reachable node leads somewhere. */
export function wireOutcomes(d: Draft): void {
  for (const id of d.wf.nodes.map((n) => n.id)) {
    const live = reached(d);
    const n = d.node(id);
    if (!n || !live.has(id) || isTerminal(n)) continue;
    for (const handle of unwired(d, n)) {
      const target = terminalFor(d, n, handle, live);
      if (!target) continue;
      d.connect(n.id, handle, target.id);
      d.fixes.push(
        fix(
          "outcome_wired",
          `${branching(n) ? "Branch" : "Outcome"} "${handle}" of "${n.id}" was not wired: it ends in "${target.id}".`,
          "unwired_branch",
        ),
      );
    }
  }
}

/** Terminals still unreachable are removed, once a reachable end exists (else the last step leads to one first). */
export function strayTerminals(d: Draft): void {
  const stray = () => d.wf.nodes.filter((n) => isTerminal(n) && !reached(d).has(n.id));
  if (stray().length === 0) return;
  if (!d.wf.nodes.some((n) => n.type === "end" && reached(d).has(n.id))) {
    const end = stray().find((n) => n.type === "end");
    const last = [...d.wf.nodes].reverse().find((n) => reached(d).has(n.id) && !isTerminal(n));
    if (!end || !last) return;
    wireFrom(d, last, end, "so that a run can succeed");
  }
  const gone = new Set(stray().map((n) => n.id));
  if (gone.size === 0) return;
  for (const n of d.wf.nodes.filter((x) => gone.has(x.id))) {
    d.fixes.push(
      fix(
        "node_removed",
        `${n.type === "end" ? "End" : "Abort"} node "${n.id}" was unreachable: removed.`,
        "unreachable_node",
      ),
    );
  }
  d.setNodes(d.wf.nodes.filter((n) => !gone.has(n.id)));
  d.setEdges(d.wf.edges.filter((e) => !gone.has(e.target) && !gone.has(e.source)));
}

/** A reachable node that can only loop gets a way out: a branch to an end, or (one outcome) its loop dropped. */
export function loopExits(d: Draft): void {
  for (let guard = 0; guard <= d.wf.nodes.length; guard++) {
    const graph = buildGraph(d.wf);
    const finishing = nodesReachingTerminal(graph);
    const live = reachableFromStart(graph);
    const stuck = d.wf.nodes.find((n) => live.has(n.id) && !isTerminal(n) && !finishing.has(n.id));
    const end = d.wf.nodes.find((n) => n.type === "end");
    if (!stuck || !end) return;
    if (branching(stuck)) {
      const id = uniqueId("finish", new Set(stuck.branches.map((b) => b.id)));
      d.replaceNode({
        ...stuck,
        branches: [...stuck.branches, { id, label: "Finish", condition: "" }],
      } as WorkflowNode);
      d.connect(stuck.id, id, end.id);
      d.fixes.push(
        fix(
          "branch_added",
          `"${stuck.id}" could never reach an end: added branch "${id}" to "${end.id}".`,
          "cannot_reach_terminal",
        ),
      );
      continue;
    }
    const handle = outcomesOf(stuck)[0] ?? "done";
    d.setEdges(d.wf.edges.filter((e) => !(e.source === stuck.id && e.kind === "loop")));
    d.connect(stuck.id, handle, end.id);
    d.fixes.push(
      fix(
        "loop_fixed",
        `"${stuck.id}" could only loop: its loop was dropped and "${handle}" leads to "${end.id}".`,
        "cannot_reach_terminal",
      ),
    );
  }
}

/** A loop that continues when exhausted continues on a wired outcome of its source, else aborts. */
export function loopContinuations(d: Draft): void {
  const wiredFrom = (id: string) =>
    new Set(d.wf.edges.filter((e) => e.source === id && e.kind === "forward").map((e) => e.sourceHandle));
  d.setEdges(
    d.wf.edges.map((e) => {
      if (e.kind !== "loop" || e.onExhausted !== "continue") return e;
      const source = d.node(e.source);
      const others = source ? outcomesOf(source).filter((o) => o !== e.sourceHandle) : [];
      const wired = wiredFrom(e.source);
      const chosen = e.continueWith ?? others[0];
      if (chosen !== undefined && others.includes(chosen) && wired.has(chosen)) return e;
      const { continueWith: _drop, ...rest } = e;
      const alt = others.find((o) => wired.has(o));
      d.fixes.push(
        fix(
          "loop_fixed",
          alt
            ? `Loop edge ${e.source} -> ${e.target} continues on "${alt}" when exhausted.`
            : `Loop edge ${e.source} -> ${e.target} has nothing to continue on: it aborts when exhausted.`,
          "loop_continue_unwired",
        ),
      );
      return alt
        ? { ...rest, ...(alt !== others[0] ? { continueWith: alt } : {}) }
        : { ...rest, onExhausted: "abort" as const };
    }),
  );
}
