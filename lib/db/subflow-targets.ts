import "server-only";
import { db } from "@/lib/db/client";
import * as z from "zod";
import { fieldSchema, type Field } from "@/lib/workflow/schema";

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
  /**
   * Each saved version where the input fields or output keys changed, with those from that version
   * on (oldest first): what a node pinned to an older version maps and refers to.
   */
  history: { from: number; inputs: SubflowTarget["inputs"]; outputs: { key: string }[] }[];
  /** The workflow's description (one line of what it does) and when it last changed (ISO): the designer ranks and describes the workflows it offers by them. */
  description: string;
  updatedAt: string;
}

/** A document's field list (inputs or outputs) as stored; what does not parse gives none. */
const fieldList = z.array(fieldSchema);
const fieldsOf = (raw: unknown): Field[] => fieldList.safeParse(raw ?? []).data ?? [];

/**
 * The owner's workflows (another user's are never read) with what a subflow node needs of each,
 * by name. One query that reads only the input and output lists of each workflow's newest saved
 * version (its draft's while nothing is saved) and of the versions where they changed, not whole
 * documents: the editor page and every designer request load this list.
 */
export async function listSubflowTargets(workspaceId: string): Promise<SubflowTarget[]> {
  const rows = await db().$queryRaw<
    {
      id: string;
      name: string;
      description: string;
      updatedAt: Date;
      version: number | null;
      inputs: unknown;
      outputs: unknown;
      history: { from: number; inputs: unknown; outputs: unknown }[];
    }[]
  >`
    SELECT w.id, w.name, w.description, w."updatedAt", v.version,
      COALESCE(v.document, w.draft)->'inputs' AS inputs, COALESCE(v.document, w.draft)->'outputs' AS outputs,
      (SELECT COALESCE(jsonb_agg(jsonb_build_object('from', c.version, 'inputs', c.inputs, 'outputs', c.outputs) ORDER BY c.version), '[]'::jsonb)
        FROM (SELECT version, document->'inputs' AS inputs, document->'outputs' AS outputs,
                lag(document->'inputs') OVER (ORDER BY version) AS "prevInputs", lag(document->'outputs') OVER (ORDER BY version) AS "prevOutputs",
                row_number() OVER (ORDER BY version) AS n
              FROM "WorkflowVersion" WHERE "workflowId" = w.id) c
        WHERE c.n = 1 OR c.inputs IS DISTINCT FROM c."prevInputs" OR c.outputs IS DISTINCT FROM c."prevOutputs") AS history
    FROM "Workflow" w
    LEFT JOIN LATERAL (SELECT version, document FROM "WorkflowVersion" WHERE "workflowId" = w.id ORDER BY version DESC LIMIT 1) v ON true
    WHERE w."workspaceId" = ${workspaceId}
    ORDER BY w.name ASC, w."createdAt" ASC`;
  const inputsOf = (raw: unknown) =>
    fieldsOf(raw).map(({ key, type, required, description }) => ({ key, type, required, description }));
  const outputsOf = (raw: unknown) => fieldsOf(raw).map(({ key }) => ({ key }));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    version: r.version,
    inputs: inputsOf(r.inputs),
    outputs: outputsOf(r.outputs),
    history: r.history.map((h) => ({ from: h.from, inputs: inputsOf(h.inputs), outputs: outputsOf(h.outputs) })),
    description: r.description,
    updatedAt: r.updatedAt.toISOString(),
  }));
}
