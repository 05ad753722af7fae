import { describe, expect, it } from "vitest";
import * as validateModule from "@/lib/workflow/validate";
import { agent, doc, fwd } from "@/lib/workflow/testing";
import type { applyOps } from "./editor-ops";
import { editorIssues, onlyPositionsDiffer } from "./validation";
import * as ops from "./editor-ops";

const base = () =>
  doc({
    agents: [agent("writer")],
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 } },
      { id: "w", type: "agent", agent: "writer", position: { x: 200, y: 0 } },
      { id: "end", type: "end", position: { x: 400, y: 0 } },
    ],
    edges: [fwd("start", "next", "w")],
  });

const must = (r: ReturnType<typeof applyOps>) => {
  if (!r.ok) throw new Error(r.error);
  return r.doc;
};

describe("editor validation", () => {
  it("reuses a neighbour's issues when a drag only moved nodes", () => {
    const d0 = base();
    const issues0 = editorIssues(d0);
    expect(issues0.some((i) => i.code === "cannot_reach_terminal")).toBe(true);
    const d1 = must(
      ops.moveNodes(
        new Map([
          ["w", { x: 250, y: 40 }],
          ["end", { x: 500, y: 10 }],
        ]),
      )(d0),
    );
    expect(onlyPositionsDiffer(d0, d1)).toBe(true);
    // The very same array: validate() (which always builds a new one) did not run.
    expect(editorIssues(d1, [d0])).toBe(issues0);
  });

  it("re-validates any other change, and agrees with validate()", () => {
    const d0 = base();
    editorIssues(d0);
    const d1 = must(ops.connect({ source: "w", sourceHandle: "done", target: "end", targetHandle: "in" })(d0));
    expect(onlyPositionsDiffer(d0, d1)).toBe(false);
    const issues1 = editorIssues(d1, [d0]);
    expect(issues1).toEqual(validateModule.validate(d1));
    expect(issues1.some((i) => i.code === "cannot_reach_terminal")).toBe(false);
    const renamed = must(ops.updateNode("w", { name: "Writer" })(d1));
    expect(onlyPositionsDiffer(d1, renamed)).toBe(false);
  });

  it("returns the cached issues for a document seen before (undo/redo)", () => {
    const d0 = base();
    const first = editorIssues(d0);
    expect(editorIssues(d0)).toBe(first);
  });

  it("validates under the editor's context (subflow issues), caching per context", () => {
    const d0 = must(ops.addNode("subflow", { x: 200, y: 100 })(base()));
    const sub = d0.nodes.find((n) => n.type === "subflow")!;
    const d1 = must(ops.updateNode(sub.id, { workflowId: "wf_s", inputs: { colour: "red" } })(d0));
    const context = { workflows: [{ id: "wf_s", name: "Summarise", inputs: [{ key: "topic", required: true }] }] };
    const codes = (issues: readonly { code: string }[]) =>
      issues.map((i) => i.code).filter((c) => c.startsWith("subflow_"));
    expect(codes(editorIssues(d1, [], context))).toEqual(["subflow_unknown_input", "subflow_input_missing"]);
    expect(codes(editorIssues(d1))).toEqual([]); // without context: only "no workflow chosen" is checked
    expect(codes(editorIssues(d0, [], context))).toEqual(["subflow_workflow_missing"]);
    expect(codes(editorIssues(d1, [], { workflows: [] }))).toEqual(["subflow_unknown_workflow"]);
    expect(editorIssues(d1, [], context)).toBe(editorIssues(d1, [], context));
  });
});
