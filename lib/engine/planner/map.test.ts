import { describe, expect, it } from "vitest";
import { mapItemsId } from "@/lib/workflow/map";
import type { RunEvent } from "../events";
import { agentNode, buildWorkflow, endNode, fwd, mapNode, startNode } from "../testing/build";
import { simulate, type SimOutcome } from "../testing/simulate";
import { plan, type PlannerCommand, type PlannerEvent, type PlannerState } from "./index";

/** start → plan (an agent answering the list) → map (agent per item) → synth → end. */
const research = (mapExtra: Parameters<typeof mapNode>[2] = {}, limits: Record<string, number> = {}) =>
  buildWorkflow({
    nodes: [
      startNode(),
      agentNode("plan"),
      mapNode("each", "{{nodes.plan.output}}", mapExtra),
      agentNode("synth"),
      endNode(),
    ],
    edges: [
      fwd("start", "next", "plan"),
      fwd("plan", "done", "each"),
      fwd("each", "done", "synth"),
      fwd("synth", "done", "end"),
    ],
    limits: { maxSteps: 100, ...limits },
  });

const ITEMS = "each.items";
type Start = Extract<PlannerCommand, { type: "start_step" }>;

/**
 * A driver-like harness with control over when each item finishes: steps of other nodes answer at
 * once, item steps wait in `open` until the test finishes them (in any order it chooses).
 */
function harness(
  wf: ReturnType<typeof research>,
  items: unknown[],
  answer: (s: Start) => PlannerEvent | null = () => null,
) {
  let state: PlannerState | null = null;
  const open: Start[] = [];
  const events: RunEvent[] = [];
  const commands: PlannerCommand[] = [];
  let maxOpen = 0;
  const feed = (event: PlannerEvent) => {
    const r = plan(wf, state && structuredClone(state), event, { maxAttempts: 3 });
    if (r.ignored) return r;
    state = r.state;
    events.push(...r.events);
    commands.push(...r.commands);
    const queue: PlannerEvent[] = [];
    for (const c of r.commands) {
      if (c.type === "cancel_steps")
        for (const s of c.steps)
          open.splice(
            open.findIndex((o) => o.nodeId === s.nodeId && o.iteration === s.iteration),
            1,
          );
      if (c.type !== "start_step") continue;
      if (c.nodeId === ITEMS) {
        open.push(c);
        continue;
      }
      const key = { nodeId: c.nodeId, iteration: c.iteration, attempt: c.attempt };
      const custom = answer(c);
      if (custom) queue.push(custom);
      else if (c.nodeId === "each") queue.push({ type: "step_succeeded", ...key, output: { mapItems: items } });
      else queue.push({ type: "step_succeeded", ...key, output: `${c.nodeId} done` });
    }
    maxOpen = Math.max(maxOpen, open.length);
    for (const e of queue) feed(e);
    return r;
  };
  const finishItem = (iteration: number, how: { output?: unknown; fail?: string } = {}) => {
    const at = open.findIndex((o) => o.iteration === iteration);
    if (at < 0) throw new Error(`item ${iteration} is not open`);
    const c = open.splice(at, 1)[0]!;
    const key = { nodeId: c.nodeId, iteration: c.iteration, attempt: c.attempt };
    return feed(
      how.fail !== undefined
        ? { type: "step_failed", ...key, error: how.fail }
        : { type: "step_succeeded", ...key, output: how.output ?? `result of ${String(c.input.item?.value)}` },
    );
  };
  return {
    feed,
    finishItem,
    open,
    events,
    commands,
    get state() {
      return state!;
    },
    get maxOpen() {
      return maxOpen;
    },
    finished: () => commands.find((c) => c.type === "finish_run"),
    mapOutput: () =>
      events.flatMap((e) => (e.type === "step_finished" && e.nodeId === "each" ? [e.output] : []))[0] as
        | {
            results: unknown[];
            count: number;
            succeeded: number;
            failed: number;
            errors: { index: number; error: string }[];
          }
        | undefined,
  };
}

const letters = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];

describe("map: order and concurrency", () => {
  it("results come in item order whatever order the items finish in", () => {
    const h = harness(research({ concurrency: 10 }), letters);
    h.feed({ type: "run_started", inputs: {} });
    expect(h.open.map((o) => o.iteration)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const it of [7, 3, 10, 1, 2, 9, 4, 8, 6, 5]) h.finishItem(it);
    expect(h.mapOutput()).toEqual({
      results: letters.map((l) => `result of ${l}`),
      count: 10,
      succeeded: 10,
      failed: 0,
      errors: [],
    });
    expect(h.finished()).toMatchObject({ type: "finish_run", status: "succeeded" });
    // the synthesiser ran once, after the map
    expect(h.commands.filter((c) => c.type === "start_step" && c.nodeId === "synth")).toHaveLength(1);
  });

  it("each item is its own step: node id <map>.items, iteration = the item's 1-based index, the item in its input", () => {
    const h = harness(research({ concurrency: 2 }), ["x", { q: "y" }]);
    h.feed({ type: "run_started", inputs: {} });
    expect(h.open.map((o) => [o.nodeId, o.iteration, o.kind, o.input.item])).toEqual([
      [ITEMS, 1, "agent", { map: "each", index: 0, value: "x" }],
      [ITEMS, 2, "agent", { map: "each", index: 1, value: { q: "y" } }],
    ]);
    expect(h.events.find((e) => e.type === "map_started")).toEqual({
      type: "map_started",
      nodeId: "each",
      iteration: 1,
      stepId: ITEMS,
      total: 2,
      concurrency: 2,
    });
  });

  it("never has more than `concurrency` items open, and starts the next as one finishes", () => {
    const h = harness(research({ concurrency: 3 }), letters);
    h.feed({ type: "run_started", inputs: {} });
    expect(h.open.map((o) => o.iteration)).toEqual([1, 2, 3]);
    h.finishItem(2);
    expect(h.open.map((o) => o.iteration)).toEqual([1, 3, 4]);
    while (h.open.length > 0) h.finishItem(h.open[h.open.length - 1]!.iteration);
    expect(h.maxOpen).toBe(3);
    expect(h.mapOutput()?.count).toBe(10);
  });

  it("defaults to 4 at once, and limits.maxConcurrency caps a map's own concurrency", () => {
    const byDefault = harness(research(), letters);
    byDefault.feed({ type: "run_started", inputs: {} });
    expect(byDefault.open).toHaveLength(4);
    const capped = harness(research({ concurrency: 8 }, { maxConcurrency: 2 }), letters);
    capped.feed({ type: "run_started", inputs: {} });
    expect(capped.open).toHaveLength(2);
    expect(capped.events.find((e) => e.type === "map_started")).toMatchObject({ concurrency: 2 });
  });

  it("a loop that re-enters the map stores its second visit's items under <map>.items.2", () => {
    expect(mapItemsId("each", 1)).toBe("each.items");
    expect(mapItemsId("each", 2)).toBe("each.items.2");
  });
});

describe("map: the empty list", () => {
  it("finishes the map at once with no results and the run goes on", () => {
    const r = simulate(research(), (s) => (s.nodeId === "each" ? { output: { mapItems: [] } } : {}));
    expect(r.events.find((e) => e.type === "map_started")).toMatchObject({ total: 0 });
    expect(r.events.find((e) => e.type === "step_finished" && e.nodeId === "each")).toMatchObject({
      status: "succeeded",
      output: { results: [], count: 0, succeeded: 0, failed: 0, errors: [] },
    });
    expect(r.steps.some((s) => s.nodeId === ITEMS)).toBe(false);
    expect(r.finish?.status).toBe("succeeded");
  });
});

describe("map: onItemError", () => {
  it("fail (the default): the map fails at the first failed item, open items are cancelled, no new one starts", () => {
    const h = harness(research({ concurrency: 3 }), letters);
    h.feed({ type: "run_started", inputs: {} });
    h.finishItem(1);
    h.finishItem(2, { fail: "model refused" });
    expect(h.open).toHaveLength(0);
    const cancelled = h.events
      .filter((e) => e.type === "step_finished" && e.nodeId === ITEMS && e.status === "cancelled")
      .map((e) => (e as { iteration: number }).iteration);
    // item 4 started when item 1 finished
    expect(cancelled).toEqual([3, 4]);
    expect(h.commands.filter((c) => c.type === "start_step" && c.nodeId === ITEMS)).toHaveLength(4);
    expect(h.finished()).toMatchObject({
      status: "failed",
      reason: 'Step "each" (iteration 1) failed: item 2 failed: model refused',
    });
  });

  it("fail with the map's error branch: the map follows `error` with the item's error", () => {
    const wf = buildWorkflow({
      nodes: [
        startNode(),
        agentNode("plan"),
        mapNode("each", "{{nodes.plan.output}}", { onError: { onExhausted: "error_branch" } }),
        agentNode("synth"),
        endNode(),
        endNode("oops"),
      ],
      edges: [
        fwd("start", "next", "plan"),
        fwd("plan", "done", "each"),
        fwd("each", "done", "synth"),
        fwd("synth", "done", "end"),
        fwd("each", "error", "oops"),
      ],
    });
    const r = simulate(wf, (s) =>
      s.nodeId === "each"
        ? { output: { mapItems: ["a", "b"] } }
        : s.nodeId === ITEMS && s.iteration === 2
          ? { fail: "boom" }
          : {},
    );
    expect(r.finish).toMatchObject({ status: "succeeded", reason: 'Reached end node "oops"' });
    expect(r.skipped).toContain("synth");
  });

  it("skip: a failed item is left out of the results, counted and listed in errors", () => {
    const h = harness(research({ concurrency: 2, onItemError: "skip" }), ["a", "b", "c", "d"]);
    h.feed({ type: "run_started", inputs: {} });
    h.finishItem(2, { fail: "bad source" });
    h.finishItem(1);
    h.finishItem(4);
    h.finishItem(3, { fail: "timeout" });
    expect(h.mapOutput()).toEqual({
      results: ["result of a", "result of d"],
      count: 4,
      succeeded: 2,
      failed: 2,
      errors: [
        { index: 1, error: "bad source" },
        { index: 2, error: "timeout" },
      ],
    });
    expect(h.finished()).toMatchObject({ status: "succeeded" });
  });

  it("collect: a failed item's error takes its place in the results", () => {
    const h = harness(research({ concurrency: 4, onItemError: "collect" }), ["a", "b", "c"]);
    h.feed({ type: "run_started", inputs: {} });
    h.finishItem(3);
    h.finishItem(2, { fail: "bad source" });
    h.finishItem(1);
    expect(h.mapOutput()).toMatchObject({
      results: ["result of a", { error: "bad source" }, "result of c"],
      succeeded: 2,
      failed: 1,
    });
  });

  it("an item step that times out counts as a failed item", () => {
    const r = simulate(research({ onItemError: "collect" }), (s) =>
      s.nodeId === "each"
        ? { output: { mapItems: ["a", "b"] } }
        : s.nodeId === ITEMS && s.iteration === 1
          ? { timeout: 500 }
          : {},
    );
    const out = r.events.find((e) => e.type === "step_finished" && e.nodeId === "each");
    expect(out).toMatchObject({ output: { results: [{ error: "timed out after 500 ms" }, `${ITEMS}#2`], failed: 1 } });
    expect(r.events.find((e) => e.type === "step_finished" && e.nodeId === ITEMS && e.iteration === 1)).toMatchObject({
      status: "timed_out",
    });
  });

  it("a map whose items are no list fails its step like any failed step", () => {
    const r = simulate(research(), (s): SimOutcome =>
      s.nodeId === "each"
        ? { fail: 'items of map "each" are not a list (got text, not a list)', errorClass: "invalid_output" }
        : {},
    );
    expect(r.finish).toMatchObject({ status: "failed" });
    expect(r.finish?.reason).toContain("not a list");
  });
});

describe("map: budgets are the run's", () => {
  it("every item step counts toward maxSteps: a map larger than what is left ends the run budget_exhausted", () => {
    const r = simulate(research({ concurrency: 2 }, { maxSteps: 6 }), (s) =>
      s.nodeId === "each" ? { output: { mapItems: letters } } : {},
    );
    // start, plan, each, then three items: the fourth would be the seventh step
    expect(r.steps.filter((s) => s.nodeId === ITEMS)).toHaveLength(3);
    expect(r.finish).toMatchObject({ status: "budget_exhausted", limit: "maxSteps" });
  });

  it("the items' tokens add up to the run's tokenBudget, which stops the map mid-way", () => {
    const r = simulate(research({ concurrency: 2 }, { tokenBudget: 250 }), (s) =>
      s.nodeId === "each"
        ? { output: { mapItems: letters } }
        : s.nodeId === ITEMS
          ? { tokens: { promptTokens: 40, completionTokens: 20 } }
          : {},
    );
    expect(r.finish).toMatchObject({ status: "budget_exhausted", limit: "tokenBudget" });
    expect(r.state.tokens.promptTokens + r.state.tokens.completionTokens).toBe(300);
    expect(r.steps.filter((s) => s.nodeId === ITEMS).length).toBeLessThan(letters.length);
  });

  it("an item that hits maxTurnsPerVisit ends the run budget_exhausted whatever onItemError says", () => {
    const r = simulate(research({ onItemError: "skip" }), (s) =>
      s.nodeId === "each"
        ? { output: { mapItems: ["a", "b"] } }
        : s.nodeId === ITEMS
          ? { fail: "too many turns", limit: "maxTurnsPerVisit" }
          : {},
    );
    expect(r.finish).toMatchObject({ status: "budget_exhausted", limit: "maxTurnsPerVisit" });
  });
});

describe("map: cancellation and resume", () => {
  it("a cancel stops the remaining items: the open ones are cancelled, none starts after", () => {
    const h = harness(research({ concurrency: 3 }), letters);
    h.feed({ type: "run_started", inputs: {} });
    h.finishItem(1);
    const r = h.feed({ type: "cancel_requested", reason: "enough" });
    const cancel = r.commands.find((c) => c.type === "cancel_steps");
    expect(cancel?.type === "cancel_steps" && cancel.steps.map((s) => [s.nodeId, s.iteration])).toEqual([
      [ITEMS, 2],
      [ITEMS, 3],
      [ITEMS, 4],
      ["each", 1],
    ]);
    expect(h.finished()).toMatchObject({ status: "cancelled" });
    // a late result of a cancelled item is ignored
    expect(
      plan(research({ concurrency: 3 }), h.state, {
        type: "step_succeeded",
        nodeId: ITEMS,
        iteration: 2,
        attempt: 1,
        output: "late",
      }).ignored,
    ).toBe(true);
    expect(h.commands.filter((c) => c.type === "start_step" && c.nodeId === ITEMS)).toHaveLength(4);
  });

  it("R7: a resume re-dispatches only the open items (attempt + 1), never a finished one nor the map's step", () => {
    const wf = research({ concurrency: 3 });
    const h = harness(wf, letters);
    h.feed({ type: "run_started", inputs: {} });
    h.finishItem(1);
    h.finishItem(3);
    // items 2, 4 and 5 are open when the worker dies
    const r = plan(wf, structuredClone(h.state), { type: "resume" }, { maxAttempts: 3 });
    const starts = r.commands.filter((c): c is Start => c.type === "start_step");
    expect(starts.map((c) => [c.nodeId, c.iteration, c.attempt, c.redispatch])).toEqual([
      [ITEMS, 2, 2, true],
      [ITEMS, 4, 2, true],
      [ITEMS, 5, 2, true],
    ]);
    expect(r.events[0]).toMatchObject({
      type: "run_started",
      resumed: true,
      redispatched: [
        { nodeId: ITEMS, iteration: 2, attempt: 2 },
        { nodeId: ITEMS, iteration: 4, attempt: 2 },
        { nodeId: ITEMS, iteration: 5, attempt: 2 },
      ],
    });
    // the interrupted attempt's late result is stale; the new attempt's counts
    expect(
      plan(wf, r.state, { type: "step_succeeded", nodeId: ITEMS, iteration: 2, attempt: 1, output: "late" }).ignored,
    ).toBe(true);
    expect(
      plan(wf, r.state, { type: "step_succeeded", nodeId: ITEMS, iteration: 2, attempt: 2, output: "fresh" }).ignored,
    ).toBe(false);
  });

  it("D3: an item interrupted maxAttempts times ends the run failed", () => {
    const wf = research({ concurrency: 1 });
    const h = harness(wf, ["a", "b"]);
    h.feed({ type: "run_started", inputs: {} });
    let state = h.state;
    for (let i = 0; i < 2; i++) state = plan(wf, state, { type: "resume" }, { maxAttempts: 3 }).state;
    const r = plan(wf, state, { type: "resume" }, { maxAttempts: 3 });
    expect(r.commands.find((c) => c.type === "finish_run")).toMatchObject({
      status: "failed",
      reason: 'Step "each.items" (item 1) was interrupted 3 times; giving up after 3 attempts',
    });
  });
});
