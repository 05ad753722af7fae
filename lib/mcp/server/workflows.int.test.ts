import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createWorkflow } from "@/lib/db/workflows";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { useWorkerRuntime } from "@/test/helpers/runtime";
import { handleMcpRequest } from "./server";

/**
 * Weft serves the owner's SAVED workflows as MCP tools: an MCP client (the SDK, over HTTP) lists
 * run_workflow_<name> with the workflow's inputs as its schema and calls it; the run goes through a
 * real worker process, BullMQ, PostgreSQL and the scripted model, and the call answers its outputs.
 */
useWorkerRuntime({
  fixtures: [
    {
      rules: [
        { id: "mcp-wf", match: { anyMessage: "mcp-served workflow" }, reply: { text: "SUMMARY: served over MCP" } },
      ],
    },
  ],
});
let server: http.Server;
let url = "";

const summariser: WorkflowInput = {
  name: "Summariser",
  inputs: [{ key: "text", type: "text", description: "What to summarise" }],
  outputs: [{ key: "summary", type: "text" }],
  agents: [{ key: "writer", name: "Writer", instructions: "Summarise the text in one line." }],
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 } },
    {
      id: "write",
      type: "agent",
      agent: "writer",
      task: "Summarise: {{inputs.text}}",
      branches: [{ id: "done" }],
      position: { x: 200, y: 0 },
    },
    { id: "end", type: "end", outputs: { summary: "{{nodes.write.output}}" }, position: { x: 400, y: 0 } },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "write" },
    { id: "e2", source: "write", sourceHandle: "done", target: "end" },
  ],
};

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const response = await handleMcpRequest(
      new Request(`http://localhost${req.url}`, {
        method: req.method,
        headers,
        body: req.method === "GET" || !chunks.length ? undefined : Buffer.concat(chunks),
      }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`;
});

afterAll(async () => {
  await new Promise<void>((r) => server?.close(() => r()));
});

test("an MCP client lists the owner's saved workflows as tools and runs one to its outputs; drafts are not served", async () => {
  const owner = await createTestUser();
  await createTestWorkflow(owner.id, summariser); // named "Test workflow", version 1 saved
  await createWorkflow(owner.id, { ...summariser, name: "Draft only" }); // no saved version
  const other = await createTestUser();

  const client = new Client({ name: "test-client", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: owner.auth } }));
  const tools = (await client.listTools()).tools;
  const wf = tools.find((t) => t.name === "run_workflow_test_workflow");
  expect(wf?.inputSchema).toMatchObject({
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
  });
  expect(tools.some((t) => t.name === "run_workflow_draft_only")).toBe(false);
  expect(tools.some((t) => t.name === "math")).toBe(true);

  const result = await client.callTool(
    { name: "run_workflow_test_workflow", arguments: { text: "an mcp-served workflow" } },
    undefined,
    { timeout: 150_000 },
  );
  expect(result.isError).toBeFalsy();
  expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual({ summary: "SUMMARY: served over MCP" });
  // Missing inputs are refused with the reason, not run.
  expect(await client.callTool({ name: "run_workflow_test_workflow", arguments: {} })).toMatchObject({
    isError: true,
    content: [{ text: expect.stringMatching(/inputs/) }],
  });
  await client.close();

  // Another user's token sees none of these workflows.
  const stranger = new Client({ name: "stranger", version: "1.0.0" });
  await stranger.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: other.auth } }));
  expect((await stranger.listTools()).tools.some((t) => t.name.startsWith("run_workflow_"))).toBe(false);
  await stranger.close();
}, 240_000);
