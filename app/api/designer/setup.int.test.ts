import path from "node:path";
import { describe, expect, test } from "vitest";
import { approveToolVersion, saveMcpServer } from "@/lib/db/tools";
import { createTestUser } from "@/lib/runs/test-fixtures";
import { listRunnableTools } from "@/lib/tools/catalog";
import { clearMcpListings, mcpListingCount } from "@/lib/tools/mcp/listing";
import { useTestDatabase } from "@/test/db";
import { designerOptions } from "./setup";

/** The designer's registry context against PostgreSQL and a real stdio MCP server process. */
useTestDatabase();

const fixture = path.resolve(process.cwd(), "lib/tools/fixtures/mcp-stdio-server.mjs");

describe("designerOptions", () => {
  test("offers the tools of the user's approved MCP servers next to the built-ins, from the kept listing", async () => {
    clearMcpListings();
    const owner = await createTestUser();
    const v = await saveMcpServer(owner.id, "fixture", { transport: "stdio", command: process.execPath, args: [fixture] });
    const unapproved = await createTestUser();
    await saveMcpServer(unapproved.id, "fixture", { transport: "stdio", command: process.execPath, args: [fixture] });
    await approveToolVersion(owner.id, v.id, v.codeHash!);
    const before = mcpListingCount();
    // the server listed once without a wait limit (under a loaded test run it can start slower than the
    // designer's 3 s wait, whose skip-and-keep-listing behaviour lib/tools/mcp/listing.int.test.ts covers)
    expect((await listRunnableTools(owner.id)).map((t) => t.descriptor.name)).toContain("fixture__add");

    const tools = (await designerOptions(owner.id)).options.context!.tools;
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["fixture__add", "fixture__shout", "web_search"]));
    expect(tools.find((t) => t.name === "fixture__add")?.description).toBe("Adds two numbers");
    // design requests are answered from the kept listing (no new server process)
    expect((await designerOptions(owner.id)).options.context!.tools.map((t) => t.name)).toContain("fixture__shout");
    expect(mcpListingCount() - before).toBe(1);

    // a server saved but not approved is neither contacted nor offered
    const others = (await designerOptions(unapproved.id)).options.context!.tools.map((t) => t.name);
    expect(others).toContain("web_search");
    expect(others.filter((n) => n.startsWith("fixture__"))).toEqual([]);
    expect(mcpListingCount() - before).toBe(1);
  }, 120_000);
});
