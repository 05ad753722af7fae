import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/engine/events";
import { instantiateTemplate } from "@/lib/workflow/templates";
import { sharedEvent, sharedGraph, sharedStep } from "./share-dto";

const SECRET = "SECRET-CONTENT";
const events: RunEvent[] = [
  { type: "run_started", inputs: { q: SECRET }, resumed: false, redispatched: [] },
  { type: "step_started", nodeId: "a", iteration: 2, attempt: 1, kind: "agent", feedback: SECRET },
  { type: "step_progress", nodeId: "a", iteration: 2, message: "called search", detail: { args: { q: SECRET } } },
  {
    type: "step_progress",
    nodeId: "a",
    iteration: 2,
    message: "prompt rendered (2 messages)",
    detail: {
      messages: [
        { role: "system", content: SECRET },
        { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "search", args: { q: SECRET } }] },
        { role: "tool", name: "search", toolCallId: "c1", content: SECRET },
      ],
    },
  },
  {
    type: "step_progress",
    nodeId: "a",
    iteration: 2,
    message: "search returned 14 characters",
    detail: { tool: "search", callId: "c1", result: SECRET },
  },
  {
    type: "step_progress",
    nodeId: "a",
    iteration: 2,
    message: 'chose branch "done"',
    detail: { branch: "done", reason: SECRET },
  },
  {
    type: "step_retrying",
    nodeId: "a",
    iteration: 2,
    attempt: 1,
    error: "503 upstream",
    errorClass: "provider_5xx",
    retry: 1,
    maxRetries: 2,
    delayMs: 1_000,
    retryAt: "2026-01-01T00:00:01.000Z",
    promptTokens: 1,
    completionTokens: 0,
    latencyMs: 9,
  },
  { type: "step_started", nodeId: "a", iteration: 2, attempt: 2, kind: "agent", retry: 1 },
  {
    type: "step_finished",
    nodeId: "a",
    iteration: 2,
    status: "succeeded",
    output: SECRET,
    promptTokens: 1,
    completionTokens: 2,
    error: "503 upstream",
    errorClass: "provider_5xx",
    recovered: "fallback",
  },
  { type: "handoff", nodeId: "o", iteration: 1, worker: "w", phase: "handoff", task: SECRET, result: SECRET },
  {
    type: "input_requested",
    nodeId: "review",
    iteration: 1,
    prompt: SECRET,
    choices: [{ id: "approve", label: "Approve" }],
    fields: [{ key: "note", type: "text", description: "", required: true }],
    timeoutMs: 60_000,
    timeoutChoice: "approve",
  },
  {
    type: "input_requested",
    nodeId: "solve",
    iteration: 1,
    prompt: SECRET,
    choices: [
      { id: "approve", label: "Approve" },
      { id: "reject", label: "Reject" },
    ],
    fields: [],
    tool: {
      name: "count_vowels",
      description: SECRET,
      versionId: "v1",
      version: 1,
      codeHash: "h",
      code: SECRET,
      tests: [{ input: { text: SECRET }, expected: 1, passed: true }],
      allowedDomains: [],
      rounds: 1,
    },
  },
  { type: "run_waiting", steps: [{ nodeId: "review", iteration: 1 }] },
  { type: "run_finished", status: "succeeded", reason: "done", outputs: { answer: SECRET } },
];

describe("shared events", () => {
  it("drop every prompt/output field without includeContent and keep them with it (system prompts never)", () => {
    for (const e of events) {
      const shared = sharedEvent(e, false);
      expect(JSON.stringify(shared)).not.toContain(SECRET);
      expect(shared === null || shared.type === e.type).toBe(true);
    }
    const withContent = events.map((e) => sharedEvent(e, true));
    const expected = events.map((e) =>
      e.type === "step_progress" && Array.isArray(e.detail?.messages)
        ? {
            ...e,
            detail: {
              ...e.detail,
              messages: (e.detail.messages as { role: string }[]).filter((m) => m.role !== "system"),
            },
          }
        : e,
    );
    expect(JSON.parse(JSON.stringify(withContent))).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  it("finding 2: without content, errors and reasons say what happened and nothing of the run's data", () => {
    const marker = "MARKER-7f3a";
    const failed: RunEvent[] = [
      { type: "step_progress", nodeId: "t", iteration: 1, message: `writer asked for unknown tool "${marker}"` },
      {
        type: "step_finished",
        nodeId: "t",
        iteration: 1,
        status: "failed",
        error: `tool failed: bad input ${marker}`,
        promptTokens: 0,
        completionTokens: 0,
      },
      { type: "handoff", nodeId: "o", iteration: 1, worker: "w", phase: "handback", error: `worker said ${marker}` },
      { type: "cancel_requested", reason: `stop ${marker}` },
      { type: "run_finished", status: "failed", reason: `Aborted: ${marker}`, limit: "maxSteps" },
    ];
    const shared = failed.map((e) => sharedEvent(e, false));
    expect(JSON.stringify(shared)).not.toContain(marker);
    expect(shared[0]).toBeNull();
    expect(shared[1]).toMatchObject({
      type: "step_finished",
      status: "failed",
      error: "Error details are not shared by this link.",
    });
    expect(shared[4]).toMatchObject({
      type: "run_finished",
      status: "failed",
      reason: "Run failed (limit: maxSteps); details are not shared by this link.",
    });
    const row = {
      nodeId: "t",
      iteration: 1,
      attempt: 1,
      status: "failed",
      branch: null,
      promptTokens: 0,
      completionTokens: 0,
      latencyMs: 3,
      error: `tool failed: ${marker}`,
      startedAt: new Date(),
      finishedAt: new Date(),
      output: null,
    };
    expect(sharedStep(row, false).error).toBe("Error details are not shared by this link.");
    expect(sharedStep(row, true).error).toContain(marker);
  });
});

describe("shared subflows", () => {
  const ids = { runId: "child-run-id", workflowId: "child-workflow-id" };
  it("name the workflow a subflow runs but never the owner's run and workflow ids, in events and in the waiting step's output", () => {
    const e: RunEvent = { type: "subflow_started", nodeId: "sub", iteration: 1, ...ids, workflowName: "Summariser" };
    for (const content of [false, true]) {
      const out = JSON.stringify(sharedEvent(e, content));
      expect(out).toContain("Summariser");
      expect(out).not.toContain("child-run-id");
      expect(out).not.toContain("child-workflow-id");
    }
    const row = {
      nodeId: "sub",
      iteration: 1,
      attempt: 1,
      status: "waiting",
      branch: null,
      promptTokens: 0,
      completionTokens: 0,
      latencyMs: null,
      error: null,
      startedAt: new Date(),
      finishedAt: null,
    };
    const step = sharedStep(
      { ...row, output: { request: { kind: "subflow", ...ids, workflowName: "Summariser", timeoutMs: 5_000 } } },
      true,
    );
    expect(step.output).toEqual({
      request: { kind: "subflow", runId: "", workflowId: "", workflowName: "Summariser", timeoutMs: 5_000 },
    });
    expect(sharedStep({ ...row, status: "succeeded", output: { summary: "owls" } }, true).output).toEqual({
      summary: "owls",
    });
    expect(
      sharedStep({ ...row, output: { request: { kind: "subflow", ...ids, workflowName: "S" } } }, false).output,
    ).toBeUndefined();
  });
});

describe("shared graph", () => {
  it("carries a human review's choices, like a router's branches", () => {
    const graph = sharedGraph(instantiateTemplate("post-approval")!);
    expect(graph.nodes.find((n) => n.id === "review")?.branches).toEqual([
      { id: "publish", label: "Publish" },
      { id: "revise", label: "Send back" },
    ]);
  });

  it("says which nodes take their error branch, and nothing else of their error policy", () => {
    const doc = instantiateTemplate("post-approval")!;
    const review = doc.nodes.find((n) => n.id === "review")!;
    review.onError = {
      onExhausted: "error_branch",
      retry: { maxAttempts: 3, initialDelayMs: 1_000, backoffFactor: 2, on: ["timeout"] },
      fallback: SECRET,
    };
    const graph = sharedGraph(doc);
    expect(graph.nodes.find((n) => n.id === "review")?.errorBranch).toBe(true);
    expect(graph.nodes.filter((n) => n.errorBranch).map((n) => n.id)).toEqual(["review"]);
    expect(JSON.stringify(graph)).not.toContain(SECRET);
  });
});

describe("shared reuse", () => {
  it("says a step was reused from its source run without naming that run", () => {
    const e: RunEvent = {
      type: "step_started",
      nodeId: "a",
      iteration: 1,
      attempt: 1,
      kind: "agent",
      reused: { runId: "source-run-id", edited: true },
    };
    for (const content of [false, true])
      expect(sharedEvent(e, content)).toEqual({ ...e, reused: { runId: "", edited: true } });
  });
});

describe("shared step detail", () => {
  it("keeps only allow-listed detail keys and message fields", () => {
    const e: RunEvent = {
      type: "step_progress",
      nodeId: "a",
      iteration: 1,
      message: "m",
      detail: {
        args: { q: 1 },
        internal: "LEAK",
        messages: [
          { role: "user", content: "hi", extra: "LEAK", toolCalls: [{ id: "c", name: "t", args: {}, secret: "LEAK" }] },
        ],
      },
    };
    const shared = sharedEvent(e, true);
    expect(JSON.stringify(shared)).not.toContain("LEAK");
    expect(
      sharedEvent(
        {
          ...e,
          detail: {
            messages: [
              { role: "system", content: "You are INSTRUCTIONS" },
              { role: "user", content: "hi" },
            ],
          },
        },
        true,
      ),
    ).toEqual({
      type: "step_progress",
      nodeId: "a",
      iteration: 1,
      message: "m",
      detail: { messages: [{ role: "user", content: "hi" }] },
    });
    expect(shared).toEqual({
      type: "step_progress",
      nodeId: "a",
      iteration: 1,
      message: "m",
      detail: {
        args: { q: 1 },
        messages: [{ role: "user", content: "hi", toolCalls: [{ id: "c", name: "t", args: {} }] }],
      },
    });
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

  it("names an end node's outputs without their templates", () => {
    const g = sharedGraph(instantiateTemplate("majority-vote")!);
    expect(g.nodes.find((n) => n.type === "end")?.outputs).toEqual(["answer"]);
    expect(g.nodes.filter((n) => n.type !== "end").every((n) => n.outputs.length === 0)).toBe(true);
    expect(JSON.stringify(g)).not.toContain("{{nodes.aggregate.output}}");
  });

  it("carries each node's join and the workflow's default model, which its canvas draws (a join badge, a model line)", () => {
    const doc = instantiateTemplate("majority-vote")!;
    const any = {
      ...doc,
      defaultModel: { model: "gpt-4o-mini", provider: "openai" },
      nodes: doc.nodes.map((n) => (n.id === "aggregate" ? { ...n, join: "any" as const } : n)),
    };
    const g = sharedGraph(any);
    expect(g.nodes.find((n) => n.id === "aggregate")?.join).toBe("any");
    expect(g.nodes.find((n) => n.id === "solve_a")?.join).toBe("all");
    // the model's name only, as the agents' models (never its provider)
    expect(g.defaultModel).toBe("gpt-4o-mini");
    expect(JSON.stringify(g)).not.toContain("openai");
    expect(sharedGraph(doc).defaultModel).toBeNull();
  });
});
