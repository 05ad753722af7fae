import "server-only";
import { listTools } from "@/lib/db/tools";
import type { ToolDescriptor } from "@/lib/engine/ports";
import { createLogger } from "@/lib/logger";
import { builtinTools } from "./builtins";
import { listMcpTools, mcpServerConfigSchema } from "./mcp/client";
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
 * tools of approved MCP servers (an unreachable server is skipped and logged, not fatal).
 */
export async function listRunnableTools(ownerId: string, options: { includeMcp?: boolean } = {}): Promise<CatalogEntry[]> {
  const out: CatalogEntry[] = [];
  for (const name of builtinTools.keys()) {
    const r = await resolveTool(ownerId, { name });
    if (r) out.push({ kind: "builtin", descriptor: r.descriptor });
  }
  for (const tool of await listTools(ownerId)) {
    const v = runnableVersion(tool, { name: tool.name });
    if ("reason" in v) continue;
    if (tool.kind === "code") {
      const r = await resolveTool(ownerId, { name: tool.name });
      if (r) out.push({ kind: "code", descriptor: r.descriptor, version: v.version });
    } else if (tool.kind === "mcp" && options.includeMcp !== false) {
      try {
        const config = mcpServerConfigSchema.parse(JSON.parse(v.code ?? "{}"));
        for (const t of await listMcpTools(config)) {
          out.push({ kind: "mcp", descriptor: { name: mcpToolName(tool.name, t.name), description: t.description, parameters: t.inputSchema, sideEffect: true } });
        }
      } catch (err) {
        log.warn("MCP server unavailable", { server: tool.name, error: err instanceof Error ? err.message : String(err) });
      }
    }
  }
  return out;
}
