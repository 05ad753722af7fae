import "server-only";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { verifyApiToken } from "@/lib/db/api-tokens";
import { roleIn } from "@/lib/db/workspaces";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/json-guard";
import { rateLimiter, type RateLimitRule } from "@/lib/limits/rate-limit";
import { listRunnableTools } from "@/lib/tools/catalog";
import { executeTool } from "@/lib/tools/registry";
import { allows, type Role } from "@/lib/roles";
import { callExperimentTool, experimentTools, isExperimentToolName } from "./experiments";
import { callWorkflowTool, isWorkflowToolName, listWorkflowTools } from "./workflows";

/**
 * Weft as an MCP server for ONE workspace, acting with the token maker's role there (calling a tool
 * needs `run`; a viewer's token lists tools but calls none): lists the tools they can run (built-ins and approved code
 * tools; MCP-imported tools are not re-exported) and calls them through the registry (X5 applies),
 * plus their saved workflows as `run_workflow_<name>` tools (a call runs the saved version and
 * answers its outputs), and evaluations: `weft_list_datasets`, `weft_start_experiment`,
 * `weft_experiment_results` (./experiments.ts).
 */
export function createWeftMcpServer(workspaceId: string, role: Role = "owner"): Server {
  const server = new Server({ name: "weft", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const [tools, workflows] = await Promise.all([
      listRunnableTools(workspaceId, { mcp: "skip" }),
      listWorkflowTools(workspaceId),
    ]);
    return {
      tools: [
        ...tools.map((t) => ({
          name: t.descriptor.name,
          description: t.descriptor.description,
          inputSchema: { type: "object" as const, ...t.descriptor.parameters },
        })),
        ...workflows.map((w) => ({ name: w.name, description: w.description, inputSchema: w.inputSchema })),
        ...experimentTools(),
      ],
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (!allows(role, "run")) {
      const text = `Your role in this workspace (${role}) does not allow calling tools (run).`;
      return { isError: true, content: [{ type: "text" as const, text }] };
    }
    if (isExperimentToolName(request.params.name)) {
      const answer = await callExperimentTool(workspaceId, request.params.name, request.params.arguments ?? {});
      return { ...(answer.ok ? {} : { isError: true }), content: [{ type: "text" as const, text: answer.text }] };
    }
    if (isWorkflowToolName(request.params.name)) {
      const run = await callWorkflowTool(workspaceId, request.params.name, request.params.arguments ?? {}, {
        signal: extra.signal,
      });
      if (run && !run.ok) return { isError: true, content: [{ type: "text" as const, text: run.error }] };
      if (run) return { content: [{ type: "text" as const, text: JSON.stringify(run.outputs) }] };
    }
    const result = await executeTool(workspaceId, { name: request.params.name }, request.params.arguments ?? {}, {
      signal: extra.signal,
    });
    if (!result.ok) return { isError: true, content: [{ type: "text" as const, text: result.error }] };
    const text = typeof result.output === "string" ? result.output : JSON.stringify(result.output);
    return { content: [{ type: "text" as const, text }] };
  });
  return server;
}

/** A JSON-RPC error answer (no request id: it was refused before one was read). */
const rpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

const unauthorized = () =>
  rpcError(401, -32001, "Unauthorized: send Authorization: Bearer <Weft API token>", { "www-authenticate": "Bearer" });

/** Requests one user may send to /api/mcp per minute (WEFT_MCP_RATE_LIMIT, default 120), whichever token they use. */
export const mcpRateRule = (): RateLimitRule => ({ name: "mcp", max: env().WEFT_MCP_RATE_LIMIT, windowMs: 60_000 });

/**
 * Handles one request to /api/mcp (streamable HTTP, stateless, JSON responses). The API token is
 * checked BEFORE anything is parsed or executed (cf. Langflow CVE-2025-3248); then the owner's rate
 * limit (429 with Retry-After), then the body through the JSON guard (lib/http/json-guard.ts).
 */
export async function handleMcpRequest(request: Request): Promise<Response> {
  const header = request.headers.get("authorization") ?? "";
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  const auth = token ? await verifyApiToken(token) : null;
  // a token acts with its maker's membership as it stands now: a removed member's token is refused
  const role = auth ? await roleIn(auth.userId, auth.workspaceId) : null;
  if (!auth || !role) return unauthorized();
  const decision = await rateLimiter().hit(mcpRateRule(), auth.workspaceId);
  if (!decision.allowed) {
    const wait = decision.retryAfterSeconds;
    return rpcError(
      429,
      -32000,
      `Too many MCP requests: at most ${mcpRateRule().max} a minute (WEFT_MCP_RATE_LIMIT). Try again in ${wait} s.`,
      { "retry-after": String(wait) },
    );
  }
  let parsedBody: unknown;
  if (request.method === "POST") {
    try {
      parsedBody = await readJsonBody(request, { empty: null });
    } catch (err) {
      if (err instanceof AppError) return rpcError(err.status, -32700, err.message);
      throw err;
    }
  }
  const server = createWeftMcpServer(auth.workspaceId, role);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
  } finally {
    void server.close();
  }
}
