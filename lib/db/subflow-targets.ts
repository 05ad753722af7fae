import "server-only";
import { db } from "@/lib/db/client";
import { workflowSchema, type Field } from "@/lib/workflow/schema";

/**
 * A workflow a subflow node may run, as the editor shows and validates it: what a run of it takes
 * (input fields) and gives back (output keys). Plain JSON, so a page can hand it to the editor.
 */
export interface SubflowTarget {
  id: string;
  name: string;
  /** The newest saved version's number; null while nothing is saved (a subflow cannot run it yet). */
  version: number | null;
  /**
   * The input fields of the newest saved version (what a subflow without a pinned version runs);
   * the draft's while nothing is saved, so its inputs can be mapped before the first save.
   */
  inputs: Pick<Field, "key" | "type" | "required" | "description">[];
  /** The output keys of the same document. */
  outputs: { key: string }[];
  /** The workflow's description (one line of what it does) and when it last changed (ISO): the designer ranks and describes the workflows it offers by them. */
  description: string;
  updatedAt: string;
}

/**
 * The owner's workflows (another user's are never read) with what a subflow node needs of each,
 * by name. One query: each workflow's draft and its newest saved version's document. A document
 * that does not parse gives no fields.
 */
export async function listSubflowTargets(ownerId: string): Promise<SubflowTarget[]> {
  const rows = await db().workflow.findMany({
    where: { ownerId },
    orderBy: [{ name: "asc" }, { createdAt: "asc" }],
    select: { id: true, name: true, description: true, updatedAt: true, draft: true, versions: { select: { version: true, document: true }, orderBy: { version: "desc" }, take: 1 } },
  });
  return rows.map(({ id, name, description, updatedAt, draft, versions }) => {
    const newest = versions[0];
    const doc = workflowSchema.safeParse(newest ? newest.document : draft).data;
    return {
      id,
      name,
      version: newest?.version ?? null,
      inputs: (doc?.inputs ?? []).map(({ key, type, required, description }) => ({ key, type, required, description })),
      outputs: (doc?.outputs ?? []).map(({ key }) => ({ key })),
      description,
      updatedAt: updatedAt.toISOString(),
    };
  });
}
