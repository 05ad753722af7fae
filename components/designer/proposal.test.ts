import { describe, expect, it } from "vitest";
import type { DesignerEvent, DesignResult } from "@/lib/designer/events";
import { corpus, CORPUS_CONTEXT } from "@/lib/designer/fixtures/corpus";
import { design } from "@/lib/designer/pipeline";
import { replayModel } from "@/lib/designer/replay";
import { validate } from "@/lib/workflow/validate";
import { workflowSchema, type Workflow } from "@/lib/workflow/schema";
import { describeEvent, NO_JSON_HINT } from "./describe-event";
import {
  acceptGroups,
  choosableGroups,
  diffMarks,
  groupDependencies,
  isBlankDocument,
  placeholderIssues,
  previewDocument,
  proposalGroups,
  toggleGroup,
  type PendingProposal,
} from "./proposal";
import { ndjsonSplitter } from "./stream";

/** The editor's blank draft (lib/db/workflows blankWorkflowDocument). */
const blank = (): Workflow =>
  workflowSchema.parse({
    name: "Untitled workflow",
    nodes: [
      { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 } },
      { id: "end", type: "end", name: "End", position: { x: 320, y: 0 } },
    ],
    edges: [{ id: "e_start_end", source: "start", sourceHandle: "next", target: "end" }],
  });

/** Runs the real pipeline on a corpus entry's recorded transcript; returns the events and the result. */
async function run(id: string, workflow?: Workflow): Promise<{ events: DesignerEvent[]; result: DesignResult }> {
  const entry = corpus.find((c) => c.id === id);
  if (!entry) throw new Error(`no corpus entry ${id}`);
  const events: DesignerEvent[] = [];
  for await (const e of design(
    { message: entry.request, ...(workflow ? { workflow } : {}) },
    { model: replayModel(entry.transcript), context: CORPUS_CONTEXT },
  ))
    events.push(e);
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error(`${id} did not finish: ${JSON.stringify(last)}`);
  return { events, result: last.result };
}

const pending = (base: Workflow, result: DesignResult): PendingProposal => ({
  base,
  proposal: result.workflow,
  groups: proposalGroups(base, result.workflow, result),
  summary: result.summary,
  toCreate: result.toCreate,
});

const strip = (wf: Workflow) => JSON.parse(JSON.stringify(wf)) as unknown;

describe("designer proposal on the canvas", () => {
  it("a new design accepted onto a blank draft becomes exactly the proposal (one document, valid)", async () => {
    const draft = blank();
    expect(isBlankDocument(draft)).toBe(true);
    const { result } = await run("n01-article");
    const p = pending(draft, result);
    const accepted = acceptGroups(draft, p.groups, new Set(p.groups.map((g) => g.key)));
    expect(accepted.ok).toBe(true);
    if (!accepted.ok) return;
    expect(strip(accepted.doc)).toEqual(strip(result.workflow));
    expect(validate(accepted.doc).filter((i) => i.severity === "error")).toEqual([]);
    expect(isBlankDocument(accepted.doc)).toBe(false);
    // The preview marks the designed agents as added and shows the blank draft's start→end edge as removed.
    const { doc, marks } = previewDocument(p);
    for (const id of ["research", "outline", "review", "write"]) expect(marks.get(id)).toBe("added");
    expect(marks.get("e_start_end")).toBe("removed");
    expect(doc.edges.some((e) => e.id === "e_start_end")).toBe(true);
  });

  it("an edit shows one added node; accepting part of it keeps untouched nodes and positions", async () => {
    const { result: first } = await run("n01-article");
    const base = first.workflow;
    const { result } = await run("e01-fact-checker", base);
    const p = pending(base, result);
    expect(p.groups).toBe(result.changes);
    const marks = diffMarks(base, p.groups);
    const addedNodes = result.workflow.nodes.filter((n) => marks.get(n.id) === "added").map((n) => n.id);
    expect(addedNodes).toEqual(["fact_check"]);
    expect(base.nodes.filter((n) => marks.has(n.id)).map((n) => n.id)).toEqual([]);

    // The fact-check node needs the workflow group (it adds the fact_checker agent).
    const nodeGroup = choosableGroups(p.groups).find((g) => g.nodeId === "fact_check")!;
    expect(groupDependencies(p.groups).get(nodeGroup.key)).toEqual(new Set(["workflow"]));
    const onlyNode = toggleGroup(p.groups, new Set(), nodeGroup.key);
    expect(onlyNode).toEqual(new Set([nodeGroup.key, "workflow"]));
    expect(toggleGroup(p.groups, onlyNode, "workflow")).toEqual(new Set());

    // Accept the agent and the new node (with its edges) but not the rest.
    const partial = acceptGroups(base, p.groups, onlyNode);
    expect(partial.ok).toBe(true);
    if (!partial.ok) return;
    expect(partial.doc.nodes.map((n) => n.id)).toContain("fact_check");
    for (const n of base.nodes) expect(partial.doc.nodes.find((m) => m.id === n.id)).toEqual(n);
    const all = acceptGroups(base, p.groups, new Set(p.groups.map((g) => g.key)));
    expect(all.ok && strip(all.doc)).toEqual(strip(result.workflow));
    expect(choosableGroups(p.groups).length).toBeGreaterThan(1);
  });

  it("tools to create are visible placeholders on the nodes that use them", () => {
    const wf = workflowSchema.parse({
      nodes: [
        { id: "start", type: "start" },
        { id: "a", type: "agent", agent: "scraper", branches: [{ id: "done" }] },
        { id: "end", type: "end" },
      ],
      agents: [{ key: "scraper", name: "Scraper", tools: [{ name: "scrape_site", placeholder: true }] }],
    });
    const issues = placeholderIssues(wf, [{ name: "scrape_site", purpose: "scrape a site", usedBy: ["scraper"] }]);
    expect(issues.get("a")?.[0]).toContain("scrape_site");
    expect(issues.has("start")).toBe(false);
  });

  it("every streamed event reads as a chat line (stage, proposal, done)", async () => {
    const { events } = await run("n01-article");
    const lines = events.map(describeEvent);
    expect(lines[0]!.text).toMatch(/Profiling the request/);
    expect(lines.find((l) => l.type === "proposal")!.text).toMatch(/^Proposed: Article writer/);
    expect(lines.at(-1)!.text).toMatch(/^Ready: .* 6 added/);
  });

  it("a design that failed only for want of JSON says what to change; other failures do not", () => {
    const usage = { calls: 4, promptTokens: 1, completionTokens: 1 };
    const noJson = describeEvent({
      type: "failed",
      reason: "invalid",
      message: "Still invalid after 3 repairs.",
      issues: [{ code: "unparseable_answer", message: "no JSON object" }],
      usage,
    });
    expect(noJson.details).toEqual(["unparseable_answer: no JSON object", NO_JSON_HINT]);
    const graph = describeEvent({
      type: "failed",
      reason: "invalid",
      message: "Still invalid after 3 repairs.",
      issues: [
        { code: "unparseable_answer", message: "x" },
        { code: "unwired_branch", message: "y" },
      ],
      usage,
    });
    expect(graph.details).not.toContain(NO_JSON_HINT);
  });

  it("NDJSON lines split across chunks parse once each", () => {
    const split = ndjsonSplitter();
    expect(split('{"a":1}\n{"b"')).toEqual([{ a: 1 }]);
    expect(split(":2}\n")).toEqual([{ b: 2 }]);
    expect(split('{"c":3}', true)).toEqual([{ c: 3 }]);
  });
});
