import path from "node:path";
import { beforeEach, describe, expect, test } from "vitest";
import { approveToolVersion, revokeToolVersion, saveMcpServer } from "@/lib/db/tools";
import { createTestUser } from "@/test/fixtures";
import { listRunnableTools } from "@/lib/tools/catalog";
import { executeTool } from "@/lib/tools/registry";
import { useTestDatabase } from "@/test/db";
import { clearMcpListings, mcpListingCount } from "./listing";

/**
 * The catalogs' MCP listings (listing.ts) against real stdio server processes: listed once per
 * approved server version, shared by concurrent callers, a dead server skipped within its deadline
 * and not asked again at once (the designer's use: app/api/designer/setup.int.test.ts).
 */
useTestDatabase();

const fixture = path.resolve(process.cwd(), "lib/tools/fixtures/mcp-stdio-server.mjs");
/** A process that reads its stdin and never answers (it ends with its stdin, so no test leaves it running). */
const SILENT_SERVER = "process.stdin.on('data', () => {}); process.stdin.on('end', () => process.exit(0))";
const mcpNames = (entries: Awaited<ReturnType<typeof listRunnableTools>>) =>
  entries
    .filter((t) => t.kind === "mcp")
    .map((t) => t.descriptor.name)
    .sort();

async function approvedServer(workspaceId: string, name: string, config: Parameters<typeof saveMcpServer>[2]) {
  const v = await saveMcpServer(workspaceId, name, config);
  await approveToolVersion(workspaceId, v.id, v.codeHash!);
  return v;
}

beforeEach(() => clearMcpListings());

describe("MCP listings for catalogs", () => {
  test("a server is listed once per approved version; concurrent catalogs share the listing", async () => {
    const owner = await createTestUser();
    await approvedServer(owner.id, "fixture", { transport: "stdio", command: process.execPath, args: [fixture] });
    const before = mcpListingCount();
    const [a, b] = await Promise.all([listRunnableTools(owner.id), listRunnableTools(owner.id)]);
    expect(mcpNames(a)).toEqual(["fixture__add", "fixture__shout"]);
    expect(mcpNames(b)).toEqual(mcpNames(a));
    expect(mcpListingCount() - before).toBe(1);

    // kept: the next catalog starts no server process
    expect(mcpNames(await listRunnableTools(owner.id))).toEqual(["fixture__add", "fixture__shout"]);
    expect(mcpListingCount() - before).toBe(1);

    // a changed config is a new version: once approved, it is listed afresh
    await approvedServer(owner.id, "fixture", {
      transport: "stdio",
      command: process.execPath,
      args: [fixture, "--again"],
    });
    expect(mcpNames(await listRunnableTools(owner.id))).toEqual(["fixture__add", "fixture__shout"]);
    expect(mcpListingCount() - before).toBe(2);

    // another owner with the same config has listings of their own
    const other = await createTestUser();
    await approvedServer(other.id, "fixture", { transport: "stdio", command: process.execPath, args: [fixture] });
    expect(mcpNames(await listRunnableTools(other.id))).toEqual(["fixture__add", "fixture__shout"]);
    expect(mcpListingCount() - before).toBe(3);
  }, 120_000);

  test("a server that never answers is skipped at its deadline and not asked again at once; the others are listed", async () => {
    const owner = await createTestUser();
    await approvedServer(owner.id, "fixture", { transport: "stdio", command: process.execPath, args: [fixture] });
    // listed first with the default deadline, so the short ones below apply to the silent server alone
    expect(mcpNames(await listRunnableTools(owner.id))).toEqual(["fixture__add", "fixture__shout"]);
    // a process that starts and never speaks MCP
    await approvedServer(owner.id, "silent", {
      transport: "stdio",
      command: process.execPath,
      args: ["-e", SILENT_SERVER],
    });
    const before = mcpListingCount();
    let t = performance.now();
    expect(mcpNames(await listRunnableTools(owner.id, { mcp: { timeoutMs: 3_000 } }))).toEqual([
      "fixture__add",
      "fixture__shout",
    ]);
    expect(performance.now() - t).toBeGreaterThanOrEqual(2_900);
    expect(mcpListingCount() - before).toBe(1);

    t = performance.now();
    expect(mcpNames(await listRunnableTools(owner.id, { mcp: { timeoutMs: 3_000 } }))).toEqual([
      "fixture__add",
      "fixture__shout",
    ]);
    expect(performance.now() - t).toBeLessThan(2_900);
    expect(mcpListingCount() - before).toBe(1);

    // once its failure is old enough, it is tried again
    expect(mcpNames(await listRunnableTools(owner.id, { mcp: { timeoutMs: 300, failureMaxAgeMs: 0 } }))).toEqual([
      "fixture__add",
      "fixture__shout",
    ]);
    expect(mcpListingCount() - before).toBe(2);
  }, 120_000);

  test("a caller that cannot wait for a slow server skips it, and the listing goes on for the next caller", async () => {
    const owner = await createTestUser();
    // the fixture server, started 4 s late (as a server fetched by npx may be)
    const late = `setTimeout(() => import(${JSON.stringify(`file://${fixture}`)}), 4000)`;
    await approvedServer(owner.id, "slow", { transport: "stdio", command: process.execPath, args: ["-e", late] });
    const before = mcpListingCount();
    const t = performance.now();
    expect(mcpNames(await listRunnableTools(owner.id, { mcp: { waitMs: 500 } }))).toEqual([]);
    expect(performance.now() - t).toBeLessThan(3_500);
    // later requests, each waiting 500 ms at most, get the tools once the one listing has ended
    let names: string[] = [];
    for (const deadline = Date.now() + 30_000; names.length === 0 && Date.now() < deadline;) {
      names = mcpNames(await listRunnableTools(owner.id, { mcp: { waitMs: 500 } }));
    }
    expect(names).toEqual(["slow__add", "slow__shout"]);
    expect(mcpListingCount() - before).toBe(1);
  }, 60_000);

  test("running a tool reuses the listing for its resolution but reads the approval every time", async () => {
    const owner = await createTestUser();
    const v = await approvedServer(owner.id, "fixture", {
      transport: "stdio",
      command: process.execPath,
      args: [fixture],
    });
    const before = mcpListingCount();
    expect(await executeTool(owner.id, { name: "fixture__add" }, { a: 1, b: 2 })).toEqual({ ok: true, output: "3" });
    expect(await executeTool(owner.id, { name: "fixture__add" }, { a: 20, b: 22 })).toEqual({ ok: true, output: "42" });
    expect(mcpListingCount() - before).toBe(1);
    await revokeToolVersion(owner.id, v.id);
    expect(await executeTool(owner.id, { name: "fixture__add" }, { a: 1, b: 2 })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/approved/),
    });
    expect(mcpListingCount() - before).toBe(1);
  }, 60_000);

  test("Weft's own MCP endpoint's catalog leaves other servers out", async () => {
    const owner = await createTestUser();
    await approvedServer(owner.id, "fixture", { transport: "stdio", command: process.execPath, args: [fixture] });
    const before = mcpListingCount();
    const entries = await listRunnableTools(owner.id, { mcp: "skip" });
    expect(mcpNames(entries)).toEqual([]);
    expect(entries.map((e) => e.descriptor.name)).toContain("web_search");
    expect(mcpListingCount()).toBe(before);
  }, 60_000);
});
