import { describe, expect, it } from "vitest";
import type { RunCommit, StepResultWrite } from "@/lib/engine/ports";
import { hold, letGo, logOnly, planRows, rowKey, setLogWindowMs, type HeldRun, type LogRow } from "./held-runs";

const at = new Date(Date.UTC(2026, 0, 2));
const row = (nodeId: string, extra: Partial<LogRow> = {}): LogRow => ({
  id: `id-${nodeId}`,
  nodeId,
  iteration: 1,
  attempt: 1,
  status: "running",
  input: null,
  output: null,
  branch: null,
  promptTokens: 0,
  completionTokens: 0,
  latencyMs: null,
  error: null,
  leaseOwner: "w",
  createdAt: at.toISOString(),
  startedAt: at.toISOString(),
  finishedAt: null,
  ...extra,
});
const result = (nodeId: string, extra: Partial<StepResultWrite> = {}): StepResultWrite => ({
  nodeId,
  iteration: 1,
  attempt: 1,
  status: "succeeded",
  output: { n: nodeId },
  branch: "next",
  promptTokens: 1,
  completionTokens: 2,
  latencyMs: 3,
  error: null,
  at,
  ...extra,
});
const start = (nodeId: string, attempt = 1) => ({
  nodeId,
  iteration: 1,
  attempt,
  kind: "agent",
  input: { via: [] },
  at,
});
const event = { type: "step_started" as const, nodeId: "x", iteration: 1, attempt: 1, kind: "agent" };

function held(rows: LogRow[], status: HeldRun["status"] = "running"): HeldRun {
  const h = hold({
    runId: `r-${Math.random()}`,
    owner: "w",
    status,
    version: 3,
    dbVersion: 3,
    next: 5,
    rows: new Map(rows.map((r) => [rowKey(r), r])),
  });
  letGo(h.runId, h.owner);
  return h;
}
const commit = (c: Partial<RunCommit>): RunCommit => ({ owner: "w", expectedVersion: 3, events: [event], ...c });

describe("held runs: a commit planned on the rows the holder knows", () => {
  it("applies a result to its running row and a start as a new row; the held rows change only when told", () => {
    const h = held([row("a")]);
    const p = planRows(h, commit({ stepResults: [result("a")], stepStarts: [start("b")] }));
    if (!p?.ok) throw new Error("refused");
    expect([...p.touched.values()].map((r) => `${r.nodeId}:${r.status}`)).toEqual(["a:succeeded", "b:running"]);
    expect(p.touched.get(rowKey({ nodeId: "a", iteration: 1 }))).toMatchObject({
      id: "id-a",
      output: { n: "a" },
      finishedAt: at.toISOString(),
    });
    expect(h.rows.get(rowKey({ nodeId: "a", iteration: 1 }))!.status).toBe("running");
  });

  it("refuses as the commit statement does: a result of another attempt or owner, a skip of an existing row", () => {
    const h = held([row("a"), row("o", { leaseOwner: "other" })]);
    expect(planRows(h, commit({ stepResults: [result("a", { attempt: 2 })] }))).toMatchObject({
      ok: false,
      reason: "lost_lease",
    });
    expect(planRows(h, commit({ stepResults: [result("o")] }))).toMatchObject({ ok: false, reason: "lost_lease" });
    expect(planRows(h, commit({ stepResults: [result("o", { status: "cancelled" })] }))).toMatchObject({ ok: true });
    expect(planRows(h, commit({ stepSkips: [{ nodeId: "a", iteration: 1, kind: "agent", at }] }))).toMatchObject({
      ok: false,
      reason: "stale",
    });
    expect(planRows(h, commit({ stepResults: [result("missing")] }))).toMatchObject({
      ok: false,
      reason: "lost_lease",
    });
  });

  it("an instant step's start and result make one finished row; a result with its restart leaves the restarted row; a row written twice otherwise is not planned", () => {
    const h = held([row("a")]);
    const instant = planRows(h, commit({ stepStarts: [start("n")], stepResults: [result("n")] }));
    expect(instant?.ok && instant.touched.get(rowKey({ nodeId: "n", iteration: 1 }))).toMatchObject({
      status: "succeeded",
      attempt: 1,
      finishedAt: at.toISOString(),
    });
    const retry = planRows(
      h,
      commit({ stepResults: [result("a", { status: "failed" })], stepStarts: [start("a", 2)] }),
    );
    expect(retry?.ok && retry.touched.get(rowKey({ nodeId: "a", iteration: 1 }))).toMatchObject({
      status: "running",
      attempt: 2,
      id: "id-a",
    });
    expect(planRows(h, commit({ stepStarts: [start("a"), start("a", 2)] }))).toBeNull();
  });

  it("stores in the log only a running run's commit with events that changes no review and no more than the state, the counters and the run's end", () => {
    const h = held([row("a"), row("q", { status: "waiting" })]);
    const now = h.writtenAt;
    const plan = (c: RunCommit) => {
      const p = planRows(h, c);
      if (!p?.ok) throw new Error("refused");
      return logOnly(h, c, p, now);
    };
    expect(
      plan(
        commit({
          stepResults: [result("a")],
          run: { plannerState: { n: 1 }, addSteps: 1, addTokens: { promptTokens: 1, completionTokens: 2 } },
        }),
      ),
    ).toBe(true);
    expect(plan(commit({ stepResults: [result("a")], events: [] }))).toBe(false);
    // the run's end may go to the log (its rows are written right after); another status change, or an end's columns without it, may not
    expect(
      plan(
        commit({
          stepResults: [result("a")],
          run: { status: "succeeded", reason: "done", outputs: {}, finishedAt: new Date() },
        }),
      ),
    ).toBe(true);
    expect(plan(commit({ stepResults: [result("a")], run: { status: "waiting", waitingSince: new Date() } }))).toBe(
      false,
    );
    expect(plan(commit({ stepResults: [result("a")], run: { status: "running", startedAt: new Date() } }))).toBe(false);
    expect(plan(commit({ stepResults: [result("a")], run: { outputs: {} } }))).toBe(false);
    expect(plan(commit({ stepResults: [result("a")], run: { reason: "why" } }))).toBe(false);
    expect(plan(commit({ stepResults: [result("a", { status: "waiting" })] }))).toBe(false);
    expect(plan(commit({ stepResults: [result("q")] }))).toBe(false);
    expect(plan(commit({ stepStarts: [start("q", 2)] }))).toBe(false);
    expect(plan(commit({ stepStarts: [{ ...start("s"), kind: "subflow" }] }))).toBe(false);
    const queued = held([row("a")], "queued");
    const p = planRows(queued, commit({ stepResults: [result("a")] }));
    expect(p?.ok && logOnly(queued, commit({ stepResults: [result("a")] }), p, queued.writtenAt)).toBe(false);
  });

  it("writes the rows once the log holds commits older than the window (0: never logs)", () => {
    const h = held([row("a")]);
    const c = commit({ stepResults: [result("a")] });
    const p = planRows(h, c);
    if (!p?.ok) throw new Error("refused");
    try {
      setLogWindowMs(100);
      expect(logOnly(h, c, p, h.writtenAt + 99)).toBe(true);
      expect(logOnly(h, c, p, h.writtenAt + 100)).toBe(false);
      setLogWindowMs(0);
      expect(logOnly(h, c, p, h.writtenAt)).toBe(false);
    } finally {
      setLogWindowMs(1_000);
    }
  });
});
