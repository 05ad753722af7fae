import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importAutoAgentXml } from "@/lib/workflow/importers/autoagent-xml";
import { importMetaAgentFsm } from "@/lib/workflow/importers/metaagent-fsm";
import type { Workflow } from "@/lib/workflow/schema";
import { instantiateTemplate } from "@/lib/workflow/templates";
import { hasErrors, validate } from "@/lib/workflow/validate";
import { useWorkerRuntime } from "@/test/helpers/runtime";

/**
 * Acceptance scenarios A–E and the seed formats (docs/workflow-model.md), end to end:
 * real worker process, BullMQ, PostgreSQL and the scripted model server over HTTP.
 */
const rt = useWorkerRuntime();

const choose = (branch: string) => ({ json: { branch } });

const count = (steps: { nodeId: string; status: string }[], nodeId: string) =>
  steps.filter((s) => s.nodeId === nodeId && s.status === "succeeded").length;
const template = (id: string): Workflow => {
  const t = instantiateTemplate(id);
  if (!t) throw new Error(`no template ${id}`);
  return t;
};

describe("A: article writer (evaluator-optimizer)", () => {
  it("k=2 rejections → 3 outline steps, 3 evaluations, writer once", { timeout: 90_000 }, async () => {
    rt.model.load(
      [
        {
          rules: [
            {
              id: "a-k2",
              match: { schema: "choose_branch", anyMessage: "topic-k2" },
              sequence: [choose("revise"), choose("revise"), choose("approved")],
            },
          ],
        },
      ],
      "add",
    );
    const { run: r, steps } = await rt.run(template("article-writer"), { topic: "topic-k2" });
    expect(r.status, r.reason ?? "").toBe("succeeded");
    expect(count(steps, "outline")).toBe(3);
    expect(count(steps, "evaluate")).toBe(3);
    expect(count(steps, "write")).toBe(1);
    expect(rt.model.requests().filter((q) => q.rule === "a-k2")).toHaveLength(3);
  });

  it("always rejecting stops at the cap (3 outline steps) with loop_exhausted", { timeout: 90_000 }, async () => {
    rt.model.load(
      [
        {
          rules: [
            { id: "a-never", match: { schema: "choose_branch", anyMessage: "topic-never" }, reply: choose("revise") },
          ],
        },
      ],
      "add",
    );
    const { run: r, steps, events } = await rt.run(template("article-writer"), { topic: "topic-never" });
    expect(count(steps, "outline")).toBe(3);
    const exhausted = events.filter((e) => e.type === "loop_exhausted");
    expect(exhausted).toHaveLength(1);
    expect(JSON.stringify(exhausted[0]?.payload)).toContain("evaluate-revise-outline");
    // onExhausted "continue" with continueWith "approved": the writer runs once on the last outline
    expect(r.status, r.reason ?? "").toBe("succeeded");
    expect(count(steps, "write")).toBe(1);
  });

  it("onExhausted abort ends budget_exhausted with the loop named", { timeout: 90_000 }, async () => {
    const doc = template("article-writer");
    doc.edges = doc.edges.map((e) => (e.kind === "loop" ? { ...e, onExhausted: "abort", continueWith: undefined } : e));
    rt.model.load(
      [
        {
          rules: [
            { id: "a-abort", match: { schema: "choose_branch", anyMessage: "topic-abort" }, reply: choose("revise") },
          ],
        },
      ],
      "add",
    );
    const { run: r, steps, events } = await rt.run(doc, { topic: "topic-abort" });
    expect(r.status).toBe("budget_exhausted");
    expect(r.reason ?? "").toMatch(/evaluate-revise-outline.*exhausted/);
    expect(JSON.stringify(events.find((e) => e.type === "run_finished")?.payload)).toContain(
      "loop:evaluate-revise-outline",
    );
    expect(count(steps, "outline")).toBe(3);
    expect(count(steps, "write")).toBe(0);
  });
});

const majority = (): Workflow => {
  const doc = template("majority-vote");
  doc.agents = doc.agents.map((a) =>
    a.key.startsWith("solver_") ? { ...a, model: { model: `scripted-${a.key.slice(-1)}` } } : a,
  );
  return doc;
};

describe("B: majority vote (parallel + join)", () => {
  it(
    "three solvers on three models overlap; the aggregator runs once after all three and answers 13",
    { timeout: 90_000 },
    async () => {
      rt.model.load(
        [
          {
            rules: [
              { id: "b-a", match: { model: "scripted-a" }, reply: { text: "x = 13. ANSWER: 13", delayMs: 1500 } },
              { id: "b-b", match: { model: "scripted-b" }, reply: { text: "so 13. ANSWER: 13", delayMs: 1500 } },
              { id: "b-c", match: { model: "scripted-c" }, reply: { text: "hence 5. ANSWER: 5", delayMs: 1500 } },
              {
                id: "b-agg",
                match: { system: "Compare the candidate answers", anyMessage: "ANSWER: 5" },
                reply: { text: "13" },
              },
            ],
          },
        ],
        "add",
      );
      const { run: r, steps } = await rt.run(majority(), { problem: "What is 6 + 7?" });
      expect(r.status, r.reason ?? "").toBe("succeeded");
      const solvers = steps.filter((s) => s.nodeId.startsWith("solve_"));
      expect(solvers).toHaveLength(3);
      const latestStart = Math.max(...solvers.map((s) => s.startedAt!.getTime()));
      const earliestEnd = Math.min(...solvers.map((s) => s.finishedAt!.getTime()));
      expect(latestStart).toBeLessThan(earliestEnd); // all three ran at the same time
      const agg = steps.filter((s) => s.nodeId === "aggregate");
      expect(agg).toHaveLength(1);
      expect(agg[0]!.startedAt!.getTime()).toBeGreaterThanOrEqual(
        Math.max(...solvers.map((s) => s.finishedAt!.getTime())),
      );
      expect(
        new Set(
          rt.model
            .requests()
            .filter((q) => q.rule?.startsWith("b-") && q.rule !== "b-agg")
            .map((q) => (q.body as { model?: string }).model),
        ),
      ).toEqual(new Set(["scripted-a", "scripted-b", "scripted-c"]));
      const aggPrompt = JSON.stringify(rt.model.requests().find((q) => q.rule === "b-agg")?.body);
      expect(aggPrompt).toContain("ANSWER: 13");
      expect(aggPrompt).toContain("ANSWER: 5");
      expect(JSON.stringify(r.outputs)).toContain("13");
    },
  );

  it(
    "a solver failing with a permanent 400 fails the join quickly with a clear error",
    { timeout: 60_000 },
    async () => {
      rt.model.load(
        [
          {
            rules: [
              {
                id: "b-fail",
                priority: 10,
                match: { model: "scripted-b", anyMessage: "FAILING" },
                fault: { kind: "http", status: 400, message: "bad request for solver b" },
              },
            ],
          },
        ],
        "add",
      );
      const t0 = Date.now();
      const { run: r, steps } = await rt.run(majority(), { problem: "FAILING problem" }, 30_000);
      expect(Date.now() - t0).toBeLessThan(15_000);
      expect(r.status).toBe("failed");
      expect(r.reason ?? "").toMatch(/solve_b/);
      expect(steps.find((s) => s.nodeId === "solve_b")?.status).toBe("failed");
      expect(steps.filter((s) => s.nodeId === "aggregate" && s.status === "succeeded")).toHaveLength(0);
    },
  );
});

describe("C: financial analyst (orchestrator-workers)", () => {
  it("each worker is handed work at least once and hands back", { timeout: 90_000 }, async () => {
    rt.model.load(
      [
        {
          rules: [
            {
              id: "c-lead",
              match: { system: "Plan the analysis", tools: ["handoff_to_document_manager"] },
              sequence: [
                { toolCalls: [{ name: "handoff_to_document_manager", args: { task: "Summarise the 10-K" } }] },
                { toolCalls: [{ name: "handoff_to_market_research", args: { task: "Find competitor news" } }] },
                { text: "Analysis: revenue up, competitors weak." },
              ],
            },
            {
              id: "c-doc",
              match: { system: "Find, read and summarise" },
              reply: { text: "10-K summary: revenue +12%." },
            },
            { id: "c-mkt", match: { system: "Research market data" }, reply: { text: "Competitors lost share." } },
          ],
        },
      ],
      "add",
    );
    const { run: r, events } = await rt.run(template("financial-analyst"), { request: "Analyse ACME" });
    expect(r.status, r.reason ?? "").toBe("succeeded");
    const handoffs = events
      .filter((e) => e.type === "handoff")
      .map((e) => e.payload as { worker: string; phase: string });
    for (const w of ["document_manager", "market_research"]) {
      expect(handoffs.filter((h) => h.worker === w && h.phase === "handoff").length).toBeGreaterThanOrEqual(1);
      expect(handoffs.filter((h) => h.worker === w && h.phase === "handback").length).toBeGreaterThanOrEqual(1);
    }
    expect(JSON.stringify(r.outputs)).toContain("Analysis");
  });
});

describe("D: refund triage (routing)", () => {
  it(
    "a refund request never runs the sales agent (skipped); both paths reach the same end",
    { timeout: 90_000 },
    async () => {
      rt.model.load(
        [
          {
            rules: [
              { id: "d-refund", match: { schema: "choose_branch", anyMessage: "order 42" }, reply: choose("refund") },
              {
                id: "d-buy",
                match: { schema: "choose_branch", anyMessage: "buy a kettle" },
                reply: choose("purchase"),
              },
              { id: "d-sales", match: { system: "Help customers choose and buy" }, reply: { text: "SALES reply" } },
              { id: "d-refunds", match: { system: "Handle refund requests" }, reply: { text: "REFUND reply" } },
            ],
          },
        ],
        "add",
      );
      const refund = await rt.run(template("refund-triage"), { message: "I want my money back for order 42" });
      expect(refund.run.status, refund.run.reason ?? "").toBe("succeeded");
      const status = (s: typeof refund.steps, id: string) => s.filter((x) => x.nodeId === id).map((x) => x.status);
      expect(status(refund.steps, "sales")).toEqual(["skipped"]);
      expect(status(refund.steps, "refund")).toEqual(["succeeded"]);
      expect(status(refund.steps, "end")).toEqual(["succeeded"]);
      expect(rt.model.requests().filter((q) => q.rule === "d-sales")).toHaveLength(0);
      const buy = await rt.run(template("refund-triage"), { message: "I want to buy a kettle" });
      expect(buy.run.status, buy.run.reason ?? "").toBe("succeeded");
      expect(status(buy.steps, "refund")).toEqual(["skipped"]);
      expect(status(buy.steps, "end")).toEqual(["succeeded"]);
      expect(JSON.stringify(refund.run.outputs)).toContain("REFUND reply");
      expect(JSON.stringify(buy.run.outputs)).toContain("SALES reply");
    },
  );
});

describe("E: ML pipeline FSM (traceback)", () => {
  it("a data problem traces back to preprocess; the run stays within maxSteps", { timeout: 90_000 }, async () => {
    rt.model.load(
      [
        {
          rules: [
            {
              id: "e-eval",
              match: { schema: "choose_branch", system: "Evaluate a trained model" },
              sequence: [choose("data_problem"), choose("ok")],
            },
          ],
        },
      ],
      "add",
    );
    const doc = template("ml-pipeline");
    const { run: r, steps, events } = await rt.run(doc, { dataset: "s3://bucket/churn.csv" });
    expect(r.status, r.reason ?? "").toBe("succeeded");
    expect(count(steps, "preprocess")).toBe(2);
    expect(count(steps, "train")).toBe(2);
    expect(count(steps, "evaluate")).toBe(2);
    expect(count(steps, "report")).toBe(1);
    expect(events.some((e) => e.type === "loop_iteration" && JSON.stringify(e.payload).includes("preprocess"))).toBe(
      true,
    );
    expect(steps.filter((s) => s.status !== "skipped").length).toBeLessThanOrEqual(doc.limits.maxSteps ?? Infinity);
  });
});

const seed = (name: string) =>
  readFileSync(path.resolve(import.meta.dirname, "../../lib/workflow/importers/fixtures", name), "utf8");

/**
 * Loads rules for an imported workflow: every branching node picks its forward branch, except the
 * loop's source, which picks the loop branch `times` times first (matched by the agents' instructions).
 */
function loopingEvaluator(doc: Workflow, id: string, times: number): { evaluator: string; target: string } {
  const loop = doc.edges.find((e) => e.kind === "loop" && e.source !== e.target);
  if (!loop) throw new Error("imported workflow has no loop edge");
  const rules = doc.nodes.flatMap((n) => {
    if (n.type !== "agent" || n.branches.length < 2) return [];
    const forward = doc.edges.find((e) => e.source === n.id && e.kind === "forward")?.sourceHandle;
    const system = doc.agents.find((a) => a.key === n.agent)?.instructions;
    if (!forward || !system) throw new Error(`node ${n.id} has no forward branch or instructions`);
    const picks =
      n.id === loop.source
        ? [...Array.from({ length: times }, () => choose(loop.sourceHandle)), choose(forward)]
        : [choose(forward)];
    return [{ id: `${id}-${n.id}`, priority: 5, match: { schema: "choose_branch", system }, sequence: picks }];
  });
  rt.model.load([{ rules }], "add");
  return { evaluator: loop.source, target: loop.target };
}

describe("seed formats", () => {
  for (const [label, file, load] of [
    ["AutoAgent XML form", "article-writer.autoagent.xml", importAutoAgentXml],
    ["MetaAgent FSM", "article-writer.metaagent.json", importMetaAgentFsm],
  ] as const) {
    it(
      `${label}: imports to a valid workflow that runs; an evaluator rejecting twice gives two extra outline steps`,
      { timeout: 90_000 },
      async () => {
        const imported = load(seed(file));
        expect(imported.ok, JSON.stringify(imported.issues)).toBe(true);
        if (!imported.ok) return;
        const doc = imported.workflow;
        expect(hasErrors(validate(doc)), JSON.stringify(validate(doc))).toBe(false);
        const { evaluator, target } = loopingEvaluator(doc, `seed-${file}`, 2);
        const inputs = Object.fromEntries(doc.inputs.map((i) => [i.key, "owls"]));
        const { run: r, steps } = await rt.run(doc, inputs);
        expect(r.status, r.reason ?? "").toBe("succeeded");
        expect(count(steps, target)).toBe(3);
        expect(count(steps, evaluator)).toBe(3);
      },
    );
  }
});
