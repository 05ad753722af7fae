import "server-only";
import * as z from "zod";
import { codeToolConfigSchema, findTool, type ToolRow, type ToolVersionRow } from "@/lib/db/tools";
import type { ToolCallResult, ToolDescriptor, ToolsPort } from "@/lib/engine/ports";
import { env } from "@/lib/env";
import { createLogger } from "@/lib/logger";
import type { ToolRef } from "@/lib/workflow/schema";
import { builtinTools, type ToolContext } from "./builtins";
import { hashCode } from "@/lib/crypto/code-hash";
import { callMcpTool, mcpServerConfigSchema, withCredential, type McpServerConfig } from "@/lib/mcp/client/connection";
import { approvedMcpTools } from "@/lib/mcp/client/listing";
import { guardedFetch, type NetPolicy } from "@/lib/net";
import { runSandboxed, type Capability } from "./sandbox";

const log = createLogger({ component: "tool-registry" });

/** Options shared by resolve/execute: network policy base and the search provider. */
export interface RegistryOptions {
  net?: NetPolicy;
  searchUrl?: string;
}

/** A tool that may run: built-in, or a code tool at ONE approved version whose code still matches its hash. */
export type ResolvedTool =
  | { kind: "builtin"; descriptor: ToolDescriptor }
  | { kind: "code"; descriptor: ToolDescriptor; toolId: string; version: ToolVersionRow }
  | { kind: "mcp"; descriptor: ToolDescriptor; toolId: string; config: McpServerConfig; remoteName: string };

/** Registry name of an external MCP server's tool: `<server>__<tool>`. */
export const mcpToolName = (server: string, tool: string): string => `${server}__${tool}`;

/** Why a ref does not resolve (shown to the user / model). */
export type Unrunnable = { reason: "unknown" | "unapproved" | "changed"; message: string };

const argsObject = z.record(z.string(), z.unknown());

/** Picks the version a ref runs: the pinned one, else the newest approved; checks approval and hash (X5). */
export function runnableVersion(tool: ToolRow, ref: ToolRef): ToolVersionRow | Unrunnable {
  const v = ref.version
    ? tool.versions.find((x) => x.version === ref.version)
    : tool.versions.find((x) => x.approvedAt !== null);
  if (!v)
    return {
      reason: ref.version ? "unknown" : "unapproved",
      message: `Tool "${tool.name}" has no ${ref.version ? `version ${ref.version}` : "approved version"}.`,
    };
  if (!v.approvedAt)
    return { reason: "unapproved", message: `Tool "${tool.name}" v${v.version} is not approved by its owner.` };
  if (!v.code || !v.codeHash || hashCode(v.code) !== v.codeHash) {
    return {
      reason: "changed",
      message: `Tool "${tool.name}" v${v.version} changed since it was approved (hash mismatch); it will not run.`,
    };
  }
  return v;
}

/** Resolves a ref for the owner, or explains why it cannot run. Built-in names win (they are reserved). */
export async function resolveToolOrReason(workspaceId: string, ref: ToolRef): Promise<ResolvedTool | Unrunnable> {
  const builtin = ref.toolId ? undefined : builtinTools.get(ref.name);
  if (builtin) {
    return {
      kind: "builtin",
      descriptor: {
        name: builtin.name,
        description: builtin.description,
        parameters: z.toJSONSchema(builtin.args, { io: "input", unrepresentable: "any" }) as Record<string, unknown>,
        sideEffect: builtin.sideEffect,
      },
    };
  }
  const [server, remote] = ref.name.includes("__") ? ref.name.split(/__(.*)/s) : [];
  if (server && remote) return resolveMcp(workspaceId, ref, server, remote);
  const tool = await findTool(workspaceId, { toolId: ref.toolId, name: ref.toolId ? undefined : ref.name });
  if (!tool || tool.kind !== "code") return { reason: "unknown", message: `Tool "${ref.name}" does not exist.` };
  const version = runnableVersion(tool, ref);
  if ("reason" in version) return version;
  const config = codeToolConfigSchema.parse(version.config ?? {});
  return {
    kind: "code",
    toolId: tool.id,
    version,
    descriptor: {
      name: tool.name,
      description: tool.description,
      parameters: argsObject.parse(version.argsSchema ?? {}),
      sideEffect: config.allowedDomains.length > 0,
    },
  };
}

/** Run-time resolution's use of the MCP listing cache (lib/mcp/client/listing.ts). */
const RUNTIME_MCP_LISTING = { maxAgeMs: 60_000, failureMaxAgeMs: 0 } as const;

async function resolveMcp(
  workspaceId: string,
  ref: ToolRef,
  server: string,
  remote: string,
): Promise<ResolvedTool | Unrunnable> {
  const tool = await findTool(workspaceId, { name: server });
  if (!tool || tool.kind !== "mcp") return { reason: "unknown", message: `MCP server "${server}" is not connected.` };
  const version = runnableVersion(tool, { name: server, version: ref.version });
  if ("reason" in version) return version;
  const config = mcpServerConfigSchema.parse(JSON.parse(version.code ?? "{}"));
  // the approval above is read from the database every time; only the server's own tool list is kept
  // (a minute; a failed listing is not remembered, so a step is never failed by an earlier failure)
  const info = (await approvedMcpTools(workspaceId, version, RUNTIME_MCP_LISTING)).find((t) => t.name === remote);
  if (!info) return { reason: "unknown", message: `MCP server "${server}" has no tool "${remote}".` };
  return {
    kind: "mcp",
    toolId: tool.id,
    config,
    remoteName: remote,
    descriptor: { name: ref.name, description: info.description, parameters: info.inputSchema, sideEffect: true },
  };
}

/** Resolves a ref for the owner (null when unknown, unapproved or changed). */
export async function resolveTool(workspaceId: string, ref: ToolRef): Promise<ResolvedTool | null> {
  const r = await resolveToolOrReason(workspaceId, ref);
  return "reason" in r ? null : r;
}

/** Minimal JSON-schema check of a code tool's arguments: an object with the required keys. */
function checkArgs(schema: Record<string, unknown>, args: Record<string, unknown>): string | null {
  const required = Array.isArray(schema.required)
    ? (schema.required as unknown[]).filter((k): k is string => typeof k === "string")
    : [];
  const missing = required.filter((k) => !(k in args));
  return missing.length ? `missing argument(s): ${missing.join(", ")}` : null;
}

async function runCode(
  tool: Extract<ResolvedTool, { kind: "code" }>,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<ToolCallResult> {
  const bad = checkArgs(tool.descriptor.parameters, args);
  if (bad) return { ok: false, error: bad };
  const config = codeToolConfigSchema.parse(tool.version.config ?? {});
  const capabilities: Record<string, Capability> = config.allowedDomains.length
    ? {
        http: async (a: unknown) =>
          guardedFetch(httpArgs.parse(a), { ...ctx.net, allowedDomains: config.allowedDomains }),
      }
    : {};
  const result = await runSandboxed({
    code: tool.version.code ?? "",
    input: args,
    timeoutMs: config.timeoutMs,
    memoryMb: config.memoryMb,
    capabilities,
    workspaceId: ctx.workspaceId,
    signal: ctx.signal,
  });
  if (result.ok) return { ok: true, output: result.output };
  return { ok: false, error: `${tool.descriptor.name} failed (${result.error.kind}): ${result.error.message}` };
}

const httpArgs = z.object({
  url: z.string(),
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.string().optional(),
});

/**
 * Executes a tool for its owner. Re-resolves first, so an unapproved tool, or one whose stored code no
 * longer matches the approved hash, never runs (X5). Never throws: failures are `{ok:false, error}`.
 */
export async function executeTool(
  workspaceId: string,
  ref: ToolRef,
  args: Record<string, unknown>,
  options: RegistryOptions & { signal?: AbortSignal } = {},
): Promise<ToolCallResult> {
  const resolved = await resolveToolOrReason(workspaceId, ref);
  if ("reason" in resolved) return { ok: false, error: resolved.message };
  const ctx: ToolContext = {
    workspaceId,
    signal: options.signal ?? new AbortController().signal,
    net: options.net ?? {},
    searchUrl: options.searchUrl ?? env().WEFT_SEARCH_URL,
  };
  try {
    if (resolved.kind === "code") return await runCode(resolved, args, ctx);
    if (resolved.kind === "mcp") {
      const config = await withCredential(workspaceId, resolved.config);
      return { ok: true, output: await callMcpTool(config, resolved.remoteName, args, ctx.net) };
    }
    const builtin = builtinTools.get(resolved.descriptor.name)!;
    const parsed = builtin.args.safeParse(args);
    if (!parsed.success) return { ok: false, error: `invalid arguments: ${z.prettifyError(parsed.error)}` };
    return { ok: true, output: await builtin.run(parsed.data, ctx) };
  } catch (err) {
    log.info("tool call failed", { tool: ref.name, error: err instanceof Error ? err.message : String(err) });
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** The engine's ToolsPort over this registry for one owner (wrap it in the ledger, ledger.ts). */
export function registryToolsPort(workspaceId: string, options: RegistryOptions = {}): ToolsPort {
  return {
    resolve: async (ref) => (await resolveTool(workspaceId, ref))?.descriptor ?? null,
    call: (request) => executeTool(workspaceId, request.ref, request.args, { ...options, signal: request.signal }),
  };
}
