"use server";
import * as z from "zod";
import { requireAccess, type Access } from "@/lib/auth/access";
import { recordAudit } from "@/lib/db/audit";
import type { Permission } from "@/lib/roles";
import { getWorkflowVersion, listWorkflowVersions, saveWorkflowVersion, updateWorkflow } from "@/lib/db/workflows";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { workflowSchema, type Workflow } from "@/lib/workflow/schema";

/**
 * Server actions of the editor. Every argument is parsed with zod, the member's role is checked
 * first (a refusal is the toast's message) and every query is scoped by the workspace through
 * lib/db/workflows.ts (another workspace's id simply finds nothing).
 */

/** What every action returns: data, or a message the editor shows in a toast. */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string };

/** A version as the history panel lists it (dates as ISO strings: plain JSON over the wire). */
export type VersionItem = { id: string; version: number; message: string; createdAt: string };

const idSchema = z.string().min(1).max(64);
const messageSchema = z.string().max(500).default("");

async function run<T>(
  permission: Permission,
  what: string,
  fn: (workspaceId: string, access: Access) => Promise<T | null>,
): Promise<ActionResult<T>> {
  try {
    const access = await requireAccess(permission);
    const data = await fn(access.workspaceId, access);
    if (data === null) return { ok: false, error: "Workflow not found." };
    return { ok: true, data };
  } catch (error) {
    if (error instanceof z.ZodError)
      return { ok: false, error: `Invalid ${what}: ${error.issues[0]?.message ?? "bad input"}` };
    if (error instanceof AppError) return { ok: false, error: error.message };
    logger.error("editor action failed", { err: error, what });
    return { ok: false, error: `Could not ${what}.` };
  }
}

/** Saves the draft (an invalid graph is fine: a draft only has to be a well-formed document). */
export async function saveDraftAction(
  workflowId: unknown,
  document: unknown,
): Promise<ActionResult<{ savedAt: string }>> {
  return run("edit", "save the draft", async (workspaceId) => {
    const id = idSchema.parse(workflowId);
    const draft = workflowSchema.parse(document);
    const saved = await updateWorkflow(workspaceId, id, { draft, name: draft.name.trim() || "Untitled workflow" });
    return saved ? { savedAt: saved.updatedAt.toISOString() } : null;
  });
}

/** Saves the draft, then snapshots it as the next immutable version. */
export async function saveVersionAction(
  workflowId: unknown,
  document: unknown,
  message: unknown,
): Promise<ActionResult<VersionItem>> {
  return run("edit", "save a version", async (workspaceId, access) => {
    const id = idSchema.parse(workflowId);
    const draft = workflowSchema.parse(document);
    const msg = messageSchema.parse(message ?? "");
    if (!(await updateWorkflow(workspaceId, id, { draft, name: draft.name.trim() || "Untitled workflow" })))
      return null;
    const v = await saveWorkflowVersion(workspaceId, id, msg);
    if (v) await recordAudit(access, "workflow.saved", { type: "workflow", id }, { version: v.version });
    return v ? { id: v.id, version: v.version, message: v.message, createdAt: v.createdAt.toISOString() } : null;
  });
}

/** The workflow's versions, newest first. */
export async function listVersionsAction(workflowId: unknown): Promise<ActionResult<VersionItem[]>> {
  return run("read", "list versions", async (workspaceId) => {
    const list = await listWorkflowVersions(workspaceId, idSchema.parse(workflowId));
    return (
      list?.map((v) => ({ id: v.id, version: v.version, message: v.message, createdAt: v.createdAt.toISOString() })) ??
      null
    );
  });
}

/** One version's document (for the diff view and restore). */
export async function getVersionAction(workflowId: unknown, versionId: unknown): Promise<ActionResult<Workflow>> {
  return run("read", "load the version", async (workspaceId) => {
    const v = await getWorkflowVersion(workspaceId, idSchema.parse(versionId));
    return v && v.workflowId === idSchema.parse(workflowId) ? v.document : null;
  });
}

/** Restores a version into the draft (the version itself stays as it is); returns the new draft. */
export async function restoreVersionAction(workflowId: unknown, versionId: unknown): Promise<ActionResult<Workflow>> {
  return run("edit", "restore the version", async (workspaceId) => {
    const id = idSchema.parse(workflowId);
    const v = await getWorkflowVersion(workspaceId, idSchema.parse(versionId));
    if (!v || v.workflowId !== id) return null;
    const saved = await updateWorkflow(workspaceId, id, {
      draft: v.document,
      name: v.document.name.trim() || "Untitled workflow",
    });
    return saved ? v.document : null;
  });
}
