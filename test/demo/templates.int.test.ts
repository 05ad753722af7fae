import { describe, expect, it } from "vitest";
import { DEFAULT_FIXTURE_DIR } from "@/lib/llm/scripted/fixture";
import { instantiateTemplate, workflowTemplates } from "@/lib/workflow/templates";
import { db } from "@/lib/db/client";
import { twoArticles } from "@/lib/workflow/subflow-example";
import { answerStep } from "@/lib/runs/answers";
import { startRun } from "@/lib/runs/service";
import { createTestWorkflow } from "@/test/fixtures";
import { useWorkerRuntime } from "@/test/helpers/runtime";
import { waitFor, waitTerminal } from "@/test/helpers/worker";

/**
 * The offline demo runs every pattern template: the real worker, BullMQ, PostgreSQL and the scripted
 * model server with exactly the fixtures `npm run up` and Docker serve (lib/llm/scripted/fixtures).
 * Its routers and evaluators are judged by `demo.judge` (the option closest to what is judged), so a
 * routing template follows the message it is given.
 */
const rt = useWorkerRuntime({ fixtures: DEFAULT_FIXTURE_DIR });

const INPUTS: Record<string, Record<string, string>> = {
  "article-writer": { topic: "Durable workflow engines" },
  "majority-vote": { problem: "What is 17 × 23?" },
  "refund-triage": { message: "I want my money back for order 42, it arrived broken" },
  "ml-pipeline": { dataset: "s3://demo/churn.csv: 10k customers, churn labels" },
  "financial-analyst": { request: "Analyse ACME's latest 10-K and its market" },
  "post-approval": { topic: "Our new durable workflow engine" },
  "research-each": { question: "Are durable workflow engines worth their overhead?" },
};

/** Templates whose runs wait for a person: run to the end below, answering their reviews. */
const reviewed = new Set(
  workflowTemplates.filter((t) => t.workflow.nodes.some((n) => n.type === "human")).map((t) => t.id),
);

describe("the offline demo runs every template", () => {
  it.each(workflowTemplates.filter((t) => !reviewed.has(t.id)).map((t) => [t.id]))(
    "%s succeeds",
    { timeout: 90_000 },
    async (id) => {
      const { run, steps } = await rt.run(instantiateTemplate(id)!, INPUTS[id]);
      expect(run.status, run.reason ?? "").toBe("succeeded");
      expect(steps.filter((s) => s.status === "failed")).toEqual([]);
    },
  );

  it(
    "the map template researches each of the planner's sub-questions as its own step, results in item order",
    { timeout: 90_000 },
    async () => {
      const { run, steps } = await rt.run(instantiateTemplate("research-each")!, INPUTS["research-each"]);
      expect(run.status, run.reason ?? "").toBe("succeeded");
      const items = steps.filter((s) => s.nodeId === "research.items").toSorted((a, b) => a.iteration - b.iteration);
      expect(items.map((s) => [s.iteration, s.status])).toEqual([
        [1, "succeeded"],
        [2, "succeeded"],
        [3, "succeeded"],
      ]);
      const map = steps.find((s) => s.nodeId === "research")?.output as { results: string[]; count: number };
      expect(map.count).toBe(3);
      expect(map.results).toEqual(items.map((s) => s.output));
    },
  );

  it(
    "an agent offered the knowledge base looks its task up; one offered other tools answers with a draft",
    { timeout: 90_000 },
    async () => {
      const before = rt.model.requests().length;
      const agent = (key: string, tool: string) => ({
        key,
        name: key,
        instructions: "Answer the task.",
        tools: [{ name: tool }],
      });
      const { run, steps } = await rt.run({
        name: "tools in the demo",
        agents: [agent("reader", "kb_query"), agent("calc", "math")],
        nodes: [
          { id: "start", type: "start" },
          { id: "look", type: "agent", agent: "reader", task: "What do the filings say about revenue?" },
          { id: "count", type: "agent", agent: "calc", task: "Add up the numbers" },
          { id: "end", type: "end", outputs: { answer: "{{nodes.count.output}}" } },
        ],
        edges: [
          { id: "e1", source: "start", sourceHandle: "next", target: "look" },
          { id: "e2", source: "look", sourceHandle: "done", target: "count" },
          { id: "e3", source: "count", sourceHandle: "done", target: "end" },
        ],
      });
      expect(run.status, run.reason ?? "").toBe("succeeded");
      expect(
        rt.model
          .requests()
          .slice(before)
          .map((r) => r.rule),
      ).toEqual(["demo.kb.call", "demo.after-tool", "demo.tools-unused"]);
      expect(JSON.stringify(steps.find((s) => s.nodeId === "look")?.output)).toContain("Based on what I found");
      expect(JSON.stringify(steps.find((s) => s.nodeId === "count")?.output)).toContain(
        "answers without calling its tools: math",
      );
    },
  );

  it("the triage template routes by the message: a purchase goes to sales", { timeout: 90_000 }, async () => {
    const refund = await rt.run(instantiateTemplate("refund-triage")!, INPUTS["refund-triage"]);
    const sale = await rt.run(instantiateTemplate("refund-triage")!, {
      message: "Which kettles do you sell? I would like to buy one",
    });
    const ran = (r: typeof refund) => r.steps.filter((s) => s.status === "succeeded").map((s) => s.nodeId);
    expect(ran(refund)).toContain("refund");
    expect(ran(refund)).not.toContain("sales");
    expect(ran(sale)).toContain("sales");
    expect(ran(sale)).not.toContain("refund");
  });

  it(
    "post with approval waits for its reviewer, redrafts with the note sent back, and succeeds once published",
    { timeout: 90_000 },
    async () => {
      expect([...reviewed]).toEqual(["post-approval"]);
      const { workflowId } = await createTestWorkflow(rt.workspaceId, instantiateTemplate("post-approval")!);
      const { run } = await startRun(rt.workspaceId, workflowId, { inputs: INPUTS["post-approval"] });
      const waitingAt = async (iteration: number) =>
        waitFor(
          async () => {
            const r = await db().run.findUniqueOrThrow({ where: { id: run.id } });
            return (
              r.status === "waiting" &&
              (await db().step.findFirst({ where: { runId: run.id, nodeId: "review", iteration, status: "waiting" } }))
            );
          },
          30_000,
          `review ${iteration} waiting`,
        );
      const first = await waitingAt(1);
      expect((first.output as { request: { prompt: string } }).request.prompt).toMatch(
        /^Publish this post about Our new durable workflow engine\?\n\n\S/,
      );
      await answerStep(
        rt.workspaceId,
        run.id,
        { nodeId: "review", choice: "revise", values: { note: "Mention crash recovery" } },
        "Ada",
      );
      await waitingAt(2);
      const drafts = await db().step.findMany({
        where: { runId: run.id, nodeId: "draft" },
        orderBy: { iteration: "asc" },
      });
      expect(drafts.map((d) => d.iteration)).toEqual([1, 2]);
      expect(JSON.stringify(drafts[1]!.input)).toContain("Mention crash recovery");
      await answerStep(rt.workspaceId, run.id, { nodeId: "review", choice: "publish" }, "Ada");
      const done = await waitTerminal(run.id);
      expect(done.run.status, done.run.reason ?? "").toBe("succeeded");
      expect(done.steps.filter((s) => s.status === "failed")).toEqual([]);
    },
  );

  it(
    "the subflow example writes two articles at once, each by a run of the saved Article writer",
    { timeout: 120_000 },
    async () => {
      const { workflowId: writer } = await createTestWorkflow(rt.workspaceId, instantiateTemplate("article-writer")!);
      const { run, steps } = await rt.run(
        twoArticles(writer),
        { first: "Durable workflow engines", second: "Human review in agent systems" },
        120_000,
      );
      expect(run.status, run.reason ?? "").toBe("succeeded");
      expect(steps.filter((s) => s.nodeId.endsWith("_article")).map((s) => s.status)).toEqual([
        "succeeded",
        "succeeded",
      ]);
      const outputs = run.outputs as { first: string; second: string };
      expect(outputs.first.length).toBeGreaterThan(40);
      expect(outputs.second.length).toBeGreaterThan(40);
      const children = await db().run.findMany({
        where: { parentRunId: run.id },
        select: { status: true, inputs: true, trigger: true },
      });
      expect(children.map((c) => c.inputs).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
        { topic: "Durable workflow engines" },
        { topic: "Human review in agent systems" },
      ]);
      expect(children.every((c) => c.status === "succeeded" && c.trigger === "subflow")).toBe(true);
    },
  );
});
