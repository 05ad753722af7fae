import "server-only";
import { db } from "@/lib/db/client";

/** A workflow's description (kept equal to its draft's) and when it last changed. */
export interface WorkflowDescription {
  id: string;
  description: string;
  updatedAt: Date;
}

/**
 * The owner's workflows' descriptions and update times, most recently updated first, without
 * reading any document: what the designer describes and ranks the workflows it offers by
 * (listSubflowTargets gives their fields).
 */
export async function listWorkflowDescriptions(ownerId: string): Promise<WorkflowDescription[]> {
  return db().workflow.findMany({ where: { ownerId }, orderBy: { updatedAt: "desc" }, select: { id: true, description: true, updatedAt: true } });
}
