import "server-only";
import { listTools } from "@/lib/db/tools";
import type { ToolDescriptor } from "@/lib/engine/ports";
import { createLogger } from "@/lib/logger";
import { builtinTools } from "./builtins";
import { approvedMcpTools, type ListingOptions } from "@/lib/mcp/client/listing";
import { mcpToolName, resolveTool, runnableVersion } from "./registry";

const log = createLogger({ component: "tool-catalog" });

/** One runnable tool in the owner's catalog. */
export interface CatalogEntry {
  kind: "builtin" | "code" | "mcp";
  descriptor: ToolDescriptor;
  /** Set for code tools: the approved version that runs. */
  version?: number;
}

/**
 * Everything the owner can run right now: built-ins, code tools at their approved version, and the
 * tools of approved MCP servers, listed through the per-process listing cache (mcp/listing.ts: a
 * server is contacted once per approved version and `maxAgeMs`, not once per call). A server that
 * cannot be listed is skipped and logged, not fatal. `mcp: "skip"` leaves MCP servers out (Weft's
 * own MCP endpoint does not relay other servers).
 */
export async function listRunnableTools(
  workspaceId: string,
  options: { mcp?: "skip" | ListingOptions } = {},
): Promise<CatalogEntry[]> {
  const out: CatalogEntry[] = [];
  for (const name of builtinTools.keys()) {
    const r = await resolveTool(workspaceId, { name });
    if (r) out.push({ kind: "builtin", descriptor: r.descriptor });
  }
  // code tools in order; MCP servers listed concurrently (one slow server delays the catalog once, not once per server)
  const later: Promise<CatalogEntry[]>[] = [];
  for (const tool of await listTools(workspaceId)) {
    const v = runnableVersion(tool, { name: tool.name });
    if ("reason" in v) continue;
    if (tool.kind === "code") {
      const r = await resolveTool(workspaceId, { name: tool.name });
      if (r) out.push({ kind: "code", descriptor: r.descriptor, version: v.version });
    } else if (tool.kind === "mcp" && options.mcp !== "skip") {
      later.push(mcpEntries(workspaceId, tool.name, v, options.mcp));
    }
  }
  for (const entries of await Promise.all(later)) out.push(...entries);
  return out;
}

/** One approved MCP server's tools as catalog entries; none (logged) when it cannot be listed. */
async function mcpEntries(
  workspaceId: string,
  server: string,
  version: Parameters<typeof approvedMcpTools>[1],
  options?: ListingOptions,
): Promise<CatalogEntry[]> {
  try {
    const tools = await approvedMcpTools(workspaceId, version, options);
    return tools.map((t) => ({
      kind: "mcp",
      descriptor: {
        name: mcpToolName(server, t.name),
        description: t.description,
        parameters: t.inputSchema,
        sideEffect: true,
      },
    }));
  } catch (err) {
    log.warn("MCP server unavailable", { server, error: err instanceof Error ? err.message : String(err) });
    return [];
  }
}
