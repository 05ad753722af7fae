import { describe, expect, it } from "vitest";
import { KIND_NAMES } from "./kinds";
import { repairAnswer, resolveKind, slug } from "./repair";
import { answer, agent, edges, end, start, step } from "./fixtures/helpers";

const base = answer({
  summary: "t",
  inputs: ["q"],
  outputs: ["a"],
  patterns: ["sequential"],
  agents: [agent("w", "writer")],
  nodes: [start(), step("write", "w", "Answer {{inputs.q}}", [["ok", "done"], ["again", "retry"]]), end({ a: "{{nodes.write.output}}" })],
  edges: edges("start>write write.ok>end write.again~write"),
});

describe("local repairs", () => {
  it("maps common kind names to real kinds and leaves unknown ones for the model", () => {
    expect(resolveKind("evaluator", KIND_NAMES)).toBe("agent");
    expect(resolveKind("If-Else", KIND_NAMES)).toBe("router");
    expect(resolveKind("majority_vote", KIND_NAMES)).toBeUndefined();
  });

  it("slugs invalid ids", () => {
    expect(slug("Fact checker!")).toBe("Fact_checker_");
    expect(slug("1st step")).toBe("st_step");
  });

  it("renames a duplicate branch and moves the second edge with it", () => {
    const dup = structuredClone(base);
    dup.design.nodes[1]!.branches![1]!.id = "ok";
    dup.design.edges = edges("start>write write.ok>end write.ok~write");
    const { answer: fixed, fixes } = repairAnswer(dup, KIND_NAMES);
    expect(fixed.design.nodes[1]!.branches!.map((b) => b.id)).toEqual(["ok", "ok_2"]);
    expect(fixed.design.edges.find((e) => e.loop)!.branch).toBe("ok_2");
    expect(fixes.map((f) => f.code)).toEqual(["duplicate_branch_id"]);
  });

  it("caps an uncapped loop with a max_iterations variable, else 3", () => {
    const uncapped = structuredClone(base);
    delete uncapped.design.edges[2]!.maxIterations;
    expect(repairAnswer(uncapped, KIND_NAMES).answer.design.edges[2]!.maxIterations).toBe(3);
    uncapped.design.variables = [{ key: "max_iterations", value: 6 }];
    expect(repairAnswer(uncapped, KIND_NAMES).answer.design.edges[2]!.maxIterations).toBe(6);
  });

  it("re-points an edge whose end differs only in case or separators; drops exact duplicates", () => {
    const bad = structuredClone(base);
    bad.design.edges = [...edges("start>Write write.ok>END write.again~write"), ...edges("start>write")];
    const { answer: fixed, fixes } = repairAnswer(bad, KIND_NAMES);
    expect(fixed.design.edges.map((e) => `${e.from}>${e.to}`)).toEqual(["start>write", "write>end", "write>write"]);
    expect(fixes.map((f) => f.code)).toEqual(["dangling_edge", "dangling_edge", "duplicate_edge"]);
  });

  it("leaves an edge to a node that has no obvious match alone (the model fixes it)", () => {
    const bad = structuredClone(base);
    bad.design.edges[1]!.to = "publisher";
    expect(repairAnswer(bad, KIND_NAMES).answer.design.edges[1]!.to).toBe("publisher");
  });

  it("reads common names of a subflow as one, and follows a renamed node id into a subflow's inputs", () => {
    expect(resolveKind("sub_workflow", KIND_NAMES)).toBe("subflow");
    expect(resolveKind("Workflow", KIND_NAMES)).toBe("subflow");
    const named = structuredClone(base);
    named.design.nodes.splice(2, 0, { id: "run", kind: "subworkflow", args: { workflowId: "wf_article", inputs: { topic: "{{nodes.1st_draft.output}}", n: 3 } } });
    named.design.nodes[1]!.id = "1st_draft";
    named.design.edges = edges("start>1st_draft 1st_draft.ok>run run>end 1st_draft.again~1st_draft");
    const { answer: fixed, fixes } = repairAnswer(named, KIND_NAMES);
    expect(fixed.design.nodes[2]).toMatchObject({ id: "run", kind: "subflow", args: { workflowId: "wf_article", inputs: { topic: "{{nodes.st_draft.output}}", n: 3 } } });
    expect(fixes.map((f) => f.code)).toEqual(["invalid_id", "unknown_node_kind"]);
  });
});
