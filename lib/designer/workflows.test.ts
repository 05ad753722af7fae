import { describe, expect, it } from "vitest";
import { workflowSchema } from "@/lib/workflow/schema";
import { SAVED_WORKFLOWS } from "./fixtures/workflows";
import {
  MAX_OFFERED_WORKFLOWS,
  offeredWorkflows,
  subflowRepairNotes,
  workflowLine,
  workflowsSection,
  type WorkflowCandidate,
} from "./workflows";

const candidate = (id: string, name: string, extra: Partial<WorkflowCandidate> = {}): WorkflowCandidate => ({
  id,
  name,
  version: 1,
  inputs: [],
  outputs: [],
  ...extra,
});

describe("saved workflows offered to the designer", () => {
  it("offers only workflows with a saved version, never the one being edited", () => {
    const list = [
      candidate("a", "Alpha"),
      candidate("draft", "Draft only", { version: null }),
      candidate("self", "Being edited"),
    ];
    expect(offeredWorkflows(list, { exclude: "self" }).map((w) => w.id)).toEqual(["a"]);
  });

  it("ranks the edited graph's workflows, then those the request names, then the most recently updated, and caps the list", () => {
    const day = (d: number) => new Date(Date.UTC(2025, 0, d));
    const list = [
      candidate("old", "Newsletter", { updatedAt: day(1) }),
      candidate("new", "Invoice checker", { updatedAt: day(9) }),
      candidate("article", "Article writer", { updatedAt: day(2) }),
      candidate("used", "Translator", { updatedAt: day(3) }),
      candidate("about", "Helper", { description: "writes an article summary", updatedAt: day(4) }),
    ];
    const offered = offeredWorkflows(list, {
      message: "Run my Article writer on two topics and compare",
      prefer: ["used"],
    });
    expect(offered.map((w) => w.id)).toEqual(["used", "article", "about", "new", "old"]);
    expect(offeredWorkflows(list, { limit: 2 }).map((w) => w.id)).toEqual(["new", "about"]);
    const many = Array.from({ length: 40 }, (_, i) => candidate(`w${i}`, `Workflow ${i}`));
    expect(offeredWorkflows(many)).toHaveLength(MAX_OFFERED_WORKFLOWS);
    expect(offeredWorkflows(many, { message: "use workflow 37" })[0]!.id).toBe("w37");
  });

  it("keeps what the context needs of each, dropping a blank description", () => {
    const [w] = offeredWorkflows([
      candidate("a", "Alpha", {
        description: "  ",
        updatedAt: new Date(),
        inputs: SAVED_WORKFLOWS[0]!.inputs,
        outputs: [{ key: "x" }],
      }),
    ]);
    expect(w).toEqual({ id: "a", name: "Alpha", inputs: SAVED_WORKFLOWS[0]!.inputs, outputs: [{ key: "x" }] });
  });

  it("reads as one line each: id, name, one-line description, key:type inputs (* = required), outputs", () => {
    expect(
      workflowLine({ id: "a", name: "Alpha", description: `${"long ".repeat(40)}end`, inputs: [], outputs: [] }),
    ).toMatch(/^- a: Alpha \((long ){23}long…\); inputs none; outputs none$/);
    expect(workflowsSection([])).toBe("");
    expect(workflowsSection(undefined)).toBe("");
    expect(workflowsSection(SAVED_WORKFLOWS).split("\n")).toHaveLength(3);
  });
});

describe("repair notes for subflow issues", () => {
  const doc = workflowSchema.parse({
    nodes: [
      { id: "start", type: "start" },
      { id: "a", type: "subflow", workflowId: "wf_article", inputs: {} },
      { id: "b", type: "subflow", workflowId: "wf_gone", inputs: {} },
      { id: "c", type: "subflow", workflowId: "wf_unsaved", inputs: { x: "1" } },
      { id: "end", type: "end" },
    ],
  });
  const known = [{ id: "wf_unsaved", name: "Unsaved", inputs: [{ key: "q", required: true }] }];

  it("give the inputs of the workflow a subflow runs, or the ids a subflow may run", () => {
    const notes = subflowRepairNotes(
      [
        { code: "subflow_input_missing", nodeId: "a" },
        { code: "subflow_unknown_input", nodeId: "a" },
        { code: "subflow_unknown_workflow", nodeId: "b" },
        { code: "subflow_unknown_input", nodeId: "c" },
        { code: "unwired_branch", nodeId: "a" },
      ],
      doc,
      SAVED_WORKFLOWS,
      known,
    );
    expect(notes).toEqual([
      'Subflow "a" runs wf_article (Article writer): inputs topic:string*, tone:string (* = required).',
      "A subflow's workflowId is one of: wf_article (Article writer), wf_triage (Support triage).",
      'Subflow "c" runs wf_unsaved (Unsaved): inputs q* (* = required).',
    ]);
  });

  it("are none without subflow issues, and say so when no workflow can be run", () => {
    expect(subflowRepairNotes([{ code: "unwired_branch", nodeId: "a" }], doc, SAVED_WORKFLOWS)).toEqual([]);
    expect(subflowRepairNotes([{ code: "subflow_workflow_missing", nodeId: "b" }], doc, [])).toEqual([
      "No saved workflow can be run as a subflow here.",
    ]);
  });
});
