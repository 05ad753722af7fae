import { describe, expect, it } from "vitest";
import { agentNode, buildWorkflow, endNode, fwd, startNode } from "../testing/build";
import { plan, type Interruption, type PlannerState } from "./index";

const chain = buildWorkflow({
  nodes: [startNode(), agentNode("a"), endNode("end")],
  edges: [fwd("start", "next", "a"), fwd("a", "done", "end")],
});

/** State with step a's attempt 1 in flight. */
function aRunning(): PlannerState {
  let s = plan(chain, null, { type: "run_started", inputs: {} }).state;
  s = plan(chain, s, { type: "step_succeeded", nodeId: "start", iteration: 1, attempt: 1, output: null }).state;
  return s;
}

/** Resumes with a's interruptions judged: its earlier ones plus the latest with `verdict`. */
function resume(s: PlannerState, verdict: Interruption["verdict"]) {
  const n = s.nodes.a!;
  const latest: Interruption = {
    iteration: n.iteration,
    attempt: n.attempt,
    owner: `w${n.attempt}`,
    since: 0,
    verdict,
  };
  return plan(chain, s, { type: "resume", interruptions: { a: [...(n.interruptions ?? []), latest] } });
}

describe("crash-loop rule on resume (D3)", () => {
  it("only crashes count toward maxAttempts; takeovers from live workers and pending verdicts do not", () => {
    let s = aRunning();
    for (const v of ["alive", "crashed", "pending", "alive", "crashed"] as const) {
      const r = resume(s, v);
      expect(
        r.commands.some((c) => c.type === "finish_run"),
        v,
      ).toBe(false);
      s = r.state;
    }
    expect(s.nodes.a).toMatchObject({ attempt: 6, phase: "running" });
    const r = resume(s, "crashed");
    expect(r.state.status).toBe("failed");
    expect(r.state.reason).toBe(
      'Step "a" (iteration 1) was interrupted 3 times; giving up after 3 attempts (its worker died each time; 2 takeovers from live workers not counted)',
    );
  });

  it("a step taken over from live workers again and again fails at the interruption cap (10), not forever", () => {
    let s = aRunning();
    for (let k = 1; k < 10; k++) s = resume(s, "alive").state;
    expect(s.status).toBe("running");
    const r = resume(s, "alive");
    expect(r.state.status).toBe("failed");
    expect(r.state.reason).toMatch(
      /interrupted 10 times \(0 worker crashes, 10 takeovers from live workers that lost their queue lock\); giving up after 10 interruptions/,
    );
  });

  it("without judged interruptions every interruption is a crash, also for state written before they were recorded", () => {
    let s = aRunning();
    s = plan(chain, s, { type: "resume" }).state;
    expect(s.nodes.a?.interruptions).toEqual([{ iteration: 1, attempt: 1, owner: null, since: 0, verdict: "crashed" }]);
    const legacy = structuredClone(s);
    legacy.nodes.a!.attempt = 3;
    delete legacy.nodes.a!.interruptions;
    const r = plan(chain, legacy, { type: "resume" });
    expect(r.state.reason).toContain("was interrupted 3 times; giving up after 3 attempts");
  });
});
