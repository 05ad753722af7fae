import { describe, expect, it } from "vitest";
import { MemoryStore } from "@/lib/engine/memory-store";
import { buildWorkflow, endNode, fwd, mapNode, startNode } from "../testing/build";
import { fakePorts, ScriptedModel, type RecordedCall, type ScriptedReply } from "../testing/fakes";
import { runJob } from "./index";

const taskOf = (c: RecordedCall) => c.messages.find((m) => m.role === "user")?.content ?? "";

/** start → map over a json input (agent "a" on "Research {{item}}") → end writing the results. */
const wf = (extra: Parameters<typeof mapNode>[2] = {}) =>
  buildWorkflow({
    inputs: [{ key: "questions", type: "json" }],
    outputs: [{ key: "answers" }],
    nodes: [
      startNode(),
      mapNode("each", "{{inputs.questions}}", { concurrency: 3, ...extra }),
      endNode("end", { answers: "{{nodes.each.output.results}}" }),
    ],
    edges: [fwd("start", "next", "each"), fwd("each", "done", "end")],
  });

const questions = Array.from({ length: 8 }, (_, i) => `q${i + 1}`);

function worker(store: MemoryStore, script: (c: RecordedCall) => ScriptedReply) {
  const model = new ScriptedModel(script);
  return { ports: fakePorts({ store, model }), model };
}

describe("map through the driver", () => {
  it("runs the body once per item with {{item}}, at most `concurrency` at once, results in item order", async () => {
    const store = new MemoryStore();
    store.create("r1", wf(), { questions });
    const w = worker(store, (c) => {
      const q = taskOf(c).replace("Research ", "");
      // later items answer sooner, so they finish out of order
      return { content: `answer to ${q}`, delayMs: 40 - Number(q.slice(1)) * 4 };
    });
    expect(await runJob(w.ports, "r1", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(store.run("r1").outputs).toEqual({ answers: questions.map((q) => `answer to ${q}`) });
    expect(w.model.calls.map(taskOf).toSorted()).toEqual(questions.map((q) => `Research ${q}`).toSorted());
    expect(w.model.maxInFlight).toBe(3);
    const rows = store.steps("r1").filter((s) => s.nodeId === "each.items");
    expect(rows.map((r) => [r.iteration, r.status]).toSorted((a, b) => Number(a[0]) - Number(b[0]))).toEqual(
      questions.map((_, i) => [i + 1, "succeeded"]),
    );
    expect(rows.find((r) => r.iteration === 3)?.input).toMatchObject({ item: { map: "each", index: 2, value: "q3" } });
    expect(store.steps("r1").find((s) => s.nodeId === "each")).toMatchObject({
      status: "succeeded",
      output: { count: 8, succeeded: 8, failed: 0 },
    });
  });

  it("an empty list finishes the map with no model call", async () => {
    const store = new MemoryStore();
    store.create("r1", wf(), { questions: [] });
    const w = worker(store, () => ({ content: "never" }));
    expect(await runJob(w.ports, "r1", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(store.run("r1").outputs).toEqual({ answers: [] });
    expect(w.model.calls).toHaveLength(0);
  });

  it("items that are not a list fail the map's step with what they were", async () => {
    const store = new MemoryStore();
    store.create("r1", wf(), { questions: "just one question" });
    const w = worker(store, () => ({ content: "never" }));
    expect(await runJob(w.ports, "r1", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "failed" });
    expect(store.run("r1").reason).toContain('the items of map "each" are not a list (got text, not a list)');
  });

  it("R7: a worker killed mid-map; the next one runs only the items without a committed result", async () => {
    const store = new MemoryStore();
    store.create("r1", wf(), { questions });
    let committed = 0;
    store.beforeCommit = (_id, c) => {
      const items = c.stepResults?.filter((s) => s.nodeId === "each.items" && s.status === "succeeded").length ?? 0;
      if (committed + items > 4) throw new Error("worker killed");
      committed += items;
    };
    const w1 = worker(store, (c) => ({ content: `w1: ${taskOf(c)}`, delayMs: 5 }));
    await expect(runJob(w1.ports, "r1", { owner: "w1" })).rejects.toThrow("worker killed");
    store.beforeCommit = undefined;
    const w2 = worker(store, (c) => ({ content: `w2: ${taskOf(c)}` }));
    expect(await runJob(w2.ports, "r1", { owner: "w2" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    const answers = (store.run("r1").outputs as { answers: string[] }).answers;
    expect(answers.map((a) => a.replace(/^w\d: Research /, ""))).toEqual(questions);
    const byW1 = answers.filter((a) => a.startsWith("w1")).map((a) => a.replace("w1: ", ""));
    // every item answered by w1 and committed was never asked again
    expect(byW1).toHaveLength(committed);
    for (const t of byW1) expect(w2.model.calls.map(taskOf)).not.toContain(t);
    expect(w2.model.calls).toHaveLength(questions.length - committed);
  });

  it("cancelling mid-map stops the remaining items", async () => {
    const store = new MemoryStore();
    store.create("r1", wf({ concurrency: 2 }), { questions });
    let calls = 0;
    const w = worker(store, () => {
      calls += 1;
      if (calls === 3) store.requestCancel("r1", "enough");
      return { content: "ok", delayMs: 40 };
    });
    expect(await runJob(w.ports, "r1", { owner: "w1", cancelPollMs: 5 })).toMatchObject({
      kind: "terminal",
      status: "cancelled",
    });
    expect(w.model.calls.length).toBeLessThan(questions.length);
    const rows = store.steps("r1").filter((s) => s.nodeId === "each.items");
    expect(rows.some((r) => r.status === "cancelled")).toBe(true);
    expect(rows.every((r) => r.status !== "running")).toBe(true);
  });
});
