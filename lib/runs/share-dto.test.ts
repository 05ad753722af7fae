import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/engine/events";
import { instantiateTemplate } from "@/lib/workflow/templates";
import { sharedEvent, sharedGraph } from "./share-dto";

const SECRET = "SECRET-CONTENT";
const events: RunEvent[] = [
  { type: "run_started", inputs: { q: SECRET }, resumed: false, redispatched: [] },
  { type: "step_started", nodeId: "a", iteration: 2, attempt: 1, kind: "agent", feedback: SECRET },
  { type: "step_progress", nodeId: "a", iteration: 2, message: "called search", detail: { args: { q: SECRET } } },
  { type: "step_finished", nodeId: "a", iteration: 2, status: "succeeded", output: SECRET, promptTokens: 1, completionTokens: 2 },
  { type: "handoff", nodeId: "o", iteration: 1, worker: "w", phase: "handoff", task: SECRET, result: SECRET },
  { type: "run_finished", status: "succeeded", reason: "done", outputs: { answer: SECRET } },
];

describe("shared events", () => {
  it("drop every prompt/output field without includeContent and keep them with it", () => {
    for (const e of events) {
      expect(JSON.stringify(sharedEvent(e, false))).not.toContain(SECRET);
      expect(sharedEvent(e, false).type).toBe(e.type);
    }
    expect(JSON.parse(JSON.stringify(events.map((e) => sharedEvent(e, true))))).toEqual(JSON.parse(JSON.stringify(events)));
  });
});

describe("shared graph", () => {
  it("keeps drawable fields only: no tasks, instructions, prompts or tool args", () => {
    const doc = instantiateTemplate("majority-vote")!;
    const g = sharedGraph(doc);
    const text = JSON.stringify(g);
    expect(text).not.toContain("{{inputs.problem}}");
    expect(text).not.toContain("step by step");
    expect(g.nodes.map((n) => n.id)).toEqual(doc.nodes.map((n) => n.id));
    expect(Object.keys(g.agents[0]!).sort()).toEqual(["key", "model", "name"]);
  });
});
