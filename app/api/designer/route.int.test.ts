import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProvider } from "@/lib/providers/settings";
import { updateSettings } from "@/lib/db/settings";
import type { DesignerEvent } from "@/lib/designer/events";
import { DEFAULT_FIXTURE_DIR, loadFixtureDir } from "@/lib/llm/scripted/fixture";
import { startScriptedServer, type ScriptedServer } from "@/lib/llm/scripted/server";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import type { Workflow } from "@/lib/workflow/schema";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { POST } from "./route";

/**
 * POST /api/designer against PostgreSQL, Redis (rate limiter) and the scripted model server, which
 * the user's designer setting points at (a provider chosen in Settings): the corpus transcripts of
 * the e2e requests, streamed as NDJSON; an edit of the result; a dry run through the engine driver.
 */
useTestDatabase();

const ARTICLE =
  "Write a research article on a topic: research it, outline it, have a critic check the outline and send it back until good, then write it";
let server: ScriptedServer;
let alice: Awaited<ReturnType<typeof createTestUser>>;
let bob: Awaited<ReturnType<typeof createTestUser>>;

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  // the providers below are the scripted server on loopback, as a local setup (npm run up) allows
  process.env.WEFT_PROVIDER_ALLOW_PRIVATE = "1";
  server = await startScriptedServer({ fixtures: loadFixtureDir(DEFAULT_FIXTURE_DIR) });
  [alice, bob] = [await createTestUser(), await createTestUser()];
  const provider = await createProvider(alice.id, {
    name: "Scripted",
    baseUrl: server.url,
    defaultModel: "scripted-demo",
  });
  await updateSettings(alice.id, { designerProviderId: provider.id });
}, 60_000);
afterAll(async () => {
  delete process.env.WEFT_PROVIDER_ALLOW_PRIVATE;
  await server?.close();
});

const post = (body: unknown, headers: Record<string, string>, signal?: AbortSignal) =>
  new Request("http://localhost/api/designer", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal,
  });

async function events(res: Response): Promise<DesignerEvent[]> {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/x-ndjson");
  return (await res.text())
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as DesignerEvent);
}

const doneOf = (list: DesignerEvent[]) => {
  const last = list.at(-1);
  if (last?.type !== "done") throw new Error(`expected done, got ${JSON.stringify(last)}`);
  return last.result;
};

describe("POST /api/designer", () => {
  it("streams a new design from the user's designer model (Settings) and an edit of it", async () => {
    const before = server.requests().length;
    const list = await events(await POST(post({ message: ARTICLE }, alice.auth)));
    // dry run "auto" by default: the proposal's only tool (web_search) has no side effects, so it is dry-run
    expect(
      list.filter((e) => e.type !== "drafting").map((e) => (e.type === "stage_started" ? e.stage : e.type)),
    ).toEqual(["design", "proposal", "validate", "optimise", "layout", "dry_run", "done"]);
    // the summary streamed while the model wrote its answer: several growing drafts, all before the proposal, ending with its summary
    const drafts = list.flatMap((e, i) => (e.type === "drafting" ? [{ i, summary: e.summary }] : []));
    const proposal = list.findIndex((e) => e.type === "proposal");
    expect(drafts.length).toBeGreaterThan(2);
    for (const [k, d] of drafts.entries()) {
      expect(d.i).toBeLessThan(proposal);
      if (k > 0)
        expect(d.summary.startsWith(drafts[k - 1]!.summary) && d.summary.length > drafts[k - 1]!.summary.length).toBe(
          true,
        );
    }
    const proposed = list[proposal];
    expect(proposed?.type === "proposal" && proposed.summary).toBe(drafts.at(-1)!.summary);
    const result = doneOf(list);
    expect(result.dryRun, result.dryRun?.trace).toMatchObject({ ok: true });
    expect(result.diff.added).toEqual(expect.arrayContaining(["research", "outline", "review", "write"]));
    expect(result.toCreate).toEqual([]); // web_search is a built-in of the registry
    const calls = server.requests().slice(before);
    expect(calls.map((r) => r.rule)[0]).toBe("designer.n01-article");
    expect(calls.filter((r) => r.rule?.startsWith("designer."))).toHaveLength(1);

    const edit = doneOf(
      await events(
        await POST(
          post({ message: "add a fact-checker between the writer and the end", workflow: result.workflow }, alice.auth),
        ),
      ),
    );
    expect(edit.diff).toEqual({ added: ["fact_check"], removed: [], changed: [] });
    for (const n of result.workflow.nodes)
      expect(edit.workflow.nodes.find((m) => m.id === n.id)?.position).toEqual(n.position);
  });

  it("says which model designs and flags the offline demo's scripted model, which answers an unscripted request with its nearest design", async () => {
    const before = server.requests().length;
    const res = await POST(
      post(
        { message: "Sort incoming customer emails: orders go to the sales agent, refunds to a refunds agent" },
        alice.auth,
      ),
    );
    expect(res.headers.get("x-weft-designer-model")).toBe(encodeURIComponent("Scripted demo model"));
    expect(res.headers.get("x-weft-designer-offline")).toBe("1");
    const result = doneOf(await events(res));
    expect(result.workflow.nodes.some((n) => n.type === "router")).toBe(true);
    const [first] = server.requests().slice(before);
    expect(first).toMatchObject({ rule: "designer.n04-refund", matched: false });
    expect(first!.nearest).toBeGreaterThan(0);

    // a real provider's model (any name the scripted server answers to) is named, not flagged
    const dave = await createTestUser();
    const provider = await createProvider(dave.id, { name: "Local", baseUrl: server.url, defaultModel: "qwen2.5:7b" });
    await updateSettings(dave.id, { designerProviderId: provider.id });
    const real = await POST(post({ message: ARTICLE }, dave.auth));
    expect(real.headers.get("x-weft-designer-model")).toBe(encodeURIComponent("qwen2.5:7b"));
    expect(real.headers.get("x-weft-designer-offline")).toBeNull();
    expect(doneOf(await events(real)).diff.added).toContain("outline");
  });

  it("a dry run runs the proposal once through the engine on the model's sample inputs", async () => {
    const list = await events(await POST(post({ message: ARTICLE, dryRun: true }, alice.auth)));
    expect(list.some((e) => e.type === "stage_started" && e.stage === "dry_run")).toBe(true);
    const result = doneOf(list);
    expect(result.dryRun?.ok).toBe(true);
    expect(result.dryRun?.trace).toMatch(/^run succeeded/);
    expect(result.dryRun?.trace).toContain("review#1 succeeded → approved");
  }, 120_000);

  it("refuses anonymous callers, invalid bodies and someone else's workflow", async () => {
    expect((await POST(post({ message: ARTICLE }, { authorization: "Bearer weft_not_a_token" }))).status).toBe(401);
    expect((await POST(post({ message: "" }, alice.auth))).status).toBe(400);
    expect((await POST(post({ message: "x", workflow: { nodes: 3 } as unknown as Workflow }, alice.auth))).status).toBe(
      400,
    );
    const { workflowId } = await createTestWorkflow(bob.id);
    expect((await POST(post({ message: "x", workflowId }, alice.auth))).status).toBe(404);
  });

  it("closing the response stream aborts the design's model call in flight", async () => {
    // A provider that answers after 5 s and notes requests whose client went away before that.
    const abandoned: string[] = [];
    let received = 0;
    const slow = createServer((req, res) => {
      received += 1;
      let answered = false;
      res.on("close", () => {
        if (!answered) abandoned.push(req.url ?? "");
      });
      setTimeout(() => {
        answered = true;
        res.writeHead(503).end();
      }, 5_000).unref();
    });
    await new Promise<void>((r) => slow.listen(0, "127.0.0.1", r));
    try {
      const carol = await createTestUser();
      const { port } = slow.address() as AddressInfo;
      const provider = await createProvider(carol.id, {
        name: "Slow",
        baseUrl: `http://127.0.0.1:${port}/v1`,
        defaultModel: "slow-model",
      });
      await updateSettings(carol.id, { designerProviderId: provider.id });
      const res = await POST(post({ message: "anything" }, carol.auth));
      const reader = res.body!.getReader();
      const first = JSON.parse(new TextDecoder().decode((await reader.read()).value)) as DesignerEvent;
      expect(first).toMatchObject({ type: "stage_started", stage: "design" });
      await expect.poll(() => received, { timeout: 5_000 }).toBe(1); // the design call is in flight
      await reader.cancel();
      await expect.poll(() => abandoned.length, { timeout: 3_000 }).toBe(1);
    } finally {
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }
  }, 30_000);
});
