"use server";
import { z } from "zod";
import { requireUser } from "@/lib/auth/session";
import { getWorkflowVersion, listWorkflowVersions, saveWorkflowVersion, updateWorkflow } from "@/lib/db/workflows";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { workflowSchema, type Workflow } from "@/lib/workflow/schema";

/**
 * Server actions of the editor. Every argument is parsed with zod and every query is scoped by the
 * signed-in user through lib/db/workflows.ts (another user's id simply finds nothing).
 */

/** What every action returns: data, or a message the editor shows in a toast. */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string };

/** A version as the history panel lists it (dates as ISO strings: plain JSON over the wire). */
export type VersionItem = { id: string; version: number; message: string; createdAt: string };

const idSchema = z.string().min(1).max(64);
const messageSchema = z.string().max(500).default("");

async function run<T>(what: string, fn: (userId: string) => Promise<T | null>): Promise<ActionResult<T>> {
  const user = await requireUser();
  try {
    const data = await fn(user.id);
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
  return run("save the draft", async (userId) => {
    const id = idSchema.parse(workflowId);
    const draft = workflowSchema.parse(document);
    const saved = await updateWorkflow(userId, id, { draft, name: draft.name.trim() || "Untitled workflow" });
    return saved ? { savedAt: saved.updatedAt.toISOString() } : null;
  });
}

/** Saves the draft, then snapshots it as the next immutable version. */
export async function saveVersionAction(
  workflowId: unknown,
  document: unknown,
  message: unknown,
): Promise<ActionResult<VersionItem>> {
  return run("save a version", async (userId) => {
    const id = idSchema.parse(workflowId);
    const draft = workflowSchema.parse(document);
    const msg = messageSchema.parse(message ?? "");
    if (!(await updateWorkflow(userId, id, { draft, name: draft.name.trim() || "Untitled workflow" }))) return null;
    const v = await saveWorkflowVersion(userId, id, msg);
    return v ? { id: v.id, version: v.version, message: v.message, createdAt: v.createdAt.toISOString() } : null;
  });
}

/** The workflow's versions, newest first. */
export async function listVersionsAction(workflowId: unknown): Promise<ActionResult<VersionItem[]>> {
  return run("list versions", async (userId) => {
    const list = await listWorkflowVersions(userId, idSchema.parse(workflowId));
    return (
      list?.map((v) => ({ id: v.id, version: v.version, message: v.message, createdAt: v.createdAt.toISOString() })) ??
      null
    );
  });
}

/** One version's document (for the diff view and restore). */
export async function getVersionAction(workflowId: unknown, versionId: unknown): Promise<ActionResult<Workflow>> {
  return run("load the version", async (userId) => {
    const v = await getWorkflowVersion(userId, idSchema.parse(versionId));
    return v && v.workflowId === idSchema.parse(workflowId) ? v.document : null;
  });
}

/** Restores a version into the draft (the version itself stays as it is); returns the new draft. */
export async function restoreVersionAction(workflowId: unknown, versionId: unknown): Promise<ActionResult<Workflow>> {
  return run("restore the version", async (userId) => {
    const id = idSchema.parse(workflowId);
    const v = await getWorkflowVersion(userId, idSchema.parse(versionId));
    if (!v || v.workflowId !== id) return null;
    const saved = await updateWorkflow(userId, id, {
      draft: v.document,
      name: v.document.name.trim() || "Untitled workflow",
    });
    return saved ? v.document : null;
  });
}
