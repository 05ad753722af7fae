import { describe, expect, it } from "vitest";
import { type ModelPort } from "../ports";
import { ModelCallError } from "../errors";
import { agentNode, buildWorkflow, endNode, fwd, startNode } from "../testing/build";
import { FakeTools, ScriptedModel, type RecordedCall, type ScriptedReply } from "../testing/fakes";
import { stepContext } from "../testing/step-context";
import { agentExecutor } from "./agent";

function wf(
  opts: {
    branches?: string[];
    maxTurns?: number;
    tools?: string[];
    model?: string;
    defaultModel?: string;
    task?: string;
  } = {},
) {
  return buildWorkflow({
    agents: [
      {
        key: "a",
        name: "Writer",
        instructions: "You write.",
        tools: (opts.tools ?? []).map((name) => ({ name })),
        ...(opts.model ? { model: { model: opts.model } } : {}),
      },
    ],
    ...(opts.defaultModel ? { defaultModel: { model: opts.defaultModel } } : {}),
    nodes: [
      startNode(),
      agentNode("w", opts.branches ?? ["done"], {
        task: opts.task ?? "Write about {{inputs.topic}}",
        ...(opts.maxTurns ? { maxTurnsPerVisit: opts.maxTurns } : {}),
      }),
      endNode(),
    ],
    edges: [fwd("start", "next", "w"), ...(opts.branches ?? ["done"]).map((b) => fwd("w", b, "end"))],
  });
}

const run = (
  workflow: ReturnType<typeof wf>,
  script: (c: RecordedCall) => ScriptedReply,
  tools?: FakeTools,
  data = { inputs: { topic: "owls" } },
) => {
  const model = new ScriptedModel(script);
  const s = stepContext<"agent">(workflow, "w", { model, ...(tools ? { tools } : {}), data });
  return { model, ...s, outcome: agentExecutor(s.ctx) };
};

const search = (sideEffect = false) =>
  new FakeTools({
    search: {
      descriptor: { name: "search", description: "Search", parameters: { type: "object" }, sideEffect },
      run: (a) => `found ${String(a.q)}`,
    },
  });

describe("agent executor", () => {
  it("runs the tool-calling loop: tool results are fed back until a final answer", async () => {
    const tools = search();
    const { model, outcome, emitted, usages } = run(
      wf({ tools: ["search"] }),
      (c) =>
        c.messages.some((m) => m.role === "tool")
          ? { content: "Owls are birds." }
          : { toolCalls: [{ id: "c1", name: "search", args: { q: "owls" } }] },
      tools,
    );
    expect(await outcome).toMatchObject({
      status: "succeeded",
      output: "Owls are birds.",
      branch: "done",
      usage: { promptTokens: 20, completionTokens: 10 },
    });
    expect(model.calls[0]?.messages).toEqual([
      { role: "system", content: "You write." },
      { role: "user", content: "Write about owls" },
    ]);
    expect(model.calls[0]?.tools).toEqual(["search"]);
    expect(model.calls[1]?.messages.at(-1)).toEqual({
      role: "tool",
      toolCallId: "c1",
      name: "search",
      content: "found owls",
    });
    expect(tools.calls[0]?.idempotencyKey).toBeUndefined();
    expect(usages).toHaveLength(2);
    const progress = emitted.flatMap((e) => (e.type === "step_progress" ? [e] : []));
    expect(progress.map((e) => e.message)).toEqual([
      "Writer: prompt rendered (2 messages, tools: search)",
      "Writer called search",
      "search returned 10 characters",
    ]);
    // the step's recorded detail: rendered messages, tool arguments, tool result
    expect(progress[0]?.detail).toEqual({
      messages: [
        { role: "system", content: "You write." },
        { role: "user", content: "Write about owls" },
      ],
    });
    expect(progress[1]?.detail).toEqual({ tool: "search", callId: "c1", args: { q: "owls" } });
    expect(progress[2]?.detail).toEqual({ tool: "search", callId: "c1", result: "found owls" });
  });

  it("L1: a refusal fails the step with a typed error instead of an empty answer", async () => {
    const refusing: ModelPort = {
      chat: async () => ({
        content: "",
        refusal: "I can't help with that.",
        toolCalls: [],
        usage: { promptTokens: 3, completionTokens: 1 },
        latencyMs: 1,
        finishReason: "stop",
        model: "m",
      }),
      structured: async () => {
        throw new Error("not reached");
      },
    };
    const { ctx } = stepContext<"agent">(wf(), "w", { data: { inputs: { topic: "t" } } });
    const o = await agentExecutor({ ...ctx, model: refusing });
    expect(o).toMatchObject({
      status: "failed",
      error: "the model refused to answer: I can't help with that.",
      usage: { promptTokens: 3, completionTokens: 1 },
    });
    expect(o).not.toHaveProperty("output");
  });

  it("side-effecting tool calls carry an idempotency key from run, node, iteration and call", async () => {
    const tools = search(true);
    const { outcome } = run(
      wf({ tools: ["search"] }),
      (c) =>
        c.messages.some((m) => m.role === "tool")
          ? { content: "ok" }
          : { toolCalls: [{ id: "c1", name: "search", args: { q: "x" } }] },
      tools,
    );
    await outcome;
    expect(tools.calls[0]?.idempotencyKey).toBe("run-1:w:1:1.1");
  });

  it("R6 maxTurnsPerVisit: a model that never stops calling tools fails the step with the limit named", async () => {
    const { model, outcome } = run(
      wf({ tools: ["search"], maxTurns: 2 }),
      () => ({ toolCalls: [{ id: "c", name: "search", args: {} }] }),
      search(),
    );
    expect(await outcome).toMatchObject({
      status: "failed",
      limit: "maxTurnsPerVisit",
      error: "Writer used all 2 turns (maxTurnsPerVisit) without a final answer",
    });
    expect(model.calls).toHaveLength(2);
  });

  it("L1: an invalid tool call never runs; its error is fed back and ≤ 2 repairs are allowed", async () => {
    const bad = { id: "x", name: "search", reason: "invalid_json", message: "Unexpected token" };
    let n = 0;
    const tools = search();
    const repaired = run(
      wf({ tools: ["search"] }),
      () => (++n <= 2 ? { invalidToolCalls: [{ ...bad, id: `x${n}` }] } : { content: "done" }),
      tools,
    );
    expect(await repaired.outcome).toMatchObject({ status: "succeeded", output: "done" });
    expect(tools.calls).toHaveLength(0);
    expect(repaired.model.calls[1]?.messages.at(-1)).toMatchObject({
      role: "tool",
      toolCallId: "x1",
      content: expect.stringContaining("invalid_json"),
    });
    const repairs = repaired.emitted.flatMap((e) =>
      e.type === "step_progress" && /repaired invalid tool call/.test(e.message) ? [e] : [],
    );
    expect(repairs.map((e) => e.detail)).toEqual(
      [1, 2].map((repair) => ({ tool: "search", reason: "invalid_json", error: "Unexpected token", repair })),
    );
    const stubborn = run(wf({ tools: ["search"] }), () => ({ invalidToolCalls: [bad] }), tools);
    expect(await stubborn.outcome).toMatchObject({
      status: "failed",
      error: 'tool call "search" still invalid after 2 repairs (invalid_json: Unexpected token)',
    });
    expect(stubborn.model.calls).toHaveLength(3);
    expect(tools.calls).toHaveLength(0);
  });

  it("appends loop feedback when the task does not reference it", async () => {
    const { model, outcome } = run(wf(), () => ({ content: "v2" }), undefined, {
      inputs: { topic: "owls" },
      feedback: "too short",
    } as never);
    await outcome;
    expect(model.calls[0]?.messages[1]?.content).toBe(
      "Write about owls\n\nFeedback on the previous attempt:\ntoo short",
    );
  });
});

describe("R5 branch choice is structured", () => {
  const two = wf({ branches: ["approved", "revise"] });

  it("retries an invalid structured answer up to 2 times, then takes the valid choice", async () => {
    let n = 0;
    const { model, outcome, emitted } = run(two, (c) =>
      c.kind === "chat"
        ? { content: "looks fine" }
        : ++n < 3
          ? { invalid: "I think revise" }
          : { value: { branch: "revise" } },
    );
    expect(await outcome).toMatchObject({ status: "succeeded", branch: "revise", output: "looks fine" });
    expect(model.calls.filter((c) => c.kind === "structured")).toHaveLength(3);
    const progress = emitted.flatMap((e) => (e.type === "step_progress" ? [e.message] : []));
    expect(progress.filter((m) => m.startsWith("invalid branch choice"))).toHaveLength(2);
    expect(progress.at(-1)).toBe('chose branch "revise"');
    const last = model.calls.at(-1)?.messages.at(-1)?.content ?? "";
    expect(last).toContain("exactly one of: approved, revise");
  });

  it("after 3 invalid answers the step fails; it never falls back to the first branch", async () => {
    const { model, outcome } = run(two, (c) =>
      c.kind === "chat" ? { content: "hmm" } : { value: { branch: "maybe" } },
    );
    const o = await outcome;
    expect(o.status).toBe("failed");
    expect(o).not.toHaveProperty("branch");
    expect(o.status === "failed" && o.error).toMatch(
      /^no valid branch after 3 structured answers \(declared: approved, revise\)/,
    );
    expect(model.calls.filter((c) => c.kind === "structured")).toHaveLength(3);
  });

  it("re-validates the port's answer: an out-of-enum value from a lax adapter is not accepted", async () => {
    const lax: ModelPort = {
      chat: async () => ({
        content: "x",
        toolCalls: [],
        usage: { promptTokens: 1, completionTokens: 1 },
        latencyMs: 1,
        finishReason: "stop",
        model: "m",
      }),
      structured: async () => ({
        ok: true,
        value: { branch: "zzz" } as never,
        usage: { promptTokens: 1, completionTokens: 1 },
        latencyMs: 1,
        model: "m",
      }),
    };
    const { ctx } = stepContext<"agent">(two, "w", { data: { inputs: { topic: "t" } } });
    const o = await agentExecutor({ ...ctx, model: lax });
    expect(o).toMatchObject({ status: "failed" });
  });
});

describe("R10 models per node", () => {
  it("uses the agent's model, else the workflow default, else the owner's default (null)", async () => {
    const own = run(wf({ model: "gpt-own", defaultModel: "gpt-default" }), () => ({ content: "x" }));
    await own.outcome;
    expect(own.model.calls[0]?.model).toBe("gpt-own");
    const dflt = run(wf({ defaultModel: "gpt-default" }), () => ({ content: "x" }));
    await dflt.outcome;
    expect(dflt.model.calls[0]?.model).toBe("gpt-default");
    const none = run(wf(), () => ({ content: "x" }));
    await none.outcome;
    expect(none.model.calls[0]?.model).toBeNull();
  });

  it("a permanent provider error (after lib/llm's retries) fails the step with the reason", async () => {
    const { outcome } = run(wf(), () => ({
      error: new ModelCallError("retries_exhausted", "429 Too Many Requests after 4 attempts", 429),
    }));
    expect(await outcome).toMatchObject({
      status: "failed",
      error: "model call failed (retries_exhausted, HTTP 429): 429 Too Many Requests after 4 attempts",
    });
  });

  it("an unknown tool or a missing agent fails with a clear message", async () => {
    const { outcome } = run(wf({ tools: ["nope"] }), () => ({ content: "x" }));
    expect(await outcome).toMatchObject({
      status: "failed",
      error: 'tool "nope" does not exist or is not approved to run',
    });
  });
});
