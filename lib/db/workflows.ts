import "server-only";
import * as z from "zod";
import { db } from "@/lib/db/client";
import { runLimitCeilings } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { checkLimitCeilings } from "@/lib/workflow/limits";
import { workflowSchema, type Field, type Workflow, type WorkflowInput } from "@/lib/workflow/schema";

/** A row of the workflows list. */
export interface WorkflowSummary {
  id: string;
  name: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
  versionCount: number;
  /** Number of nodes in the draft (0 when the draft does not parse). */
  nodeCount: number;
}

/** One workflow: its raw draft (possibly invalid while being edited) and, when it parses, the document. */
export interface WorkflowDetail extends WorkflowSummary {
  draft: unknown;
  document: Workflow | null;
  latestVersion: number | null;
}

/** An immutable saved version (without its document; see getWorkflowVersion). */
export interface WorkflowVersionSummary {
  id: string;
  version: number;
  message: string;
  createdAt: Date;
}

export interface WorkflowVersionDetail extends WorkflowVersionSummary {
  workflowId: string;
  document: Workflow;
}

/**
 * A workflow as scripts see it (GET /api/workflows): what to start and with which inputs. `inputs`
 * are the draft's input fields, which a run started without `version` takes; null while the draft
 * does not parse as a workflow document.
 */
export interface WorkflowApiView {
  id: string;
  name: string;
  description: string;
  updatedAt: Date;
  latestVersion: number | null;
  inputs: Field[] | null;
}

const nameSchema = z.string().trim().min(1, "Enter a name").max(120, "At most 120 characters");
/** A draft is any JSON object; validation of its graph is lib/workflow's job. */
const draftSchema = z.record(z.string(), z.unknown());

export const workflowPatchSchema = z.object({
  name: nameSchema.optional(),
  description: z.string().max(2000).optional(),
  draft: draftSchema.optional(),
});
export type WorkflowPatch = z.infer<typeof workflowPatchSchema>;

/** The document of "New workflow": a start node wired to an end node. */
export function blankWorkflowDocument(name = "Untitled workflow"): Workflow {
  return workflowSchema.parse({
    name,
    nodes: [
      { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 } },
      { id: "end", type: "end", name: "End", position: { x: 320, y: 0 } },
    ],
    edges: [{ id: "e_start_end", source: "start", sourceHandle: "next", target: "end" }],
  });
}

const json = (v: unknown) => v as Prisma.InputJsonValue;
const nodeCount = (draft: unknown): number => {
  const nodes = (draft as { nodes?: unknown } | null)?.nodes;
  return Array.isArray(nodes) ? nodes.length : 0;
};

/** A row of the workflows list: the summary and what starts its runs without anyone (enabled schedules and webhooks). */
export interface WorkflowListItem extends WorkflowSummary {
  schedules: number;
  webhooks: number;
}

/** The owner's workflows, most recently updated first. */
export async function listWorkflows(workspaceId: string): Promise<WorkflowListItem[]> {
  const rows = await db().workflow.findMany({
    where: { workspaceId },
    orderBy: { updatedAt: "desc" },
    select: {
      id: true,
      name: true,
      description: true,
      createdAt: true,
      updatedAt: true,
      draft: true,
      _count: {
        select: { versions: true, schedules: { where: { enabled: true } }, webhooks: { where: { enabled: true } } },
      },
    },
  });
  return rows.map(({ _count, draft, ...r }) => ({
    ...r,
    versionCount: _count.versions,
    nodeCount: nodeCount(draft),
    schedules: _count.schedules,
    webhooks: _count.webhooks,
  }));
}

/** One of the owner's workflows, or null (another user's id looks exactly like a missing one). */
export async function getWorkflow(workspaceId: string, id: string): Promise<WorkflowDetail | null> {
  const row = await db().workflow.findFirst({
    where: { id, workspaceId },
    include: {
      _count: { select: { versions: true } },
      versions: { select: { version: true }, orderBy: { version: "desc" }, take: 1 },
    },
  });
  if (!row) return null;
  const parsed = workflowSchema.safeParse(row.draft);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    versionCount: row._count.versions,
    nodeCount: nodeCount(row.draft),
    draft: row.draft,
    document: parsed.success ? parsed.data : null,
    latestVersion: row.versions[0]?.version ?? null,
  };
}

/** The owner's workflows as scripts see them, most recently updated first. */
export async function listWorkflowApiViews(workspaceId: string): Promise<WorkflowApiView[]> {
  const rows = await db().workflow.findMany({
    where: { workspaceId },
    orderBy: { updatedAt: "desc" },
    select: {
      id: true,
      name: true,
      description: true,
      updatedAt: true,
      draft: true,
      versions: { select: { version: true }, orderBy: { version: "desc" }, take: 1 },
    },
  });
  return rows.map(({ draft, versions, ...r }) => ({
    ...r,
    latestVersion: versions[0]?.version ?? null,
    inputs: workflowSchema.safeParse(draft).data?.inputs ?? null,
  }));
}

/** One workflow as scripts see it. */
export const workflowApiView = ({
  id,
  name,
  description,
  updatedAt,
  latestVersion,
  document,
}: WorkflowDetail): WorkflowApiView => ({
  id,
  name,
  description,
  updatedAt,
  latestVersion,
  inputs: document?.inputs ?? null,
});

/**
 * Refuses a document whose limits are above the server's ceilings (lib/workflow/limits.ts): 422
 * with every such limit in `details.issues`, the first named in the message. A draft that does
 * not parse yet is left to the editor's validation.
 */
export function refuseAboveCeilings(raw: unknown): void {
  const parsed = workflowSchema.safeParse(raw);
  if (!parsed.success) return;
  const issues = checkLimitCeilings(parsed.data, runLimitCeilings());
  if (issues.length === 0) return;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  throw new AppError("invalid_workflow", `${issues[0]!.message}${more}`, { issues });
}

/** Creates a workflow from a document (parsed by lib/workflow's schema); name/description come from it. */
export async function createWorkflow(workspaceId: string, document: WorkflowInput): Promise<WorkflowSummary> {
  const doc = workflowSchema.parse(document);
  refuseAboveCeilings(doc);
  const name = nameSchema.catch("Untitled workflow").parse(doc.name);
  const row = await db().workflow.create({
    data: { workspaceId, name, description: doc.description, draft: json({ ...doc, name }) },
  });
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    versionCount: 0,
    nodeCount: doc.nodes.length,
  };
}

/**
 * Updates the draft and/or name/description; null when not the owner's. A new name or description
 * is also written into the draft so the two never disagree.
 */
export async function updateWorkflow(
  workspaceId: string,
  id: string,
  patch: WorkflowPatch,
): Promise<WorkflowDetail | null> {
  const data = workflowPatchSchema.parse(patch);
  if (data.draft) refuseAboveCeilings(data.draft);
  const current =
    data.draft ?? (await db().workflow.findFirst({ where: { id, workspaceId }, select: { draft: true } }))?.draft;
  if (current === undefined) return null;
  const draft = { ...(draftSchema.safeParse(current).data ?? {}) };
  if (data.name !== undefined) draft.name = data.name;
  if (data.description !== undefined) draft.description = data.description;
  const name = data.name ?? nameSchema.catch("Untitled workflow").parse(draft.name);
  const description = data.description ?? (typeof draft.description === "string" ? draft.description : "");
  const result = await db().workflow.updateMany({
    where: { id, workspaceId },
    data: { name, description, draft: json(draft) },
  });
  return result.count ? getWorkflow(workspaceId, id) : null;
}

/** Deletes the owner's workflow with its versions (and their runs); false when not theirs. */
/** Whether the workflow exists in the workspace. */
export async function isWorkflowOf(workspaceId: string, id: string): Promise<boolean> {
  return (await db().workflow.count({ where: { id, workspaceId } })) === 1;
}

export async function deleteWorkflow(workspaceId: string, id: string): Promise<boolean> {
  const result = await db().workflow.deleteMany({ where: { id, workspaceId } });
  return result.count > 0;
}

/**
 * Snapshots the current draft as the next immutable version (1, 2, …). The draft must parse as a
 * workflow document (else AppError "invalid_workflow"); graph validation is the caller's choice.
 * Null when the workflow is not the owner's.
 */
export async function saveWorkflowVersion(
  workspaceId: string,
  id: string,
  message = "",
): Promise<WorkflowVersionSummary | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const wf = await db().workflow.findFirst({ where: { id, workspaceId }, select: { draft: true } });
    if (!wf) return null;
    const parsed = workflowSchema.safeParse(wf.draft);
    if (!parsed.success)
      throw new AppError("invalid_workflow", "The draft is not a valid workflow document.", parsed.error.issues);
    refuseAboveCeilings(parsed.data);
    const last = await db().workflowVersion.aggregate({ where: { workflowId: id }, _max: { version: true } });
    try {
      return await db().workflowVersion.create({
        data: {
          workflowId: id,
          version: (last._max.version ?? 0) + 1,
          document: json(parsed.data),
          message: message.slice(0, 500),
        },
        select: { id: true, version: true, message: true, createdAt: true },
      });
    } catch (err) {
      const raced = err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
      if (!raced) throw err;
    }
  }
  throw new AppError("conflict", "Could not allocate a version number; try again.");
}

/** The owner's workflow's versions, newest first; null when the workflow is not theirs. */
export async function listWorkflowVersions(workspaceId: string, id: string): Promise<WorkflowVersionSummary[] | null> {
  const wf = await db().workflow.findFirst({
    where: { id, workspaceId },
    select: {
      versions: { select: { id: true, version: true, message: true, createdAt: true }, orderBy: { version: "desc" } },
    },
  });
  return wf?.versions ?? null;
}

/** One saved version with its document, by version id; null when not the owner's. */
export async function getWorkflowVersion(
  workspaceId: string,
  versionId: string,
): Promise<WorkflowVersionDetail | null> {
  const row = await db().workflowVersion.findFirst({ where: { id: versionId, workflow: { workspaceId } } });
  if (!row) return null;
  return {
    id: row.id,
    workflowId: row.workflowId,
    version: row.version,
    message: row.message,
    createdAt: row.createdAt,
    document: workflowSchema.parse(row.document),
  };
}

/** The input fields of the owner's workflow's newest saved version; null when it has none (or is not theirs). */
export async function latestVersionInputs(
  workspaceId: string,
  workflowId: string,
): Promise<{ version: number; inputs: Field[] } | null> {
  const row = await db().workflowVersion.findFirst({
    where: { workflowId, workflow: { workspaceId } },
    orderBy: { version: "desc" },
    select: { version: true, document: true },
  });
  if (!row) return null;
  const parsed = workflowSchema.safeParse(row.document);
  return parsed.success ? { version: row.version, inputs: parsed.data.inputs } : null;
}
