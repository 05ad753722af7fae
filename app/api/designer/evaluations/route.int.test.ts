import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createProvider } from "@/lib/providers/settings";
import { corpus, scriptedFixture } from "@/lib/designer/fixtures/corpus";
import { startScriptedServer, type ScriptedServer } from "@/lib/llm/scripted/server";
import { createTestUser } from "@/test/fixtures";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { GET as getOne } from "./[id]/route";
import { GET as list, POST } from "./route";

/**
 * "Evaluate the designer with this provider", from the API (what the Settings page calls) and from
 * the command: against PostgreSQL, Redis (rate limiter) and the scripted model answering the corpus
 * like a JSON-mode-only provider. The report is stored, per request and in total; the path the
 * provider answered on is remembered for the user.
 */
const database = useTestDatabase();
let server: ScriptedServer;
let alice: Awaited<ReturnType<typeof createTestUser>>;
let bob: Awaited<ReturnType<typeof createTestUser>>;
let providerId: string;

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  // the scripted provider listens on loopback, as a local model server would (the two-command setup allows it)
  process.env.WEFT_PROVIDER_ALLOW_PRIVATE = "1";
  server = await startScriptedServer({ fixtures: [scriptedFixture(corpus, "designer")] });
  [alice, bob] = [await createTestUser(), await createTestUser()];
  const provider = await createProvider(alice.id, {
    name: "JSON mode only",
    baseUrl: server.url.replace(/\/v1$/, "/p/json-mode/v1"),
    defaultModel: "scripted-demo",
  });
  providerId = provider.id;
}, 60_000);
afterAll(() => {
  delete process.env.WEFT_PROVIDER_ALLOW_PRIVATE;
  return server?.close();
});

const headers = (auth: Record<string, string>) => ({
  "content-type": "application/json",
  origin: "http://localhost",
  ...auth,
});
const post = (body: unknown, auth: Record<string, string>) =>
  POST(
    new Request("http://localhost/api/designer/evaluations", {
      method: "POST",
      headers: headers(auth),
      body: JSON.stringify(body),
    }),
  );
const fetchOne = (id: string, auth: Record<string, string>) =>
  getOne(new Request(`http://localhost/api/designer/evaluations/${id}`, { headers: auth }), {
    params: Promise.resolve({ id }),
  });

async function finished(id: string) {
  for (let i = 0; i < 240; i++) {
    const { evaluation } = (await (await fetchOne(id, alice.auth)).json()) as {
      evaluation: { status: string } & Record<string, unknown>;
    };
    if (evaluation.status !== "running") return evaluation;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the evaluation did not finish");
}

describe("the designer evaluation", () => {
  it(
    "runs the corpus on the chosen provider in the background and stores the report; the provider's path is remembered",
    { timeout: 120_000 },
    async () => {
      const res = await post({ providerId }, alice.auth);
      expect(res.status).toBe(202);
      const { evaluation } = (await res.json()) as {
        evaluation: { id: string; status: string; total: number; label: string };
      };
      expect(evaluation).toMatchObject({
        status: "running",
        total: corpus.length,
        label: "JSON mode only · Scripted demo model",
      });
      expect((await post({ providerId }, alice.auth)).status).toBe(409);
      const done = (await finished(evaluation.id)) as {
        status: string;
        rows: { id: string; valid: boolean; paths: string[] }[];
        summary: Record<string, unknown>;
      };
      expect(done.status).toBe("done");
      expect(done.rows.map((r) => r.id)).toEqual(corpus.map((e) => e.id));
      expect(done.summary).toMatchObject({ requests: corpus.length, validShare: 1, goldenMatchShare: 1 });
      expect(done.summary.callsPerRequest).toBeLessThanOrEqual(1.3);
      expect(Object.keys(done.summary.paths as object)).toEqual(["json_object"]);
      const remembered = await db().modelCapability.findMany({ where: { workspaceId: alice.id } });
      expect(remembered.map((r) => r.path)).toEqual(["json_object"]);

      const mine = (await (
        await list(new Request("http://localhost/api/designer/evaluations", { headers: alice.auth }))
      ).json()) as { evaluations: { id: string }[] };
      expect(mine.evaluations.map((e) => e.id)).toEqual([evaluation.id]);
      expect((await fetchOne(evaluation.id, bob.auth)).status).toBe(404);
    },
  );

  it("refuses bad requests and other users' providers, storing nothing", async () => {
    expect((await post({ providerId, path: "telepathy" }, bob.auth)).status).toBe(400);
    expect((await post({ providerId }, bob.auth)).status).toBe(404);
    expect((await post({}, { authorization: "Bearer not-a-token" })).status).toBe(401);
    expect(await db().designerEvaluation.count({ where: { workspaceId: bob.id } })).toBe(0);
  });

  it(
    "runs from the command against the scripted model and stores its report for the user",
    { timeout: 180_000 },
    async () => {
      const email = (await db().user.findUniqueOrThrow({ where: { id: alice.id } })).email!;
      const root = path.resolve(import.meta.dirname, "../../../..");
      const out = path.join(root, "test-results", `designer-eval-${process.pid}.json`);
      const child = spawn(
        process.execPath,
        [
          "--conditions=react-server",
          "--import",
          "tsx",
          "scripts/designer-eval.ts",
          "--scripted",
          "tools-only",
          "--requests",
          "n01-article,n09-support-one-branch,e04-shipping-route-dangling",
          "--user",
          email,
          "--out",
          out,
        ],
        {
          cwd: root,
          env: { ...process.env, DATABASE_URL: database.current.url, LOG_LEVEL: "warn" },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let text = "";
      child.stdout.on("data", (c: Buffer) => (text += c.toString()));
      child.stderr.on("data", (c: Buffer) => (text += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      expect(code, text).toBe(0);
      expect(text).toMatch(/valid 100\.0%, golden match 100\.0%/);
      const stored = await db().designerEvaluation.findFirstOrThrow({
        where: { workspaceId: alice.id, source: "command" },
      });
      expect(stored).toMatchObject({ status: "done", total: 3 });
      expect((stored.rows as { id: string }[]).map((r) => r.id)).toEqual([
        "n01-article",
        "n09-support-one-branch",
        "e04-shipping-route-dangling",
      ]);
      expect((stored.summary as { paths: Record<string, number> }).paths).toEqual({ tool: 3 });
    },
  );
});
