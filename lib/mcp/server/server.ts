import "server-only";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { verifyApiToken } from "@/lib/db/api-tokens";
import { listRunnableTools } from "@/lib/tools/catalog";
import { executeTool } from "@/lib/tools/registry";
import { callWorkflowTool, isWorkflowToolName, listWorkflowTools } from "./workflows";

/**
 * Weft as an MCP server for ONE owner: lists the tools they can run (built-ins and approved code
 * tools; MCP-imported tools are not re-exported) and calls them through the registry (X5 applies),
 * plus their saved workflows as `run_workflow_<name>` tools (a call runs the saved version and
 * answers its outputs).
 */
export function createWeftMcpServer(ownerId: string): Server {
  const server = new Server({ name: "weft", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const [tools, workflows] = await Promise.all([listRunnableTools(ownerId, { mcp: "skip" }), listWorkflowTools(ownerId)]);
    return {
      tools: [
        ...tools.map((t) => ({ name: t.descriptor.name, description: t.descriptor.description, inputSchema: { type: "object" as const, ...t.descriptor.parameters } })),
        ...workflows.map((w) => ({ name: w.name, description: w.description, inputSchema: w.inputSchema })),
      ],
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (isWorkflowToolName(request.params.name)) {
      const run = await callWorkflowTool(ownerId, request.params.name, request.params.arguments ?? {}, { signal: extra.signal });
      if (run && !run.ok) return { isError: true, content: [{ type: "text" as const, text: run.error }] };
      if (run) return { content: [{ type: "text" as const, text: JSON.stringify(run.outputs) }] };
    }
    const result = await executeTool(ownerId, { name: request.params.name }, request.params.arguments ?? {}, { signal: extra.signal });
    if (!result.ok) return { isError: true, content: [{ type: "text" as const, text: result.error }] };
    const text = typeof result.output === "string" ? result.output : JSON.stringify(result.output);
    return { content: [{ type: "text" as const, text }] };
  });
  return server;
}

const unauthorized = () =>
  new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Unauthorized: send Authorization: Bearer <Weft API token>" }, id: null }), {
    status: 401,
    headers: { "content-type": "application/json", "www-authenticate": "Bearer" },
  });

/**
 * Handles one request to /api/mcp (streamable HTTP, stateless, JSON responses). The API token is
 * checked BEFORE anything is parsed or executed (cf. Langflow CVE-2025-3248).
 */
export async function handleMcpRequest(request: Request): Promise<Response> {
  const header = request.headers.get("authorization") ?? "";
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  const auth = token ? await verifyApiToken(token) : null;
  if (!auth) return unauthorized();
  const server = createWeftMcpServer(auth.ownerId);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    void server.close();
  }
}
