import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { answerStep } from "@/lib/runs/answers";
import { startRun } from "@/lib/runs/service";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { createTestWorkflow } from "@/test/fixtures";
import { modelCalls, stepsNow, waitFor, waitTerminal, workerOf } from "@/test/helpers/worker";
import { useWorkerPool } from "@/test/helpers/worker-pool";

/**
 * Tools written during a run (Alita): real worker processes, PostgreSQL, Redis and the scripted
 * model over HTTP. An agent that lacks a tool calls create_tool; the creation loop writes it (round 1
 * fails a test, round 2 passes) and the run waits for the owner's approval; approving resumes the
 * step, which calls the tool. A worker killed during round 2 costs no second model call for round 1
 * nor for the agent's first turn. A later run of another workflow reuses the approved tool.
 */
const celsius = (code: string) => ({
  json: {
    name: "celsius_to_fahrenheit",
    description: "Converts a temperature from Celsius to Fahrenheit",
    argsSchema: { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] },
    tests: [
      { input: { celsius: 100 }, expected: { fahrenheit: 212 } },
      { input: { celsius: -40 }, expected: { fahrenheit: -40 } },
    ],
    code,
  },
});

const wordCount = {
  json: {
    name: "count_vowels",
    description: "Counts the vowels of a text",
    argsSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    tests: [{ input: { text: "banana" }, expected: { vowels: 3 } }],
    code: "function run(input) { return { vowels: (input.text.match(/[aeiou]/gi) || []).length } }",
  },
};

const rates = {
  json: {
    name: "exchange_rate",
    description: "Looks up today's exchange rate of two currencies",
    argsSchema: { type: "object", properties: { from: { type: "string" } }, required: ["from"] },
    tests: [{ input: { from: "" }, expected: { error: "no currency" } }],
    code: "async function run(input, caps) { if (!input.from) return { error: 'no currency' }; return (await caps.http.get('https://api.rates.example/' + input.from)).json }",
    allowedDomains: ["api.rates.example"],
  },
};

const pool = useWorkerPool({
  size: 2,
  fixtures: [
    {
      rules: [
        // the agent: ask for a tool, call it once offered, answer with its result
        {
          id: "maker.answer",
          priority: 30,
          match: { system: "[[maker]]", lastRole: "tool", anyMessage: '"fahrenheit":212' },
          reply: { text: "100 C is {{lastTool}}" },
        },
        {
          id: "maker.vowels",
          priority: 30,
          match: { system: "[[maker]]", lastRole: "tool", anyMessage: '"vowels":' },
          reply: { text: "counted {{lastTool}}" },
        },
        {
          id: "maker.use",
          priority: 20,
          match: { system: "[[maker]]", lastRole: "tool", tools: ["celsius_to_fahrenheit"] },
          reply: { toolCalls: [{ name: "celsius_to_fahrenheit", args: { celsius: 100 } }] },
        },
        {
          id: "maker.use-vowels",
          priority: 20,
          match: { system: "[[maker]]", lastRole: "tool", tools: ["count_vowels"] },
          reply: { toolCalls: [{ name: "count_vowels", args: { text: "Weft workflows" } }] },
        },
        {
          id: "maker.ask",
          priority: 10,
          match: { system: "[[maker]]", lastRole: "user" },
          reply: { toolCalls: [{ name: "create_tool", args: { request: "{{lastUser}}" } }] },
        },
        {
          id: "maker.without",
          priority: 5,
          match: { system: "[[maker]]", lastRole: "tool" },
          reply: { text: "without the tool: {{lastTool}}" },
        },
        // the creation loop: the first Celsius draft forgets the offset, the second (slow) is right
        {
          id: "write.celsius",
          match: { schema: "write_tool", anyMessage: "Celsius" },
          sequence: [
            celsius("function run(input) { return { fahrenheit: input.celsius * 9 / 5 } }"),
            { ...celsius("function run(input) { return { fahrenheit: input.celsius * 9 / 5 + 32 } }"), delayMs: 6000 },
          ],
        },
        { id: "write.vowels", match: { schema: "write_tool", anyMessage: "vowels" }, reply: wordCount },
        { id: "write.rates", match: { schema: "write_tool", anyMessage: "exchange rate" }, reply: rates },
      ],
    },
  ],
});

const maker = (name: string, task: string, toolCreation?: "ask" | "auto"): WorkflowInput => ({
  name,
  agents: [
    {
      key: "maker",
      name: "Maker",
      instructions: "[[maker]] You do small computations with tools.",
      ...(toolCreation ? {} : { createTools: true }),
    },
  ],
  ...(toolCreation ? { toolCreation } : {}),
  nodes: [
    { id: "start", type: "start" },
    { id: "work", type: "agent", agent: "maker", task, branches: [{ id: "done" }] },
    { id: "end", type: "end", outputs: { answer: "{{nodes.work.output}}" } },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "work" },
    { id: "e2", source: "work", sourceHandle: "done", target: "end" },
  ],
});

const waitingStep = (runId: string) =>
  waitFor(
    async () => (await stepsNow(runId)).find((s) => s.nodeId === "work" && s.status === "waiting"),
    120_000,
    "the agent step waits for the approval",
  );

describe("tools created during a run", () => {
  it(
    "creates, waits, is approved and used; a worker killed during round 2 repeats no finished round; another workflow reuses the tool",
    { timeout: 420_000 },
    async () => {
      const { workflowId } = await createTestWorkflow(
        pool.workspaceId,
        maker("Temperatures", "I need a tool that converts a temperature from Celsius to Fahrenheit"),
      );
      const runId = (await startRun(pool.workspaceId, workflowId, {})).run.id;
      // round 2's request reached the model (slow answer): kill the worker holding the run
      await waitFor(async () => modelCalls(pool.model, "write.celsius") === 2, 120_000, "round 2 asked");
      const holder = (await db().run.findUniqueOrThrow({ where: { id: runId } })).leaseOwner;
      const victim = workerOf(pool.live(), holder);
      expect(victim, "a worker holds the run").toBeDefined();
      victim!.child.kill("SIGKILL");
      pool.start();

      const step = await waitingStep(runId);
      // the taker replayed the agent's first turn and round 1 from the memo: round 2 asked again, nothing else
      expect(modelCalls(pool.model, "maker.ask")).toBe(1);
      expect(modelCalls(pool.model, "write.celsius")).toBe(3);
      const request = (step.output as { request: { tool: { code: string; tests: unknown[]; codeHash: string } } })
        .request;
      expect(request.tool.code).toContain("+ 32");
      expect(request.tool.tests).toHaveLength(2);
      const version = await db().toolVersion.findFirstOrThrow({
        where: { tool: { workspaceId: pool.workspaceId, name: "celsius_to_fahrenheit" } },
      });
      expect(version).toMatchObject({ approvedAt: null, codeHash: request.tool.codeHash });
      expect((await db().run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("waiting");

      await answerStep(pool.workspaceId, runId, { nodeId: "work", choice: "approve" }, "Ada");
      const { run, steps } = await waitTerminal(runId, 120_000);
      expect(run.status).toBe("succeeded");
      expect(run.outputs).toEqual({ answer: '100 C is {"fahrenheit":212}' });
      expect(steps.find((s) => s.nodeId === "work")).toMatchObject({ status: "succeeded", attempt: 3 });
      expect(modelCalls(pool.model, "maker.ask")).toBe(1);
      expect(modelCalls(pool.model, "write.celsius")).toBe(3);
      expect((await db().toolVersion.findUniqueOrThrow({ where: { id: version.id } })).approvedAt).not.toBeNull();

      // another workflow asks for the same capability: the tool box has it, nothing is written
      const other = await createTestWorkflow(
        pool.workspaceId,
        maker("Weather report", "convert temperatures in Celsius to Fahrenheit"),
      );
      const second = (await startRun(pool.workspaceId, other.workflowId, {})).run.id;
      const done = await waitTerminal(second, 120_000);
      expect(done.run.status).toBe("succeeded");
      expect(done.run.outputs).toEqual({ answer: '100 C is {"fahrenheit":212}' });
      expect(modelCalls(pool.model, "write.celsius")).toBe(3);
      const progress = done.events.filter((e) => e.type === "step_progress").map((e) => JSON.stringify(e.payload));
      expect(progress.some((p) => /reused \\"celsius_to_fahrenheit\\" \(similarity 0\.\d\d\)/.test(p))).toBe(true);
    },
  );

  it("auto: a pure tool is approved at once and used without waiting", { timeout: 180_000 }, async () => {
    const { workflowId } = await createTestWorkflow(
      pool.workspaceId,
      maker("Vowels", "I need a tool that counts the vowels of a text", "auto"),
    );
    const runId = (await startRun(pool.workspaceId, workflowId, {})).run.id;
    const { run, events } = await waitTerminal(runId, 120_000);
    expect(run.status).toBe("succeeded");
    expect(run.outputs).toEqual({ answer: 'counted {"vowels":3}' });
    expect(events.some((e) => e.type === "input_requested")).toBe(false);
    // the tool's writing is paid by the run: its model call counts like the agent's three
    expect(events.filter((e) => e.type === "tokens_used")).toHaveLength(4);
    expect(run.promptTokens).toBeGreaterThan(0);
    const v = await db().toolVersion.findFirstOrThrow({
      where: { tool: { workspaceId: pool.workspaceId, name: "count_vowels" } },
    });
    expect(v.approvedAt).not.toBeNull();
  });

  it(
    "auto: a tool that asks for network waits; rejecting it answers the agent, which goes on without it",
    { timeout: 180_000 },
    async () => {
      const { workflowId } = await createTestWorkflow(
        pool.workspaceId,
        maker("Rates", "I need a tool for the exchange rate of a currency", "auto"),
      );
      const runId = (await startRun(pool.workspaceId, workflowId, {})).run.id;
      const step = await waitingStep(runId);
      expect(JSON.stringify(step.output)).toContain("api.rates.example");
      // only approve or reject answer a tool's review, and a refused answer stores nothing
      await expect(
        answerStep(pool.workspaceId, runId, { nodeId: "work", choice: "maybe" }, "Ada"),
      ).rejects.toMatchObject({
        code: "bad_request",
      });
      expect((await stepsNow(runId)).find((s) => s.nodeId === "work")?.answer).toBeNull();
      await answerStep(pool.workspaceId, runId, { nodeId: "work", choice: "reject", comment: "no network" }, "Ada");
      const { run } = await waitTerminal(runId, 120_000);
      expect(run.status).toBe("succeeded");
      expect(run.outputs).toEqual({
        answer: 'without the tool: The owner rejected tool "exchange_rate": no network. Do the task without it.',
      });
      const v = await db().toolVersion.findFirstOrThrow({
        where: { tool: { workspaceId: pool.workspaceId, name: "exchange_rate" } },
      });
      expect(v.approvedAt).toBeNull();
    },
  );
});
