import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createLinkPOST } from "@/app/api/runs/[id]/share/route";
import { GET as runGET } from "@/app/api/runs/[id]/route";
import { GET as shareGET } from "@/app/api/share/[token]/route";
import { loadToolViews } from "@/app/(app)/tools/data";
import { createApiToken } from "@/lib/db/api-tokens";
import { db } from "@/lib/db/client";
import { credentialHeaders, listCredentials, saveCredential } from "@/lib/db/credentials";
import { approveToolVersion, saveMcpServer } from "@/lib/db/tools";
import { markPeerStampActive, PEER_HEADER } from "@/lib/net/client-address";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { useWorkerRuntime } from "@/test/helpers/runtime";

/**
 * The credentials vault: an HTTP MCP server on loopback that requires a bearer token connects with
 * a vault secret (the worker reads and decrypts it when it connects), and the secret is nowhere else:
 * not in the server's stored config, any API answer, step row, event or share page, nor in the
 * vault's own listing (only its last four characters).
 */
const rt = useWorkerRuntime({ workerEnv: { WEFT_MCP_ALLOW_PRIVATE: "1" } });
markPeerStampActive();

const SECRET = "SECRETmarker-9f2c7d";
let http: HttpServer;
let url = "";
const seen: Array<string | null> = [];

/** A stateless MCP server whose one tool answers only requests carrying the bearer token. */
function mcpServer() {
  const server = new Server({ name: "secure", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: "greet", description: "Says hello", inputSchema: { type: "object", properties: {} } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => ({
    content: [{ type: "text", text: "hello from secure" }],
  }));
  return server;
}

beforeAll(async () => {
  http = createServer(async (req, res) => {
    seen.push(req.headers.authorization ?? null);
    if (req.headers.authorization !== `Bearer ${SECRET}`) {
      res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([k, v]) =>
        typeof v === "string" ? [[k, v] as [string, string]] : [],
      ),
      ...(body ? { body } : {}),
    });
    const server = mcpServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    const answer = await transport.handleRequest(request, body ? { parsedBody: JSON.parse(body) } : undefined);
    res.writeHead(answer.status, Object.fromEntries(answer.headers.entries()));
    res.end(Buffer.from(await answer.arrayBuffer()));
    void server.close();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

const calls = (server: string): WorkflowInput => ({
  name: `Calls ${server}`,
  outputs: [{ key: "answer", type: "text", description: "" }],
  nodes: [
    { id: "start", type: "start" },
    { id: "call", type: "tool", tool: { name: `${server}__greet` }, args: {} },
    { id: "end", type: "end", outputs: { answer: "{{nodes.call.output}}" } },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "call" },
    { id: "e2", source: "call", sourceHandle: "done", target: "end" },
  ],
});

async function connect(name: string, credential?: string) {
  const v = await saveMcpServer(rt.workspaceId, name, {
    transport: "http",
    url,
    headers: {},
    ...(credential ? { credential } : {}),
  });
  await approveToolVersion(rt.workspaceId, v.id, v.codeHash!);
  return v;
}

describe("credentials vault", () => {
  it("an HTTP MCP server that requires a bearer token connects with a vault secret, which appears nowhere else", async () => {
    const saved = await saveCredential(rt.workspaceId, { name: "secure-key", kind: "bearer", value: SECRET });
    expect(saved).toMatchObject({ name: "secure-key", kind: "bearer", last4: SECRET.slice(-4) });
    const version = await connect("secure", "secure-key");
    expect(version.code).not.toContain(SECRET);

    const { run, steps, events } = await rt.run(calls("secure"));
    expect(run.status).toBe("succeeded");
    expect(run.outputs).toEqual({ answer: "hello from secure" });
    expect(seen).toContain(`Bearer ${SECRET}`);

    // nowhere but the request to the server: rows, events, API answers, share pages, tool and vault listings
    const token = (await createApiToken(rt.workspaceId, rt.workspaceId, "vault")).token;
    const auth = { authorization: `Bearer ${token}` };
    const api = await runGET(new Request(`http://localhost/api/runs/${run.id}`, { headers: auth }), {
      params: Promise.resolve({ id: run.id }),
    });
    expect(api.status).toBe(200);
    const link = await createLinkPOST(
      new Request(`http://localhost/api/runs/${run.id}/share`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ expiresIn: "1h", includeContent: true }),
      }),
      { params: Promise.resolve({ id: run.id }) },
    );
    const share = (await link.json()) as { token: string };
    const page = await shareGET(
      new Request(`http://localhost/api/share/${share.token}`, { headers: { [PEER_HEADER]: "10.88.0.1" } }),
      { params: Promise.resolve({ token: share.token }) },
    );
    expect(page.status).toBe(200);
    const everything = [
      JSON.stringify(steps),
      JSON.stringify(events),
      await api.text(),
      await page.text(),
      JSON.stringify(await loadToolViews(rt.workspaceId)),
      JSON.stringify(await listCredentials(rt.workspaceId)),
      JSON.stringify(await db().toolVersion.findMany()),
      JSON.stringify(await db().credential.findMany()),
      JSON.stringify(await db().toolEffect.findMany()),
    ].join("\n");
    expect(everything).toContain("hello from secure"); // the checks above read real content
    expect(everything).not.toContain(SECRET);
  }, 120_000);

  it("without the credential the server refuses the connection, and the step fails saying so", async () => {
    await connect("open");
    const { run, steps } = await rt.run(calls("open"));
    expect(run.status).toBe("failed");
    expect(steps.find((s) => s.nodeId === "call")?.error).toMatch(/401|unauthorized|does not exist|not approved/i);
  }, 120_000);

  it("rotating a credential changes what is sent; bad input is refused and stores nothing", async () => {
    await saveCredential(rt.workspaceId, { name: "secure-key", kind: "bearer", value: "rotated-value-1234" });
    expect(await credentialHeaders(rt.workspaceId, "secure-key")).toEqual({
      authorization: "Bearer rotated-value-1234",
    });
    expect((await listCredentials(rt.workspaceId)).filter((c) => c.name === "secure-key")).toHaveLength(1);
    const before = await db().credential.count();
    for (const bad of [
      { name: "1bad", kind: "bearer", value: "x" },
      { name: "ok", kind: "header", value: "x" },
      { name: "ok", kind: "basic", value: "no-colon" },
      { name: "ok", kind: "bearer", value: "line\nbreak" },
      { name: "ok", kind: "header", headerName: "Host", value: "x" },
      { name: "ok", kind: "nope", value: "x" },
    ])
      await expect(saveCredential(rt.workspaceId, bad as never)).rejects.toThrow();
    expect(await db().credential.count()).toBe(before);
    await expect(credentialHeaders(rt.workspaceId, "missing")).rejects.toMatchObject({ code: "not_found" });
    expect(await credentialHeaders(rt.workspaceId, "secure-key").then(() => "ok")).toBe("ok");
    await saveCredential(rt.workspaceId, { name: "basic-one", kind: "basic", value: "ada:pw" });
    expect(await credentialHeaders(rt.workspaceId, "basic-one")).toEqual({
      authorization: `Basic ${Buffer.from("ada:pw").toString("base64")}`,
    });
    await saveCredential(rt.workspaceId, { name: "hdr", kind: "header", headerName: "X-API-Key", value: "k-1" });
    expect(await credentialHeaders(rt.workspaceId, "hdr")).toEqual({ "X-API-Key": "k-1" });
  });
});
