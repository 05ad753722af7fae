import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { CreateStreamEvent } from "@/components/tools/types";
import { approveToolVersion, saveCodeTool, saveMcpServer } from "@/lib/db/tools";
import { scriptedModelConfig } from "@/lib/llm/models";
import { startScriptedServer, type ScriptedServer } from "@/lib/llm/scripted/server";
import { createTestUser } from "@/test/fixtures";
import { useTestDatabase } from "@/test/db";
import { toolCreationStream } from "./create/stream";
import { mcpListingCount } from "@/lib/mcp/client/listing";
import { loadToolViews, mcpFormSchema, splitArgs } from "./data";

useTestDatabase();

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer({ fixtures: path.resolve(process.cwd(), "lib/tools/fixtures") });
});
afterAll(() => server.close());

async function readAll(stream: ReadableStream<Uint8Array>): Promise<CreateStreamEvent[]> {
  const text = await new Response(stream).text();
  return text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as CreateStreamEvent);
}

/** A process that reads its stdin and never answers (it ends with its stdin, so no test leaves it running). */
const SILENT_SERVER = "process.stdin.on('data', () => {}); process.stdin.on('end', () => process.exit(0))";

describe("Create tool stream (what the dialog reads)", () => {
  test("streams each round's draft and tests, ends ready with code, hash and results; a similar request is reused", async () => {
    const owner = await createTestUser();
    const config = async () => ({ ...scriptedModelConfig(), baseURL: server.url });
    const events = await readAll(
      toolCreationStream({
        workspaceId: owner.id,
        request: "a tool that converts a temperature from Celsius to Fahrenheit",
        config,
      }),
    );
    expect(events.map((e) => e.type)).toEqual([
      "started",
      "round",
      "draft",
      "tests",
      "round",
      "draft",
      "tests",
      "ready",
    ]);
    // the dialog says when the offline demo's scripted model writes
    expect(events[0]).toMatchObject({ type: "started", model: "Scripted demo model", offline: true });
    const failedRound = events.find((e) => e.type === "tests");
    expect(failedRound?.type === "tests" && failedRound.results.filter((r) => !r.passed).length).toBeGreaterThan(0);
    const ready = events.at(-1);
    if (ready?.type !== "ready") throw new Error("not ready");
    expect(ready).toMatchObject({ name: "celsius_to_fahrenheit", version: 1, rounds: 2 });
    expect(ready.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(ready.results.every((r) => r.passed)).toBe(true);

    // Until approved, the page shows it unapproved with its recorded tests.
    let view = (await loadToolViews(owner.id)).find((t) => t.name === "celsius_to_fahrenheit");
    expect(view).toMatchObject({ kind: "code", runningVersion: undefined });
    expect(view?.versions[0]).toMatchObject({ approved: false, hashOk: true, codeHash: ready.codeHash });
    expect(view?.versions[0]?.tests.map((t) => t.passed)).toEqual(ready.results.map(() => true));

    await approveToolVersion(owner.id, ready.versionId, ready.codeHash);
    view = (await loadToolViews(owner.id)).find((t) => t.name === "celsius_to_fahrenheit");
    expect(view).toMatchObject({ runningVersion: 1 });

    const again = await readAll(
      toolCreationStream({ workspaceId: owner.id, request: "convert temperatures in Celsius to Fahrenheit", config }),
    );
    expect(again.map((e) => e.type)).toEqual(["started", "reused"]);
  }, 240_000);

  test("a model that cannot answer ends the stream with a failure line, not a hang", async () => {
    const owner = await createTestUser();
    const events = await readAll(
      toolCreationStream({
        workspaceId: owner.id,
        request: "anything at all, please",
        config: async () => ({ baseURL: "http://127.0.0.1:9/v1", apiKey: "x", model: "llama3.1:8b", timeoutMs: 2000 }),
      }),
    );
    expect(events[0]).toMatchObject({ type: "started", model: "llama3.1:8b", offline: false });
    expect(["failed", "error"]).toContain(events.at(-1)?.type);
  }, 60_000);
});

describe("tools page data", () => {
  test("built-ins, code tools with near-duplicate flags, MCP servers: tools listed only once approved", async () => {
    const owner = await createTestUser();
    await saveCodeTool(owner.id, {
      name: "sum_numbers",
      description: "Adds a list of numbers and returns their sum",
      code: "function run(i){ return i.values.reduce((a, b) => a + b, 0) }",
    });
    await saveCodeTool(owner.id, {
      name: "sum_values",
      description: "Adds numbers in a list and returns the sum",
      code: "function run(i){ let s = 0; for (const v of i.values) s += v; return s }",
    });
    const fixture = path.resolve(process.cwd(), "lib/tools/fixtures/mcp-stdio-server.mjs");
    const mcp = await saveMcpServer(owner.id, "fixture", {
      transport: "stdio",
      command: process.execPath,
      args: [fixture],
    });

    let views = await loadToolViews(owner.id);
    expect(views.filter((t) => t.kind === "builtin").map((t) => t.name)).toEqual(
      expect.arrayContaining(["http_request", "math", "word_count"]),
    );
    expect(views.find((t) => t.name === "sum_numbers")?.similar?.map((s) => s.name)).toEqual(["sum_values"]);
    const server = views.find((t) => t.name === "fixture");
    expect(server?.mcp).toEqual({ config: { transport: "stdio", command: process.execPath, args: [fixture] } }); // not started: unapproved

    await approveToolVersion(owner.id, mcp.id, mcp.codeHash!);
    // the first load waits up to 5 s for the server; a loaded test machine may start it slower, so
    // load until it is listed (one listing, kept for the loads after it)
    const before = mcpListingCount();
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      views = await loadToolViews(owner.id);
      if (views.find((t) => t.name === "fixture")?.mcp?.tools) break;
    }
    expect(
      views
        .find((t) => t.name === "fixture")
        ?.mcp?.tools?.map((t) => t.name)
        .sort(),
    ).toEqual(["add", "shout"]);
    await loadToolViews(owner.id);
    expect(mcpListingCount() - before).toBe(1);
  }, 180_000);

  test("a server that never answers shows as not answering after the page's 5 s wait, not the listing's 30 s", async () => {
    const owner = await createTestUser();
    const silent = await saveMcpServer(owner.id, "silent", {
      transport: "stdio",
      command: process.execPath,
      args: ["-e", SILENT_SERVER],
    });
    await approveToolVersion(owner.id, silent.id, silent.codeHash!);
    const t = performance.now();
    const view = (await loadToolViews(owner.id)).find((v) => v.name === "silent");
    expect(performance.now() - t).toBeLessThan(15_000);
    expect(view?.mcp?.error).toMatch(/no answer within 5000 ms yet/);
    expect(view?.mcp?.tools).toBeUndefined();
  }, 60_000);

  test("the MCP settings form: stdio command with quoted args, or an http(s) URL; names are checked", () => {
    expect(splitArgs('-y "my server" --port 3')).toEqual(["-y", "my server", "--port", "3"]);
    expect(mcpFormSchema.safeParse({ transport: "stdio", name: "files", command: "npx", args: "" }).success).toBe(true);
    expect(
      mcpFormSchema.safeParse({ transport: "http", name: "remote", url: "https://mcp.example.com/mcp" }).success,
    ).toBe(true);
    expect(mcpFormSchema.safeParse({ transport: "http", name: "remote", url: "ftp://x" }).success).toBe(false);
    expect(mcpFormSchema.safeParse({ transport: "stdio", name: "Bad Name", command: "npx" }).success).toBe(false);
  });
});
