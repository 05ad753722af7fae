import "server-only";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as z from "zod";
import { credentialHeaders, credentialNameSchema } from "@/lib/db/credentials";
import { env } from "@/lib/env";
import { checkTarget, type NetPolicy } from "@/lib/net";

/** How to reach an external MCP server (stored as the code of a Tool row of kind "mcp", approved by hash). */
export const mcpServerConfigSchema = z.discriminatedUnion("transport", [
  z.object({
    transport: z.literal("stdio"),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    cwd: z.string().optional(),
  }),
  z.object({
    transport: z.literal("http"),
    url: z.string().url(),
    headers: z.record(z.string(), z.string()).default({}),
    /** A credential of the owner's vault (by name) sent with every request; its value is never in the config. */
    credential: credentialNameSchema.optional(),
  }),
]);
export type McpServerConfig = z.infer<typeof mcpServerConfigSchema>;

/** The config as it connects for `workspaceId`: an HTTP server's vault credential added to its headers (decrypted only now). */
export async function withCredential(workspaceId: string, config: McpServerConfig): Promise<McpServerConfig> {
  if (config.transport !== "http" || !config.credential) return config;
  return { ...config, headers: { ...config.headers, ...(await credentialHeaders(workspaceId, config.credential)) } };
}

/** A tool of an external MCP server as the registry sees it. */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/**
 * Whether stdio servers may be started (they run a command on the Weft host): only when
 * WEFT_MCP_ALLOW_STDIO=1 (self-hosted, trusted users) or under tests. Default: off.
 */
export const stdioAllowed = (): boolean => env().WEFT_MCP_ALLOW_STDIO || env().NODE_ENV === "test";

/** Connects, runs `fn`, always closes (a stdio server process ends with it). Times out after `timeoutMs`. */
export async function withMcpClient<T>(
  config: McpServerConfig,
  fn: (client: Client) => Promise<T>,
  net: NetPolicy = {},
  timeoutMs = 30_000,
): Promise<T> {
  const client = new Client({ name: "weft", version: "1.0.0" });
  let transport;
  if (config.transport === "stdio") {
    if (!stdioAllowed()) throw new Error("stdio MCP servers are disabled on this server (WEFT_MCP_ALLOW_STDIO)");
    transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      cwd: config.cwd,
      env: { PATH: process.env.PATH ?? "" },
      stderr: "ignore",
    });
  } else {
    // an operator may let users' HTTP MCP servers live on this host or network (WEFT_MCP_ALLOW_PRIVATE)
    await checkTarget(config.url, env().WEFT_MCP_ALLOW_PRIVATE ? { ...net, allowPrivate: true } : net);
    transport = new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`MCP server did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([client.connect(transport).then(() => fn(client)), timeout]);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
  }
}

/** Lists the server's tools (within `timeoutMs`, default 30 s). */
export async function listMcpTools(
  config: McpServerConfig,
  net?: NetPolicy,
  timeoutMs?: number,
): Promise<McpToolInfo[]> {
  return withMcpClient(
    config,
    async (client) => {
      const { tools } = await client.listTools();
      return tools.map((t) => ({
        name: t.name,
        description: t.description ?? "",
        inputSchema: t.inputSchema as Record<string, unknown>,
      }));
    },
    net,
    timeoutMs,
  );
}

/** Calls one tool; text contents are joined, structured content returned when present; isError throws. */
export async function callMcpTool(
  config: McpServerConfig,
  name: string,
  args: Record<string, unknown>,
  net?: NetPolicy,
): Promise<unknown> {
  return withMcpClient(
    config,
    async (client) => {
      const result = await client.callTool({ name, arguments: args });
      const content = Array.isArray(result.content) ? (result.content as Array<{ type: string; text?: string }>) : [];
      const text = content
        .filter((c) => c.type === "text")
        .map((c) => c.text ?? "")
        .join("\n");
      if (result.isError) throw new Error(text || `MCP tool ${name} failed`);
      return result.structuredContent ?? text;
    },
    net,
  );
}
