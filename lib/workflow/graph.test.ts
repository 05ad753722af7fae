import { describe, expect, it } from "vitest";
import {
  buildGraph,
  exclusivelyThrough,
  forwardAncestors,
  forwardCycles,
  goesBack,
  nodesReachingTerminal,
  propagateDeadEdges,
  reachableFromStart,
  topologicalOrder,
  upstreamOf,
} from "./graph";
import { doc, fwd, loop } from "./testing";

const a = (id: string, branches = ["done"]) => ({
  id,
  type: "agent" as const,
  agent: "x",
  branches: branches.map((b) => ({ id: b })),
});

// start → r {left → L, right → R}; L, R → J (join) → end; J:retry loops to r; orphan is disconnected.
const diamond = doc({
  nodes: [
    { id: "start", type: "start" },
    a("r", ["left", "right"]),
    a("L"),
    a("R"),
    a("J", ["done", "retry"]),
    { id: "end", type: "end" },
    a("orphan"),
  ],
  edges: [
    fwd("start", "next", "r"),
    fwd("r", "left", "L"),
    fwd("r", "right", "R"),
    fwd("L", "done", "J"),
    fwd("R", "done", "J"),
    fwd("J", "done", "end"),
    loop("J", "retry", "r"),
    fwd("ghost", "done", "end"),
  ],
});
const g = buildGraph(diamond);

describe("graph", () => {
  it("separates forward and loop adjacency and ignores dangling edges", () => {
    expect(g.forwardIn.get("J")?.map((e) => e.source)).toEqual(["L", "R"]);
    expect(g.loopOut.get("J")?.map((e) => e.target)).toEqual(["r"]);
    expect(g.forwardIn.get("end")?.length).toBe(1);
  });

  it("computes reachability from start and towards terminals", () => {
    expect([...reachableFromStart(g)].sort()).toEqual(["J", "L", "R", "end", "r", "start"]);
    expect(nodesReachingTerminal(g).has("orphan")).toBe(false);
    expect(nodesReachingTerminal(g).has("r")).toBe(true);
  });

  it("orders the forward DAG topologically", () => {
    const { order, cyclic } = topologicalOrder(g);
    expect(cyclic).toEqual([]);
    expect(order.indexOf("r")).toBeLessThan(order.indexOf("L"));
    expect(order.indexOf("L")).toBeLessThan(order.indexOf("J"));
    expect(order.indexOf("J")).toBeLessThan(order.indexOf("end"));
  });

  it("distinguishes nodes that always vs possibly precede a node", () => {
    const up = upstreamOf(g, "J");
    expect([...up.always].sort()).toEqual(["r", "start"]);
    expect([...up.possibly].sort()).toEqual(["L", "R", "r", "start"]);
    expect([...upstreamOf(g, "L").always].sort()).toEqual(["r", "start"]);
  });

  it("knows whether a loop edge goes back", () => {
    expect(goesBack(g, { source: "J", target: "r" })).toBe(true);
    expect(goesBack(g, { source: "J", target: "J" })).toBe(true);
    expect(goesBack(g, { source: "L", target: "R" })).toBe(false);
    expect(forwardAncestors(g, "r")).toEqual(new Set(["start"]));
  });

  it("finds forward cycles with the closing edge", () => {
    const cyclic = buildGraph(
      doc({
        nodes: [{ id: "start", type: "start" }, a("x"), a("y")],
        edges: [fwd("start", "next", "x"), fwd("x", "done", "y"), fwd("y", "done", "x")],
      }),
    );
    expect(forwardCycles(cyclic).map((c) => ({ edge: c.edge.id, cycle: c.cycle }))).toEqual([
      { edge: "y-done-x", cycle: ["x", "y"] },
    ]);
    expect(topologicalOrder(cyclic).cyclic).toEqual(["x", "y"]);
    expect(forwardCycles(g)).toEqual([]);
  });

  it("finds the nodes reachable only through one branch", () => {
    expect([...exclusivelyThrough(g, "r", "left")]).toEqual(["L"]);
    const chain = buildGraph(
      doc({
        nodes: [{ id: "start", type: "start" }, a("r", ["yes", "no"]), a("y1"), a("y2"), { id: "end", type: "end" }],
        edges: [
          fwd("start", "next", "r"),
          fwd("r", "yes", "y1"),
          fwd("y1", "done", "y2"),
          fwd("y2", "done", "end"),
          fwd("r", "no", "end"),
        ],
      }),
    );
    expect([...exclusivelyThrough(chain, "r", "yes")].sort()).toEqual(["y1", "y2"]);
    expect([...exclusivelyThrough(chain, "r", "no")]).toEqual([]);
  });

  it("propagates dead edges transitively but never past a live join input", () => {
    const { skipped, deadEdges } = propagateDeadEdges(g, ["r-left-L"]);
    expect([...skipped]).toEqual(["L"]);
    expect(deadEdges.has("L-done-J")).toBe(true);
    const both = propagateDeadEdges(g, ["r-left-L", "r-right-R"]);
    expect([...both.skipped].sort()).toEqual(["J", "L", "R", "end"]);
  });
});
