import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ruleSchema } from "@/lib/llm/scripted/fixture";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { useWorkerRuntime } from "@/test/helpers/runtime";

/**
 * Model-facing robustness through real runs (docs/reliability.md: D7, D8, L1, L2, L3): the
 * scripted server injects each failure; one real worker process runs every case concurrently.
 */

const call = { toolCalls: [{ name: "word_count", args: { text: "three little words" } }] };
const final = { text: "The text has three words." };
/** A tool-using agent: fault on its first call(s) (`times`), then a valid tool call, then a final answer. */
type Rule = z.input<typeof ruleSchema>;
const toolRule = (id: string, fault: NonNullable<Rule["fault"]>, times?: number): Rule => ({
  id,
  match: { system: `[[${id}]]` },
  fault,
  ...(times ? { times } : {}),
  sequence: [call, final],
});

const rt = useWorkerRuntime({
  fixtures: [
    {
      rules: [
        toolRule("malformed", { kind: "malformed_args" }, 1),
        toolRule("truncated", { kind: "truncated_args" }, 1),
        toolRule("empty", { kind: "empty_args" }, 1),
        toolRule("unknown", { kind: "unknown_tool" }, 1),
        toolRule("always-bad", { kind: "malformed_args" }),
        toolRule("r429", { kind: "http", status: 429, retryAfter: 1 }, 2),
        toolRule("r500", { kind: "http", status: 500 }, 1),
        toolRule("r503", { kind: "http", status: 503 }, 1),
        toolRule("reset", { kind: "reset" }, 1),
        toolRule("r401", { kind: "http", status: 401 }),
        { id: "refusal", match: { system: "[[refusal]]" }, reply: { refusal: "I can't help with that." } },
        { id: "stall", match: { system: "[[stall]]" }, fault: { kind: "stall" } },
        { id: "same-call", match: { system: "[[same-call]]" }, reply: call },
        { id: "long", match: { system: "[[long]]" }, reply: { text: "word ".repeat(200) } },
      ],
    },
  ],
});

type Agent = { marker: string; tools?: boolean; node?: Record<string, unknown> };
/** start → one agent per entry (parallel when several) → end. */
function flow(agents: Agent[], limits: Record<string, unknown> = {}): WorkflowInput {
  return {
    name: agents.map((a) => a.marker).join("+"),
    limits: { maxSteps: 100, maxIterationsPerLoop: 3, runTimeoutMs: 60_000, maxTurnsPerVisit: 8, ...limits },
    agents: agents.map((a, i) => ({
      key: `a${i}`,
      name: `A${i}`,
      instructions: `[[${a.marker}]] Count words.`,
      model: { model: "scripted-demo" },
      ...(a.tools === false ? {} : { tools: [{ name: "word_count" }] }),
    })),
    nodes: [
      { id: "start", type: "start" },
      ...agents.map((a, i) => ({
        id: `n${i}`,
        type: "agent" as const,
        agent: `a${i}`,
        task: "Count the words of 'three little words'.",
        ...a.node,
      })),
      { id: "end", type: "end", join: "all" as const },
    ],
    edges: agents.flatMap((_, i) => [
      { id: `s${i}`, source: "start", sourceHandle: "next", target: `n${i}` },
      { id: `t${i}`, source: `n${i}`, sourceHandle: "done", target: "end" },
    ]),
  };
}
const runOf = (doc: WorkflowInput, ms?: number) => rt.run(doc, {}, ms);
const requestsOf = (rule: string) => rt.model.requests().filter((q) => q.rule === rule);
type Ev = { type: string; payload: unknown };
const progress = (events: Ev[]) =>
  events
    .filter((e) => e.type === "step_progress")
    .map((e) => e.payload as { message: string; detail?: { args?: unknown } });
/** Every tool invocation the engine made had valid word_count arguments. */
const noInvalidToolRun = (events: Ev[]) => {
  for (const p of progress(events).filter((m) => / called word_count$/.test(m.message)))
    expect(p.detail?.args).toEqual({ text: expect.any(String) });
};

describe("L1 failure matrix (+ D7 transient/permanent)", () => {
  it(
    "recoverable faults are repaired or retried; permanent ones end as typed step errors; no tool runs with invalid args",
    { timeout: 120_000 },
    async () => {
      const recoverable = ["malformed", "truncated", "empty", "unknown", "r429", "r500", "r503", "reset"];
      const results = await Promise.all(
        [...recoverable, "always-bad", "r401", "refusal"].map(
          async (m) => [m, await runOf(flow([{ marker: m }]))] as const,
        ),
      );
      const by = Object.fromEntries(results);
      for (const m of recoverable) {
        const { run, events } = by[m]!;
        expect(run.status, `${m}: ${run.reason}`).toBe("succeeded");
        noInvalidToolRun(events);
        expect(
          progress(events).some((p) => p.message.includes("called word_count")),
          m,
        ).toBe(true);
      }
      // every invalid call is repaired by the agent loop and shows in the step's events (L1 visibility)
      for (const m of ["malformed", "truncated", "empty", "unknown"]) {
        const repairs = progress(by[m]!.events).filter((p) => /repaired invalid tool call/.test(p.message));
        expect(repairs, m).toHaveLength(1);
        expect(repairs[0]!.detail, m).toMatchObject({
          repair: 1,
          reason: expect.any(String),
          error: expect.any(String),
        });
      }
      for (const m of ["malformed", "truncated", "empty"]) expect(requestsOf(m).length, m).toBeGreaterThanOrEqual(3);
      expect(progress(by.unknown!.events).some((p) => /called no_such_tool/.test(p.message))).toBe(false);

      // D7: 429 with retry-after 1 s retried with backoff (3 requests, spaced ≥ ~1 s); 401 fails at once
      const times = requestsOf("r429").map((q) => new Date(q.at).getTime());
      expect(times.length).toBeGreaterThanOrEqual(3);
      expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(900);
      expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(900);
      expect(by.r401!.run.status).toBe("failed");
      expect(by.r401!.run.reason ?? "").toMatch(/401|api key|invalid_api_key/i);
      expect(requestsOf("r401")).toHaveLength(1);

      const bad = by["always-bad"]!;
      expect(bad.run.status).toBe("failed");
      expect(bad.run.reason ?? "").toMatch(/invalid/i);
      expect(bad.run.reason ?? "").toMatch(/2 repairs/);
      expect(requestsOf("always-bad").length).toBeLessThanOrEqual(3);
      noInvalidToolRun(bad.events);

      expect(progress(bad.events).filter((p) => /repaired invalid tool call/.test(p.message))).toHaveLength(2);

      // a refusal ends the step with a typed error, not an empty answer
      const refusal = by.refusal!;
      expect(refusal.run.status).toBe("failed");
      const refused = refusal.steps.find((s) => s.nodeId === "n0");
      expect(refused?.status).toBe("failed");
      expect(refused?.error).toBe("the model refused to answer: I can't help with that.");
      expect(refused?.output ?? null).toBeNull();
      expect(refusal.run.reason ?? "").toMatch(/refused/);
    },
  );
});

describe("D8 timeouts", () => {
  it(
    "a hung model call is aborted at the node's timeoutMs and marked timed_out; the run deadline holds",
    { timeout: 60_000 },
    async () => {
      const t0 = Date.now();
      const [node, deadline] = await Promise.all([
        runOf(flow([{ marker: "stall", node: { timeoutMs: 1_500 } }])),
        runOf(flow([{ marker: "stall" }], { runTimeoutMs: 3_000 })),
      ]);
      expect(node.steps.find((s) => s.nodeId === "n0")?.status).toBe("timed_out");
      expect(node.run.status).not.toBe("succeeded");
      expect(node.run.finishedAt!.getTime() - node.run.createdAt.getTime()).toBeLessThan(10_000);
      expect(deadline.run.status).toBe("budget_exhausted");
      expect(JSON.stringify(deadline.events.find((e) => e.type === "run_finished")?.payload)).toContain("runTimeoutMs");
      expect(deadline.run.finishedAt!.getTime() - deadline.run.createdAt.getTime()).toBeLessThan(10_000);
      expect(Date.now() - t0).toBeLessThan(20_000);
    },
  );
});

describe("L2 token budget", () => {
  it(
    "a small budget stops the run budget_exhausted with overshoot ≤ one call; parallel branches share it",
    { timeout: 60_000 },
    async () => {
      const serial = flow([{ marker: "long", tools: false }], { tokenBudget: 500 });
      serial.agents!.push(
        ...[1, 2, 3].map((i) => ({
          key: `l${i}`,
          name: `L${i}`,
          instructions: "[[long]] Write.",
          model: { model: "scripted-demo" },
          tools: [],
        })),
      );
      const [n0, n1, n2] = serial.nodes ?? [];
      serial.nodes = [
        n0!,
        n1!,
        ...[1, 2, 3].map((i) => ({ id: `l${i}`, type: "agent" as const, agent: `l${i}`, task: "Write more." })),
        n2!,
      ];
      serial.edges = [
        ["start", "n0"],
        ["n0", "l1"],
        ["l1", "l2"],
        ["l2", "l3"],
        ["l3", "end"],
      ].map(([s, t], i) => ({ id: `c${i}`, source: s!, sourceHandle: i === 0 ? "next" : "done", target: t! }));
      const parallel = flow(
        [0, 1, 2, 3].map(() => ({ marker: "long", tools: false })),
        { tokenBudget: 500 },
      );
      const [a, b] = await Promise.all([runOf(serial), runOf(parallel)]);
      for (const { run, events } of [a, b]) {
        expect(run.status, run.reason ?? "").toBe("budget_exhausted");
        expect(JSON.stringify(events.find((e) => e.type === "run_finished")?.payload)).toContain("tokenBudget");
        const calls = events
          .filter((e) => e.type === "tokens_used")
          .map(
            (e) =>
              e.payload as {
                nodeId: string;
                promptTokens: number;
                completionTokens: number;
                runPromptTokens: number;
                runCompletionTokens: number;
              },
          );
        const last = calls.at(-1)!;
        const total = last.runPromptTokens + last.runCompletionTokens;
        const perCall = Math.max(...calls.map((c) => c.promptTokens + c.completionTokens));
        expect(total).toBe(calls.reduce((n, c) => n + c.promptTokens + c.completionTokens, 0)); // one shared run total
        expect(total).toBeGreaterThanOrEqual(500);
        if (run === a.run) expect(total - 500).toBeLessThanOrEqual(perCall);
        else expect(new Set(calls.map((c) => c.nodeId)).size).toBeGreaterThan(1); // several branches drew from the same budget
      }
    },
  );
});

describe("L3 limits", () => {
  it(
    "an agent repeating the same tool call forever stops at maxTurnsPerVisit with the limit named",
    { timeout: 60_000 },
    async () => {
      const { run, events } = await runOf(flow([{ marker: "same-call", node: { maxTurnsPerVisit: 4 } }]));
      expect(["failed", "budget_exhausted"]).toContain(run.status);
      expect(run.reason ?? "").toMatch(/maxTurnsPerVisit/);
      expect(requestsOf("same-call").length).toBeLessThanOrEqual(4);
      expect(progress(events).filter((p) => p.message.includes("called word_count")).length).toBeLessThanOrEqual(4);
    },
  );
});
