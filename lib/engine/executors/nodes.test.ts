import { describe, expect, it } from "vitest";
import { buildWorkflow, endNode, fwd, startNode } from "../testing/build";
import { FakeTools, ScriptedModel, systemOf, type RecordedCall } from "../testing/fakes";
import { financialAnalyst } from "../testing/scenarios";
import { stepContext } from "../testing/step-context";
import { handoffToolName, orchestratorExecutor } from "./orchestrator";
import { routerExecutor } from "./router";
import { abortExecutor, endExecutor } from "./terminal";
import { toolExecutor } from "./tool";

describe("router executor", () => {
  const router = (mode: "llm" | "expression", withDefault = true) =>
    buildWorkflow({
      defaultModel: { model: "judge" },
      nodes: [
        startNode(),
        {
          id: "r",
          type: "router",
          mode,
          prompt: "Request: {{inputs.request}}",
          branches: [
            { id: "big", condition: "large amounts", expression: "inputs.amount > 100" },
            {
              id: "small",
              condition: "small amounts",
              ...(withDefault ? { default: true } : { expression: "inputs.amount < 10" }),
            },
          ],
        },
        endNode(),
      ],
      edges: [fwd("start", "next", "r"), fwd("r", "big", "end"), fwd("r", "small", "end")],
    });

  it("expression mode picks the first matching branch, else the declared default, with no model call", async () => {
    const model = new ScriptedModel(() => ({ content: "never" }));
    for (const [amount, branch] of [
      [500, "big"],
      [50, "small"],
    ] as const) {
      const { ctx } = stepContext<"router">(router("expression"), "r", { model, data: { inputs: { amount } } });
      expect(await routerExecutor(ctx)).toMatchObject({ status: "succeeded", branch, output: { branch } });
    }
    expect(model.calls).toHaveLength(0);
  });

  it("expression mode without a match and without a default fails (no first-branch fallback)", async () => {
    const { ctx } = stepContext<"router">(router("expression", false), "r", { data: { inputs: { amount: 50 } } });
    expect(await routerExecutor(ctx)).toMatchObject({
      status: "failed",
      error: "no branch expression matched and no default branch is declared (branches: big, small)",
    });
  });

  it("llm mode asks the router's model for a structured choice over the branch ids", async () => {
    const model = new ScriptedModel(() => ({ value: { branch: "small", reason: "tiny" } }));
    const { ctx } = stepContext<"router">(router("llm"), "r", { model, data: { inputs: { request: "refund 5 EUR" } } });
    expect(await routerExecutor(ctx)).toMatchObject({
      status: "succeeded",
      branch: "small",
      output: { branch: "small", reason: "tiny" },
    });
    expect(model.calls[0]).toMatchObject({ kind: "structured", model: "judge" });
    expect(model.calls[0]?.messages[1]?.content).toBe("Request: refund 5 EUR");
  });
});

describe("tool executor", () => {
  const toolWf = (errorWired: boolean) =>
    buildWorkflow({
      variables: [{ key: "n", value: 3 }],
      nodes: [
        startNode(),
        {
          id: "fetch",
          type: "tool",
          tool: { name: "fetch" },
          args: { q: "about {{inputs.topic}}", n: "{{vars.n}}" },
          sideEffect: true,
        },
        endNode(),
      ],
      edges: [
        fwd("start", "next", "fetch"),
        fwd("fetch", "done", "end"),
        ...(errorWired ? [fwd("fetch", "error", "end")] : []),
      ],
    });
  const tools = (fail: boolean) =>
    new FakeTools({
      fetch: {
        descriptor: { name: "fetch", description: "", parameters: {}, sideEffect: false },
        run: (args) => {
          if (fail) throw new Error("503 upstream");
          return { got: args };
        },
      },
    });

  it("calls the tool with rendered arguments (a lone tag keeps its type) and an idempotency key", async () => {
    const t = tools(false);
    const { ctx } = stepContext<"tool">(toolWf(false), "fetch", {
      tools: t,
      iteration: 2,
      data: { inputs: { topic: "owls" }, vars: { n: 3 } },
    });
    expect(await toolExecutor(ctx)).toMatchObject({
      status: "succeeded",
      branch: "done",
      output: { got: { q: "about owls", n: 3 } },
    });
    expect(t.calls[0]?.idempotencyKey).toBe("run-1:fetch:2");
  });

  it("a tool failure fails the try as a tool error, wired error outcome or not (the planner's error policy routes it)", async () => {
    for (const wired of [true, false]) {
      const step = stepContext<"tool">(toolWf(wired), "fetch", { tools: tools(true) });
      expect(await toolExecutor(step.ctx)).toMatchObject({
        status: "failed",
        error: 'tool "fetch" failed: 503 upstream',
        errorClass: "tool_error",
      });
    }
  });
});

describe("orchestrator executor (scenario C)", () => {
  const script = (c: RecordedCall) => {
    const sys = systemOf(c.messages);
    if (sys.startsWith("Summarise")) return { content: "filings say revenue grew" };
    if (sys.startsWith("Research")) return { content: "market is growing" };
    if (c.messages.some((m) => m.role === "tool")) return { content: "Report: growth on both fronts" };
    return {
      toolCalls: [
        { id: "h1", name: handoffToolName("docs"), args: { task: "Read the 10-K" } },
        { id: "h2", name: handoffToolName("market"), args: { task: "Size the market" } },
      ],
    };
  };

  it("hands work to each worker, feeds their answers back and emits handoff events", async () => {
    const model = new ScriptedModel(script);
    const { ctx, emitted } = stepContext<"orchestrator">(financialAnalyst(), "analyst", {
      model,
      data: { inputs: { question: "Buy ACME?" } },
    });
    expect(await orchestratorExecutor(ctx)).toMatchObject({
      status: "succeeded",
      branch: "done",
      output: "Report: growth on both fronts",
    });
    expect(model.calls[0]?.tools).toEqual(["handoff_to_docs", "handoff_to_market"]);
    expect(emitted.flatMap((e) => (e.type === "handoff" ? [`${e.phase}:${e.worker}`] : []))).toEqual([
      "handoff:docs",
      "handback:docs",
      "handoff:market",
      "handback:market",
    ]);
    const worker = model.calls.find((c) => systemOf(c.messages).startsWith("Summarise"));
    expect(worker?.messages).toEqual([
      { role: "system", content: "Summarise the filings." },
      { role: "user", content: "Read the 10-K" },
    ]);
    const final = model.calls
      .at(-1)
      ?.messages.filter((m) => m.role === "tool")
      .map((m) => m.content);
    expect(final).toEqual(["filings say revenue grew", "market is growing"]);
  });

  it("refuses handoffs beyond maxHandoffs, telling the orchestrator to conclude", async () => {
    const wf = financialAnalyst();
    const node = wf.nodes.find((n) => n.id === "analyst");
    if (node?.type === "orchestrator") node.maxHandoffs = 1;
    const model = new ScriptedModel(script);
    const { ctx, emitted } = stepContext<"orchestrator">(wf, "analyst", { model });
    await orchestratorExecutor(ctx);
    expect(emitted.filter((e) => e.type === "handoff" && e.phase === "handoff")).toHaveLength(1);
    expect(model.calls.at(-1)?.messages.at(-1)?.content).toMatch(/handoff budget \(maxHandoffs=1\) is used up/);
  });
});

describe("end and abort executors", () => {
  const wf = buildWorkflow({
    nodes: [
      startNode(),
      endNode("end", { answer: "{{nodes.agg.output}}", text: "Answer: {{nodes.agg.output}}" }),
      { id: "stop", type: "abort", reason: "Refused: {{inputs.why}}" },
    ],
    edges: [fwd("start", "next", "end")],
  });

  it("end renders the outputs; abort renders the reason", async () => {
    const end = stepContext<"end">(wf, "end", { data: { nodes: { agg: { output: 13 } } } });
    expect(await endExecutor(end.ctx)).toMatchObject({
      status: "succeeded",
      output: { answer: 13, text: "Answer: 13" },
    });
    const stop = stepContext<"abort">(wf, "stop", { data: { inputs: { why: "spam" } } });
    expect(await abortExecutor(stop.ctx)).toMatchObject({ status: "succeeded", output: { reason: "Refused: spam" } });
  });
});
