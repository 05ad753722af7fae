"use server";
import { revalidatePath } from "next/cache";
import * as z from "zod";
import type { RerunResult, ToolActionResult } from "@/components/tools/types";
import { requireAccess } from "@/lib/auth/access";
import { recordAudit } from "@/lib/db/audit";
import {
  approveToolVersion,
  deleteTool,
  findTool,
  listTools,
  recordedTests,
  revokeToolVersion,
  saveMcpServer,
} from "@/lib/db/tools";
import { AppError } from "@/lib/errors";
import { createLogger } from "@/lib/logger";
import { runToolTests } from "@/lib/tools/create";
import { stdioAllowed } from "@/lib/mcp/client/connection";
import { mcpFormSchema, splitArgs } from "./data";
import { listCredentials } from "@/lib/db/credentials";

const log = createLogger({ component: "tools-actions" });
const idSchema = z.string().min(1).max(100);
const hashSchema = z.string().regex(/^[0-9a-f]{64}$/);

function changed() {
  revalidatePath("/tools");
  revalidatePath("/settings");
}

const failure = (err: unknown, fallback: string): ToolActionResult => {
  if (err instanceof AppError && err.code !== "internal") return { ok: false, message: err.message };
  log.error(fallback, { error: err instanceof Error ? err.message : String(err) });
  return { ok: false, message: fallback };
};

/** Approves one version by the hash the owner reviewed (refused if the code changed since). */
export async function approveToolVersionAction(versionId: string, codeHash: string): Promise<ToolActionResult> {
  const access = await requireAccess("edit");
  const id = idSchema.safeParse(versionId);
  const hash = hashSchema.safeParse(codeHash);
  if (!id.success || !hash.success) return { ok: false, message: "Unknown tool version." };
  try {
    const v = await approveToolVersion(access.workspaceId, id.data, hash.data);
    await recordAudit(access, "tool.approved", { type: "tool_version", id: id.data }, { codeHash: hash.data });
    changed();
    return { ok: true, message: `Approved version ${v.version}: this exact code may now run.` };
  } catch (err) {
    return failure(err, "The version could not be approved.");
  }
}

/** Withdraws approval of one version (it stops running at once). */
export async function revokeToolVersionAction(versionId: string): Promise<ToolActionResult> {
  const access = await requireAccess("edit");
  const id = idSchema.safeParse(versionId);
  if (!id.success || !(await revokeToolVersion(access.workspaceId, id.data)))
    return { ok: false, message: "Unknown tool version." };
  await recordAudit(access, "tool.revoked", { type: "tool_version", id: id.data });
  changed();
  return { ok: true, message: "Approval revoked: this version no longer runs." };
}

/** Deletes one of the user's created tools or MCP servers with all versions. */
export async function deleteToolAction(toolId: string): Promise<ToolActionResult> {
  const access = await requireAccess("edit");
  const id = idSchema.safeParse(toolId);
  if (!id.success || !(await deleteTool(access.workspaceId, id.data))) return { ok: false, message: "Unknown tool." };
  changed();
  return { ok: true, message: "Tool deleted." };
}

/** Runs a version's recorded tests again in the sandbox (approved or not: tests never reach the network). */
export async function rerunToolTestsAction(versionId: string): Promise<RerunResult> {
  const access = await requireAccess("edit");
  const id = idSchema.safeParse(versionId);
  if (!id.success) return { ok: false, message: "Unknown tool version." };
  const version = (await listTools(access.workspaceId))
    .filter((t) => t.kind === "code")
    .flatMap((t) => t.versions)
    .find((v) => v.id === id.data);
  if (!version?.code) return { ok: false, message: "Unknown tool version." };
  const cases = recordedTests(version).map(({ input, expected }) => ({ input, expected }));
  if (cases.length === 0) return { ok: false, message: "This version has no recorded tests." };
  return { ok: true, results: await runToolTests(access.workspaceId, version.code, cases) };
}

/**
 * Connects an MCP server (stdio command or streamable HTTP URL). The owner typed this connection, so
 * saving it approves its exact config hash; a changed config is a new version approved the same way.
 */
export async function saveMcpServerAction(
  _prev: ToolActionResult | null,
  form: FormData,
): Promise<ToolActionResult | null> {
  const access = await requireAccess("edit");
  const parsed = mcpFormSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const i of parsed.error.issues) fieldErrors[String(i.path[0] ?? "transport")] ??= i.message;
    return { ok: false, message: "Check the highlighted fields.", fieldErrors };
  }
  const d = parsed.data;
  if (d.transport === "stdio" && !stdioAllowed()) {
    return {
      ok: false,
      message:
        "stdio MCP servers are disabled on this server (set WEFT_MCP_ALLOW_STDIO=1 on a self-hosted, trusted install).",
      fieldErrors: { command: "stdio is disabled here" },
    };
  }
  const existing = await findTool(access.workspaceId, { name: d.name });
  if (existing && existing.kind !== "mcp")
    return {
      ok: false,
      message: "A tool with this name exists.",
      fieldErrors: { name: "A created tool already uses this name" },
    };
  if (
    d.transport === "http" &&
    d.credential &&
    !(await listCredentials(access.workspaceId)).some((c) => c.name === d.credential)
  )
    return {
      ok: false,
      message: "Check the highlighted fields.",
      fieldErrors: { credential: "Not in your credentials" },
    };
  const config =
    d.transport === "stdio"
      ? { transport: "stdio", command: d.command, args: splitArgs(d.args) }
      : { transport: "http", url: d.url, headers: {}, ...(d.credential ? { credential: d.credential } : {}) };
  try {
    const version = await saveMcpServer(access.workspaceId, d.name, config);
    if (!version.approvedAt && version.codeHash)
      await approveToolVersion(access.workspaceId, version.id, version.codeHash);
    changed();
    return { ok: true, message: `Connected MCP server “${d.name}”: its tools join the registry as ${d.name}__<tool>.` };
  } catch (err) {
    return failure(err, "The MCP server could not be saved.");
  }
}
