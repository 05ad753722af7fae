import path from "node:path";
import { describe, expect, test } from "vitest";
import { approveToolVersion, saveMcpServer } from "@/lib/db/tools";
import { blankWorkflowDocument, createWorkflow, saveWorkflowVersion } from "@/lib/db/workflows";
import { createTestUser } from "@/test/fixtures";
import { listRunnableTools } from "@/lib/tools/catalog";
import { clearMcpListings, mcpListingCount } from "@/lib/mcp/client/listing";
import { useTestDatabase } from "@/test/db";
import { designerOptions } from "./setup";

/** The designer's registry context against PostgreSQL and a real stdio MCP server process. */
useTestDatabase();

const fixture = path.resolve(process.cwd(), "lib/tools/fixtures/mcp-stdio-server.mjs");

describe("designerOptions", () => {
  test("offers the tools of the user's approved MCP servers next to the built-ins, from the kept listing", async () => {
    clearMcpListings();
    const owner = await createTestUser();
    const v = await saveMcpServer(owner.id, "fixture", {
      transport: "stdio",
      command: process.execPath,
      args: [fixture],
    });
    const unapproved = await createTestUser();
    await saveMcpServer(unapproved.id, "fixture", { transport: "stdio", command: process.execPath, args: [fixture] });
    await approveToolVersion(owner.id, v.id, v.codeHash!);
    const before = mcpListingCount();
    // the server listed once without a wait limit (under a loaded test run it can start slower than the
    // designer's 3 s wait, whose skip-and-keep-listing behaviour lib/mcp/client/listing.int.test.ts covers)
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

  test("offers the user's saved workflows (not drafts, not the one being edited) and validates subflows against all of theirs", async () => {
    const [owner, other] = await Promise.all([createTestUser(), createTestUser()]);
    const doc = (name: string, description = "") => ({
      ...blankWorkflowDocument(name),
      description,
      inputs: [
        { key: "topic", type: "string" as const, description: "", required: true },
        { key: "tone", type: "string" as const, description: "", required: false },
      ],
      outputs: [{ key: "article", type: "string" as const, description: "", required: true }],
    });
    const article = await createWorkflow(owner.id, doc("Article writer", "Writes an article on a topic"));
    await saveWorkflowVersion(owner.id, article.id);
    const draft = await createWorkflow(owner.id, doc("Draft only"));
    const editing = await createWorkflow(owner.id, doc("Being edited"));
    await saveWorkflowVersion(owner.id, editing.id);
    await saveWorkflowVersion(other.id, (await createWorkflow(other.id, doc("Not yours"))).id);

    const { options } = await designerOptions(owner.id, {
      message: "Run my Article writer on two topics",
      workflowId: editing.id,
    });
    expect(options.context!.workflows).toEqual([
      {
        id: article.id,
        name: "Article writer",
        description: "Writes an article on a topic",
        inputs: [
          { key: "topic", type: "string", description: "", required: true },
          { key: "tone", type: "string", description: "", required: false },
        ],
        outputs: [{ key: "article" }],
      },
    ]);
    const validated = options.validation!.workflows!;
    expect(validated.map((w) => w.id).sort()).toEqual([article.id, draft.id, editing.id].sort());
    expect(validated.find((w) => w.id === article.id)!.inputs).toEqual([
      { key: "topic", required: true },
      { key: "tone", required: false },
    ]);

    // a user with nothing saved gets no workflows (and so no subflow kind in the prompt)
    expect((await designerOptions(other.id, { workflowId: "x" })).options.context!.workflows).toHaveLength(1);
    const fresh = await createTestUser();
    expect((await designerOptions(fresh.id)).options.context).not.toHaveProperty("workflows");
  }, 60_000);
});
