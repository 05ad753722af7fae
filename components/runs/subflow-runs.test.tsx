import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/engine/events";
import type { RunInfoView } from "@/lib/run-views/dto";
import { applyEnvelope, initialRunState, subflowSteps, type RunState } from "./run-fold";
import { StepInspector } from "./step-inspector";
import { startedSubflowTargets, SubflowRuns } from "./subflow-runs";

const run: RunInfoView = {
  id: "parent1",
  status: "running",
  reason: null,
  workflowName: "Parent",
  version: 1,
  promptTokens: 0,
  completionTokens: 0,
  createdAt: "2026-01-01T00:00:00.000Z",
  startedAt: "2026-01-01T00:00:00.000Z",
  finishedAt: null,
  trigger: "manual",
};

/** A run whose subflow step `sub` started the child run `runId` ("" as a share view gets it). */
function folded(runId: string): RunState {
  const state = initialRunState(run, []);
  const events: RunEvent[] = [
    { type: "step_started", nodeId: "sub", iteration: 1, attempt: 1, kind: "subflow" },
    {
      type: "subflow_started",
      nodeId: "sub",
      iteration: 1,
      runId,
      workflowId: runId ? "wf_s" : "",
      workflowName: "Summarise",
    },
  ];
  events.forEach((event, i) =>
    applyEnvelope(state, { runId: "parent1", seq: i + 1, at: "2026-01-01T00:00:01.000Z", event }),
  );
  return state;
}

const nodeName = (id: string) => (id === "sub" ? "Summary" : id);

describe("SubflowRuns", () => {
  it("owner: each subflow step says which workflow it runs, linked to the child run, and that it waits until its run ends", () => {
    const html = renderToStaticMarkup(<SubflowRuns steps={subflowSteps(folded("child1"))} nodeName={nodeName} link />);
    expect(html).toContain('data-testid="subflow-step-sub"');
    expect(html).toContain("Summary");
    expect(html).toMatch(
      /<a[^>]*data-testid="subflow-run-link"[^>]*href="\/runs\/child1"[^>]*>Runs <span data-testid="subflow-workflow-name">Summarise<\/span><\/a>/,
    );
    // the status in the shared words (components/terms), and what it waits for
    expect(html).toMatch(/data-status="waiting"[^>]*>waiting<\/span>/);
    expect(html).toContain("until its run ends");
  });

  it("share: the workflow's name only, never a link (the child run is the owner's)", () => {
    for (const state of [folded(""), folded("child1")]) {
      const html = renderToStaticMarkup(<SubflowRuns steps={subflowSteps(state)} nodeName={nodeName} link={false} />);
      expect(html).toContain('Runs <span data-testid="subflow-workflow-name">Summarise</span>');
      expect(html).not.toContain("<a");
      expect(html).not.toContain("child1");
    }
    // a share view's runId is "": no link even if asked for one
    expect(
      renderToStaticMarkup(<SubflowRuns steps={subflowSteps(folded(""))} nodeName={nodeName} link />),
    ).not.toContain("<a");
  });
});

describe("StepInspector of a subflow step", () => {
  it("shows the run it started (linked for the owner) while it waits, and no question", () => {
    const step = folded("child1").steps.get("sub#1")!;
    const owner = renderToStaticMarkup(<StepInspector step={step} nodeName={nodeName} showContent linkRuns />);
    expect(owner).toContain("Subflow (waiting for its run to end)");
    expect(owner).toMatch(/data-testid="step-subflow"><a[^>]*href="\/runs\/child1"/);
    expect(owner).not.toContain("Question");
    const shared = renderToStaticMarkup(<StepInspector step={step} nodeName={nodeName} showContent={false} />);
    expect(shared).toContain('Runs <span data-testid="subflow-workflow-name">Summarise</span>');
    expect(shared).not.toContain('href="/runs/child1"');
  });
});

describe("the workflows a run's subflow steps started", () => {
  it("name the canvas's subflow nodes on the owner's run page: each workflow once, the rest unknown (partial)", () => {
    const steps = [...subflowSteps(folded("child1")), ...subflowSteps(folded("child2"))];
    expect(startedSubflowTargets(steps)).toEqual({
      partial: true,
      targets: [{ id: "wf_s", name: "Summarise", version: null, inputs: [], outputs: [] }],
    });
    expect(startedSubflowTargets(subflowSteps(folded("")))).toEqual({ partial: true, targets: [] });
  });

  it("add the workflows the document names before their steps start; a started step keeps the name it started with", () => {
    const targets = startedSubflowTargets(subflowSteps(folded("child1")), {
      wf_s: "Summarise (renamed)",
      wf_t: "Translate",
    });
    expect(targets.targets.map((t) => [t.id, t.name])).toEqual([
      ["wf_s", "Summarise"],
      ["wf_t", "Translate"],
    ]);
    expect(startedSubflowTargets([], { wf_t: "Translate" }).targets.map((t) => t.name)).toEqual(["Translate"]);
  });
});
