import "server-only";
import { db } from "@/lib/db/client";
import { createWorkflow, saveWorkflowVersion } from "@/lib/db/workflows";
import { notFound } from "@/lib/errors";
import { templateDatasets } from "@/lib/workflow/template-datasets";
import { instantiateTemplate, workflowTemplates } from "@/lib/workflow/templates";
import type { ModelRef } from "@/lib/workflow/schema";
import { addRows, createDataset } from "./datasets";

/** The templates that ship a dataset: id and title, for the Datasets page's choice. */
export const templatesWithDatasets = (): { id: string; title: string }[] =>
  workflowTemplates.filter((t) => t.id in templateDatasets).map((t) => ({ id: t.id, title: t.title }));

/**
 * Creates a template's workflow (saved as version 1) and its dataset (version 1 with the template's
 * cases), so a new user can run an experiment on the offline demo at once. `models`: the user's
 * configured models, as "New workflow" gives them. A name already taken gets a number.
 */
export async function createTemplateDataset(
  workspaceId: string,
  templateId: string,
  models: readonly ModelRef[] = [],
): Promise<{ datasetId: string; workflowId: string }> {
  const set = templateDatasets[templateId];
  const doc = instantiateTemplate(templateId, models);
  if (!set || !doc) throw notFound("No such template");
  const workflow = await createWorkflow(workspaceId, doc);
  await saveWorkflowVersion(workspaceId, workflow.id, "From the template");
  const taken = new Set(
    (
      await db().dataset.findMany({ where: { workspaceId, name: { startsWith: set.name } }, select: { name: true } })
    ).map((d) => d.name),
  );
  let name = set.name;
  for (let n = 2; taken.has(name); n++) name = `${set.name} ${n}`;
  const { id } = await createDataset(workspaceId, {
    name,
    workflowId: workflow.id,
    description: `The cases of the "${doc.name}" template.`,
  });
  await addRows(
    workspaceId,
    id,
    set.cases.map((c) => ({
      inputs: c.inputs,
      tags: c.tags,
      ...(c.reference !== undefined ? { reference: c.reference } : {}),
    })),
  );
  return { datasetId: id, workflowId: workflow.id };
}
