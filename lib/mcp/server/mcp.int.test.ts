import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { approveToolVersion, saveCodeTool, saveMcpServer } from "@/lib/db/tools";
import { createTestUser } from "@/test/fixtures";
import { listRunnableTools } from "@/lib/tools/catalog";
import { executeTool } from "@/lib/tools/registry";
import { useTestDatabase } from "@/test/db";
import { handleMcpRequest } from "./server";

useTestDatabase();

const fixture = path.resolve(process.cwd(), "lib/tools/fixtures/mcp-stdio-server.mjs");

describe("MCP client: an external stdio server process joins the registry", () => {
  test("unapproved server refused; approved: tools listed and called", async () => {
    const owner = await createTestUser();
    const v = await saveMcpServer(owner.id, "fixture", {
      transport: "stdio",
      command: process.execPath,
      args: [fixture],
    });
    expect(await executeTool(owner.id, { name: "fixture__add" }, { a: 1, b: 2 })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not approved|no approved/),
    });
    await approveToolVersion(owner.id, v.id, v.codeHash!);
    const names = (await listRunnableTools(owner.id)).filter((t) => t.kind === "mcp").map((t) => t.descriptor.name);
    expect(names.sort()).toEqual(["fixture__add", "fixture__shout"]);
    expect(await executeTool(owner.id, { name: "fixture__add" }, { a: 2, b: 40 })).toEqual({ ok: true, output: "42" });
    expect(await executeTool(owner.id, { name: "fixture__shout" }, { text: "weft" })).toEqual({
      ok: true,
      output: "WEFT",
    });
    expect(await executeTool(owner.id, { name: "fixture__nope" }, {})).toMatchObject({
      ok: false,
      error: expect.stringMatching(/no tool/),
    });
  }, 180_000);
});

describe("Weft's MCP endpoint over HTTP (SDK client)", () => {
  let server: http.Server;
  let url = "";
  beforeAll(async () => {
    // Adapts node:http to the route's fetch-style handler (what app/api/mcp/route.ts exports).
    server = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const response = await handleMcpRequest(
        new Request(`http://localhost${req.url}`, {
          method: req.method,
          headers,
          body: req.method === "GET" ? undefined : body,
        }),
      );
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  test("lists and calls the owner's approved tools; unapproved ones are absent and refused; no token → 401", async () => {
    const owner = await createTestUser();
    const v = await saveCodeTool(owner.id, {
      name: "greet",
      description: "Greets",
      code: `function run(i){ return "hello " + i.who }`,
      argsSchema: { type: "object", properties: { who: { type: "string" } }, required: ["who"] },
    });
    await approveToolVersion(owner.id, v.id, v.codeHash!);
    await saveCodeTool(owner.id, { name: "draft_tool", code: `function run(){ return 1 }` });

    const client = new Client({ name: "test-client", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: owner.auth } }));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("greet");
    expect(names).toContain("math");
    expect(names).not.toContain("draft_tool");
    expect(await client.callTool({ name: "greet", arguments: { who: "mcp" } })).toMatchObject({
      content: [{ type: "text", text: "hello mcp" }],
    });
    expect(await client.callTool({ name: "draft_tool", arguments: {} })).toMatchObject({ isError: true });
    await client.close();

    const anon = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(anon.status).toBe(401);
  }, 180_000);
});
