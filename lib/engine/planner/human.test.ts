import { describe, expect, it } from "vitest";
import { abortNode, agentNode, buildWorkflow, endNode, fwd, humanNode, loop, startNode } from "../testing/build";
import { plan, type PlannerEvent, type PlannerState } from "./index";

/** draft → review (approve → end, reject → abort), plus an optional parallel branch. */
const review = (parallel = false) =>
  buildWorkflow({
    nodes: [
      startNode(),
      agentNode("draft"),
      humanNode("review"),
      endNode(),
      abortNode("stop", "Rejected"),
      ...(parallel ? [agentNode("side")] : []),
    ],
    edges: [
      fwd("start", "next", "draft"),
      fwd("draft", "done", "review"),
      fwd("review", "approve", "end"),
      fwd("review", "reject", "stop"),
      ...(parallel ? [fwd("start", "next", "side"), fwd("side", "done", "end")] : []),
    ],
  });

const request = {
  prompt: "Review it",
  choices: [
    { id: "approve", label: "APPROVE" },
    { id: "reject", label: "REJECT" },
  ],
  fields: [],
};
const answer = (choice: string, iteration = 1): PlannerEvent => ({
  type: "step_answered",
  nodeId: "review",
  iteration,
  choice,
  answer: { choice, values: { note: "ok" }, answeredBy: "Ada" },
});

/** Feeds events one by one; answers the last result, the collected events and every command. */
function run(wf: ReturnType<typeof review>, events: PlannerEvent[], from: PlannerState | null = null) {
  let state = from;
  const all = { events: [] as string[], commands: [] as string[], ignored: [] as boolean[] };
  let last;
  for (const e of events) {
    last = plan(wf, state, e);
    state = last.state;
    all.events.push(
      ...last.events.map((x) =>
        x.type === "step_finished"
          ? `${x.type}:${x.nodeId}:${x.status}`
          : x.type === "input_requested"
            ? `${x.type}:${x.nodeId}`
            : x.type,
      ),
    );
    all.commands.push(
      ...last.commands.map((c) =>
        c.type === "start_step" ? `start:${c.nodeId}` : c.type === "finish_run" ? `finish:${c.status}` : c.type,
      ),
    );
    all.ignored.push(last.ignored);
  }
  return { ...all, state: state!, last: last! };
}

const untilReview: PlannerEvent[] = [
  { type: "run_started", inputs: {} },
  { type: "step_succeeded", nodeId: "start", iteration: 1, attempt: 1, output: {}, branch: "next" },
  { type: "step_succeeded", nodeId: "draft", iteration: 1, attempt: 1, output: "a draft" },
];
const asked: PlannerEvent = { type: "step_waiting", nodeId: "review", iteration: 1, attempt: 1, request };

describe("human review (planner)", () => {
  it("a review that asks waits: no finish, no failure for lack of progress, the question is an event", () => {
    const r = run(review(), [...untilReview, asked]);
    expect(r.commands).toEqual(["start:start", "start:draft", "start:review"]);
    expect(r.events.slice(-1)).toEqual(["input_requested:review"]);
    expect(r.state.status).toBe("running");
    expect(r.state.nodes.review?.phase).toBe("waiting");
    expect(r.last.events[0]).toMatchObject({ type: "input_requested", prompt: "Review it", choices: request.choices });
  });

  it("the answer finishes the step with the answer as its output and follows the choice", () => {
    const approved = run(review(), [...untilReview, asked, answer("approve")]);
    expect(
      approved.last.commands.map((c) =>
        c.type === "start_step" ? `start:${c.nodeId}` : `${c.type}:${"nodeId" in c ? c.nodeId : ""}`,
      ),
    ).toEqual(["start:end", "skip_step:stop"]);
    const finished = approved.last.events.find((e) => e.type === "step_finished");
    expect(finished).toMatchObject({
      nodeId: "review",
      status: "succeeded",
      branch: "approve",
      output: { choice: "approve", values: { note: "ok" }, answeredBy: "Ada" },
    });
    expect(approved.state.nodes.review?.output).toMatchObject({ choice: "approve" });

    const rejected = run(review(), [...untilReview, asked, answer("reject")]);
    expect(rejected.commands.slice(-2)).toEqual(["start:stop", "skip_step"]);
    expect(rejected.last.events.find((e) => e.type === "branch_taken")).toMatchObject({
      branch: "reject",
      skipped: ["end"],
    });
  });

  it("a second answer, or one for another iteration, is ignored; an unknown choice fails the step", () => {
    const twice = run(review(), [...untilReview, asked, answer("approve"), answer("reject")]);
    expect(twice.ignored.at(-1)).toBe(true);
    expect(run(review(), [...untilReview, asked, answer("approve", 2)]).ignored.at(-1)).toBe(true);
    const odd = run(review(), [...untilReview, asked, answer("maybe")]);
    expect(odd.commands.at(-1)).toBe("finish:failed");
    expect(odd.state.reason).toContain('chose unknown branch "maybe"');
  });

  it("a run cancelled while a review waits cancels the review's step", () => {
    const r = run(review(), [...untilReview, asked, { type: "cancel_requested", reason: "no longer needed" }]);
    expect(r.events.slice(-3)).toEqual(["cancel_requested", "step_finished:review:cancelled", "run_finished"]);
    expect(r.last.commands.find((c) => c.type === "cancel_steps")).toMatchObject({
      steps: [{ nodeId: "review", iteration: 1, attempt: 1 }],
    });
    expect(r.state.nodes.review?.phase).toBe("cancelled");
  });

  it("a waiting review keeps the run open while a parallel branch reaches the end", () => {
    const base = run(review(true), [
      { type: "run_started", inputs: {} },
      { type: "step_succeeded", nodeId: "start", iteration: 1, attempt: 1, output: {}, branch: "next" },
      { type: "step_succeeded", nodeId: "draft", iteration: 1, attempt: 1, output: "a draft" },
      asked,
    ]);
    // side → end: end needs both of its inputs (join all), so it waits for the review too
    const side = run(
      review(true),
      [{ type: "step_succeeded", nodeId: "side", iteration: 1, attempt: 1, output: "x" }],
      base.state,
    );
    expect(side.commands).toEqual([]);
    expect(side.state.status).toBe("running");
    const done = run(review(true), [answer("approve")], side.state);
    expect(done.commands).toEqual(["start:end", "skip_step"]);
  });

  it("a resume re-dispatches running steps but not a waiting review", () => {
    const parked = run(review(true), [
      { type: "run_started", inputs: {} },
      { type: "step_succeeded", nodeId: "start", iteration: 1, attempt: 1, output: {}, branch: "next" },
      { type: "step_succeeded", nodeId: "draft", iteration: 1, attempt: 1, output: "a draft" },
      asked,
    ]);
    const resumed = run(review(true), [{ type: "resume" }], parked.state);
    expect(resumed.commands).toEqual(["start:side"]);
    expect(resumed.last.events[0]).toMatchObject({
      type: "run_started",
      resumed: true,
      redispatched: [{ nodeId: "side", iteration: 1, attempt: 2 }],
    });
    expect(resumed.state.nodes.review?.phase).toBe("waiting");
  });

  it("a review can send the work back around a loop and is asked again on the next pass", () => {
    const wf = buildWorkflow({
      nodes: [startNode(), agentNode("draft"), humanNode("review", ["approve", "revise"]), endNode()],
      edges: [
        fwd("start", "next", "draft"),
        fwd("draft", "done", "review"),
        fwd("review", "approve", "end"),
        loop("review", "revise", "draft", 3, "abort"),
      ],
    });
    const r = run(wf, [...untilReview, asked, answer("revise")]);
    expect(r.commands.slice(-1)).toEqual(["start:draft"]);
    expect(r.last.commands[0]).toMatchObject({
      type: "start_step",
      nodeId: "draft",
      iteration: 2,
      input: { loopEdge: "review-revise-draft", feedback: { choice: "revise" } },
    });
    const again = run(
      wf,
      [
        { type: "step_succeeded", nodeId: "draft", iteration: 2, attempt: 1, output: "draft 2" },
        { ...asked, iteration: 2 } as PlannerEvent,
        answer("approve", 2),
      ],
      r.state,
    );
    expect(again.commands).toEqual(["start:review", "start:end"]);
  });

  it("a review nobody answered in time takes its timeout choice, or times out and fails the run without one", () => {
    const late = (choice: string): PlannerEvent => ({
      type: "step_answered",
      nodeId: "review",
      iteration: 1,
      choice,
      answer: { choice, values: {}, answeredBy: "timeout", timedOutAfterMs: 60_000 },
      timedOutAfterMs: 60_000,
    });
    const chosen = run(review(), [...untilReview, asked, late("reject")]);
    expect(chosen.commands.slice(-2)).toEqual(["start:stop", "skip_step"]);
    const none = run(review(), [...untilReview, asked, late("")]);
    expect(none.events.slice(-2)).toEqual(["step_finished:review:timed_out", "run_finished"]);
    expect(none.state).toMatchObject({
      status: "failed",
      reason: 'Step "review" (iteration 1) no answer within 60000 ms',
    });
  });
});
