import { describe, expect, it } from "vitest";
import { runEventSchema, type RunEventInput } from "@/lib/engine/events";
import { applyRunEvent, initialRunView, type RunView } from "./run-overlay";

const play = (view: RunView, events: RunEventInput[]) =>
  events.reduce((v, e, i) => applyRunEvent(v, i + 1, runEventSchema.parse(e)), view);

describe("run overlay", () => {
  it("follows scenario A: outline runs twice (iteration 2), everything succeeds, tokens add up", () => {
    const ids = ["start", "outline", "evaluate", "write", "end"];
    const v = play(initialRunView(ids), [
      { type: "run_started", inputs: { topic: "x" } },
      { type: "step_started", nodeId: "outline", iteration: 1, attempt: 1, kind: "agent" },
      { type: "step_finished", nodeId: "outline", iteration: 1, status: "succeeded" },
      { type: "loop_iteration", edgeId: "l", source: "evaluate", target: "outline", iteration: 2, maxIterations: 3 },
      { type: "step_started", nodeId: "outline", iteration: 2, attempt: 1, kind: "agent" },
      {
        type: "tokens_used",
        nodeId: "outline",
        iteration: 2,
        model: "m",
        promptTokens: 5,
        completionTokens: 7,
        runPromptTokens: 12,
        runCompletionTokens: 20,
      },
    ]);
    expect(v.nodes.get("outline")).toEqual({
      status: "running",
      iteration: 2,
      history: ["running", "succeeded", "running"],
    });
    expect(v.nodes.get("write")).toEqual({ status: "pending", iteration: 1 });
    expect([v.status, v.promptTokens, v.completionTokens]).toEqual(["running", 12, 20]);
    const done = play(v, []);
    const finished = applyRunEvent(
      applyRunEvent(
        done,
        7,
        runEventSchema.parse({ type: "step_finished", nodeId: "outline", iteration: 2, status: "succeeded" }),
      ),
      8,
      runEventSchema.parse({ type: "run_finished", status: "succeeded", reason: "end reached" }),
    );
    expect(finished.nodes.get("outline")).toEqual({
      status: "succeeded",
      iteration: 2,
      history: ["running", "succeeded", "running", "succeeded"],
    });
    expect(finished.status).toBe("succeeded");
  });

  it("keeps every state a node went through, however the events arrive, and records a change once", () => {
    // start and finish applied back to back (one SSE batch, or replayed on connect): "running" is kept
    const v = play(initialRunView(["a", "b"]), [
      { type: "step_started", nodeId: "a", iteration: 1, attempt: 1, kind: "agent" },
      { type: "step_started", nodeId: "a", iteration: 1, attempt: 2, kind: "agent" },
      { type: "step_finished", nodeId: "a", iteration: 1, status: "timed_out" },
      { type: "branch_taken", nodeId: "a", iteration: 1, branch: "x", targets: [], skipped: ["b"] },
    ]);
    // the step's own status, as the dashboard shows it (not folded into "failed")
    expect(v.nodes.get("a")?.history).toEqual(["running", "timed_out"]);
    expect(v.nodes.get("b")?.history).toEqual(["skipped"]);
    // a node no event touched has no history: it is shown pending
    expect(initialRunView(["c"]).nodes.get("c")?.history).toBeUndefined();
  });

  it("marks dead paths skipped and ignores replayed sequence numbers", () => {
    const v = play(initialRunView(["r", "a", "b"]), [
      { type: "branch_taken", nodeId: "r", iteration: 1, branch: "x", targets: ["a"], skipped: ["b"] },
    ]);
    expect(v.nodes.get("b")?.status).toBe("skipped");
    expect(applyRunEvent(v, 1, runEventSchema.parse({ type: "run_finished", status: "failed", reason: "r" }))).toBe(v);
  });
});
