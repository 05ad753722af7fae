import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createTemplateDataset } from "@/lib/evals/templates";
import { DEFAULT_FIXTURE_DIR, loadFixtureDir } from "@/lib/llm/scripted/fixture";
import { startScriptedServer, type ScriptedServer } from "@/lib/llm/scripted/server";
import { createProvider } from "@/lib/providers/settings";
import { instantiateTemplate } from "@/lib/workflow/templates";
import { createTestUser } from "@/test/fixtures";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { POST } from "./route";
import type { SimplifyAnswer } from "@/lib/designer/simplify/answer";

/**
 * POST /api/workflows/:id/simplify on PostgreSQL, Redis (rate limiter) and the scripted model over
 * HTTP (the user's provider): the seed-pattern templates with their datasets. Each proposal runs
 * against the original on the dataset's rows through the engine on an in-memory store; the verdicts
 * below come from those runs (the server's request log counts them), not from the proposals.
 */
useTestDatabase();

let server: ScriptedServer;
let alice: Awaited<ReturnType<typeof createTestUser>>;
let bob: Awaited<ReturnType<typeof createTestUser>>;

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  process.env.WEFT_PROVIDER_ALLOW_PRIVATE = "1";
  server = await startScriptedServer({ fixtures: loadFixtureDir(DEFAULT_FIXTURE_DIR) });
  [alice, bob] = [await createTestUser(), await createTestUser()];
  await createProvider(alice.id, { name: "Scripted", baseUrl: server.url, defaultModel: "scripted-demo" });
}, 60_000);
afterAll(async () => {
  delete process.env.WEFT_PROVIDER_ALLOW_PRIVATE;
  await server?.close();
});

const post = (id: string, body: unknown, headers: Record<string, string>) =>
  POST(
    new Request(`http://localhost/api/workflows/${id}/simplify`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    { params: Promise.resolve({ id }) },
  );

const stored = async () => ({
  runs: await db().run.count(),
  workflows: await db().workflow.count(),
  versions: await db().workflowVersion.count(),
  datasets: await db().dataset.count(),
  experiments: await db().experiment.count(),
});

describe("POST /api/workflows/:id/simplify", () => {
  it(
    "keeps the majority vote's merged voters (score held, calls 4 → 2 a run) and rejects the article writer's merged states",
    { timeout: 240_000 },
    async () => {
      const vote = await createTemplateDataset(alice.id, "majority-vote");
      const article = await createTemplateDataset(alice.id, "article-writer");
      const before = await stored();
      server.reset();

      const res = await post(vote.workflowId, {}, alice.auth);
      expect(res.status).toBe(200);
      const a = (await res.json()) as SimplifyAnswer;
      expect(a.evaluation).toMatchObject({ datasetId: vote.datasetId, rows: 3, tolerance: 0.05, reference: "dataset" });
      expect(a.proposals).toHaveLength(1);
      const [merge] = a.proposals;
      expect(merge).toMatchObject({ rule: "parallel", nodes: ["solve_a", "solve_b", "solve_c"], saving: { calls: 2 } });
      expect(merge!.evaluation).toMatchObject({ kept: true, score: a.evaluation!.original.score });
      expect(a.evaluation!.original.calls).toBe(12); // 3 rows × (3 solvers + aggregator)
      expect(merge!.evaluation!.calls).toBe(6); // 3 rows × (1 solver + aggregator)
      expect(merge!.evaluation!.tokens).toBeLessThan(a.evaluation!.original.tokens);
      // the runs really happened: one model request per call counted above
      expect(server.requests().filter((r) => r.path.endsWith("/chat/completions"))).toHaveLength(12 + 6);

      const res2 = await post(article.workflowId, {}, alice.auth);
      expect(res2.status).toBe(200);
      const b = (await res2.json()) as SimplifyAnswer;
      expect(b.evaluation).toMatchObject({ rows: 4, reference: "original" });
      const fsm = b.proposals.find((p) => p.rule === "fsm")!;
      expect(fsm.nodes).toEqual(["outline", "evaluate"]);
      expect(fsm.evaluation).toMatchObject({ kept: false });
      expect(fsm.evaluation!.score).toBeLessThan(b.evaluation!.original.score - 0.05);
      expect(fsm.evaluation!.reason).toMatch(/score fell from 1 to 0\.5/);

      // a tolerance wide enough keeps it
      const wide = (await (await post(article.workflowId, { tolerance: 0.5 }, alice.auth)).json()) as SimplifyAnswer;
      expect(wide.proposals[0]!.evaluation).toMatchObject({ kept: true });
      // evaluators given in the body replace the defaults (here: the run answers something)
      const own = (await (
        await post(article.workflowId, { evaluators: [{ kind: "length", name: "answers", min: 1 }] }, alice.auth)
      ).json()) as SimplifyAnswer;
      expect(own.evaluation).toMatchObject({ reference: "dataset", evaluators: [{ kind: "length" }] });
      expect(own.proposals[0]!.evaluation).toMatchObject({ kept: true, score: 1 });

      expect(await stored()).toEqual(before);
    },
  );

  it("proposes without evaluating when asked for no dataset, and simplifies the graph sent instead of the draft", async () => {
    const vote = await createTemplateDataset(alice.id, "majority-vote");
    const draft = instantiateTemplate("ml-pipeline")!;
    const res = await post(vote.workflowId, { workflow: draft, datasetId: null }, alice.auth);
    expect(res.status).toBe(200);
    const a = (await res.json()) as SimplifyAnswer;
    expect(a.evaluation).toBeNull();
    expect(a.proposals.map((p) => [p.rule, p.nodes, p.evaluation])).toEqual([["fsm", ["train", "evaluate"], null]]);
  });

  it("answers bad input with a clear 4xx and stores nothing", async () => {
    const { workflowId, datasetId } = await createTemplateDataset(alice.id, "majority-vote");
    const before = await stored();
    const cases: [string, unknown, Record<string, string>, number][] = [
      ["another user's workflow", {}, bob.auth, 404],
      ["malformed JSON", '{"tolerance":', alice.auth, 400],
      ["tolerance out of range", { tolerance: 2 }, alice.auth, 400],
      ["unknown field", { datasetId, extra: 1 }, alice.auth, 400],
      ["bad evaluator", { evaluators: [{ kind: "nope", name: "x" }] }, alice.auth, 400],
      ["not a workflow", { workflow: { nodes: "x" } }, alice.auth, 400],
      ["a workflow with errors", { workflow: { nodes: [{ id: "start", type: "start" }] } }, alice.auth, 422],
      ["a dataset that is not theirs", { datasetId: "nope" }, alice.auth, 404],
    ];
    for (const [name, body, headers, status] of cases) {
      const res = await post(workflowId, body, headers);
      expect(res.status, name).toBe(status);
      expect(((await res.json()) as { error?: { message?: string } }).error?.message, name).toBeTruthy();
    }
    const bobs = await createTemplateDataset(bob.id, "majority-vote");
    expect((await post(workflowId, { datasetId: bobs.datasetId }, alice.auth)).status).toBe(404);
    expect(await stored()).toEqual({
      ...before,
      workflows: before.workflows + 1,
      versions: before.versions + 1,
      datasets: before.datasets + 1,
    });
  });
});
