import { describe, expect, it } from "vitest";
import type { JobTrace, ModelCallEnd, TracePort } from "../ports";
import { agentNode, buildWorkflow, endNode, fwd, startNode } from "../testing/build";
import { FakeTools, fakePorts, ScriptedModel } from "../testing/fakes";
import { runJob } from "./index";

type Span = { name: string; parent: string | null; status?: string; error?: string; result?: ModelCallEnd };

/** A trace port that records its spans as a flat list with their parents. */
function recorder(): TracePort & { spans: Span[] } {
  const spans: Span[] = [];
  return {
    spans,
    job(runId, traceParent): JobTrace {
      const job: Span = { name: `job ${runId}`, parent: traceParent };
      spans.push(job);
      return {
        step(s) {
          const step: Span = { name: `step ${s.nodeId}#${s.iteration} ${s.kind}`, parent: job.name };
          spans.push(step);
          return {
            modelCall(c) {
              const call: Span = { name: `chat ${c.model ?? "default"}`, parent: step.name };
              spans.push(call);
              return { end: (result) => void (call.result = result) };
            },
            toolCall(c) {
              const call: Span = { name: `tool ${c.name}`, parent: step.name };
              spans.push(call);
              return { end: (r) => void (call.error = r.error) };
            },
            end: (status, error) => Object.assign(step, { status, ...(error ? { error } : {}) }),
          };
        },
        end: (outcome) => void (job.status = outcome),
      };
    },
  };
}

describe("driver: traces", () => {
  it("a job span, a span per step (instant ones too) and per model and tool call, each ended with its result", async () => {
    const tools = new FakeTools({
      upper: {
        descriptor: { name: "upper", description: "", parameters: { type: "object" }, sideEffect: false },
        run: (a) => String(a.text).toUpperCase(),
      },
    });
    const model = new ScriptedModel((c) =>
      c.messages.at(-1)?.role === "tool"
        ? { content: "done", usage: { promptTokens: 7, completionTokens: 3 } }
        : { toolCalls: [{ id: "t1", name: "upper", args: { text: "hi" } }] },
    );
    const ports = { ...fakePorts({ model, tools }), trace: recorder() };
    ports.store.create(
      "r1",
      buildWorkflow({
        agents: [{ key: "a", name: "A", tools: [{ name: "upper" }] }],
        nodes: [startNode(), agentNode("write"), endNode("end")],
        edges: [fwd("start", "next", "write"), fwd("write", "done", "end")],
      }),
    );
    expect(await runJob(ports, "r1", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    const spans = ports.trace.spans;
    expect(spans.map((s) => [s.name, s.parent, s.status ?? null])).toEqual([
      ["job r1", null, "succeeded"],
      ["step start#1 start", "job r1", "succeeded"],
      ["step write#1 agent", "job r1", "succeeded"],
      ["chat default", "step write#1 agent", null],
      ["tool upper", "step write#1 agent", null],
      ["chat default", "step write#1 agent", null],
      ["step end#1 end", "job r1", "succeeded"],
    ]);
    expect(spans[5]!.result).toMatchObject({ promptTokens: 7, completionTokens: 3, finishReason: "stop" });
    expect(spans[3]!.result).toMatchObject({ finishReason: "tool_calls" });
  });
});
