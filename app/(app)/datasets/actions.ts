"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import * as z from "zod";
import { requireAccess } from "@/lib/auth/access";
import { AppError } from "@/lib/errors";
import { addRunToDataset, createDataset, datasetInputSchema, removeRow } from "@/lib/evals/datasets";
import type { EvalActionResult, RowErrorView } from "@/lib/evals/dto";
import { cancelExperiment, createExperiment } from "@/lib/evals/experiments";
import { createTemplateDataset } from "@/lib/evals/templates";
import { createLogger } from "@/lib/logger";
import { workspaceModels } from "../workflows/templates";

const log = createLogger({ component: "dataset-actions" });
const id = z.string().trim().min(1).max(100);

const failure = (err: unknown, what: string): EvalActionResult => {
  if (err instanceof AppError) {
    const details = err.details as { errors?: RowErrorView[]; errorCount?: number } | undefined;
    return {
      status: "error",
      message: err.message,
      ...(details?.errors ? { rowErrors: details.errors, errorCount: details.errorCount } : {}),
    };
  }
  if (err instanceof z.ZodError)
    return {
      status: "error",
      message: err.issues.map((i) => `${i.path.join(".") || "value"}: ${i.message}`).join("; "),
    };
  log.error(`${what} failed`, { error: err instanceof Error ? err.message : String(err) });
  return { status: "error", message: `${what} failed. Try again.` };
};

/** Creates a dataset (name, optional workflow and description) and opens it. */
export async function createDatasetAction(_prev: EvalActionResult, form: FormData): Promise<EvalActionResult> {
  const access = await requireAccess("edit");
  const parsed = datasetInputSchema.safeParse({
    name: form.get("name") ?? "",
    description: form.get("description") ?? "",
    workflowId: (form.get("workflowId") as string | null) || undefined,
  });
  if (!parsed.success) return { status: "error", message: parsed.error.issues[0]?.message ?? "Check the form." };
  let created: string;
  try {
    created = (await createDataset(access.workspaceId, parsed.data)).id;
  } catch (err) {
    return failure(err, "Creating the dataset");
  }
  revalidatePath("/datasets");
  redirect(`/datasets/${created}`);
}

/** Removes one row from the dataset's next version. */
export async function removeRowAction(form: FormData): Promise<void> {
  const access = await requireAccess("edit");
  const [datasetId, rowId] = [id.safeParse(form.get("datasetId")), id.safeParse(form.get("rowId"))];
  if (!datasetId.success || !rowId.success) return;
  await removeRow(access.workspaceId, datasetId.data, rowId.data).catch(() => undefined);
  revalidatePath(`/datasets/${datasetId.data}`);
}

/** Adds a run (its inputs, its outputs as the reference) to one of the user's datasets. */
export async function addRunToDatasetAction(_prev: EvalActionResult, form: FormData): Promise<EvalActionResult> {
  const access = await requireAccess("edit");
  const [datasetId, runId] = [id.safeParse(form.get("datasetId")), id.safeParse(form.get("runId"))];
  if (!datasetId.success || !runId.success) return { status: "error", message: "Choose a dataset." };
  try {
    const { version } = await addRunToDataset(access.workspaceId, datasetId.data, runId.data);
    revalidatePath(`/datasets/${datasetId.data}`);
    return { status: "ok", message: `Added to the dataset (version ${version}).` };
  } catch (err) {
    return failure(err, "Adding the run");
  }
}

/** Starts an experiment on the dataset: the versions ticked ("workflowId:version"), the evaluators (JSON), the concurrency. */
export async function startExperimentAction(_prev: EvalActionResult, form: FormData): Promise<EvalActionResult> {
  const access = await requireAccess("run");
  const variants = form
    .getAll("variant")
    .map(String)
    .map((v) => {
      const at = v.lastIndexOf(":");
      return { workflowId: v.slice(0, at), version: Number(v.slice(at + 1)) };
    });
  if (!variants.length) return { status: "error", message: "Tick at least one version." };
  let evaluators: unknown;
  try {
    evaluators = JSON.parse(String(form.get("evaluators") ?? ""));
  } catch {
    return { status: "error", message: "The evaluators are not valid JSON." };
  }
  let started: string;
  try {
    started = (
      await createExperiment(access.workspaceId, {
        datasetId: String(form.get("datasetId") ?? ""),
        name: String(form.get("name") ?? "") || undefined,
        variants,
        evaluators: evaluators as never,
        concurrency: Number(form.get("concurrency") ?? 4),
      })
    ).id;
  } catch (err) {
    return failure(err, "Starting the experiment");
  }
  redirect(`/experiments/${started}`);
}

/** Cancels one of the user's experiments (finished rows stay scored). */
export async function cancelExperimentAction(form: FormData): Promise<void> {
  const access = await requireAccess("run");
  const experimentId = id.safeParse(form.get("experimentId"));
  if (!experimentId.success) return;
  await cancelExperiment(access.workspaceId, experimentId.data).catch(() => undefined);
  revalidatePath(`/experiments/${experimentId.data}`);
}

/** Creates a template's workflow and its dataset (the offline demo's way to a first experiment), then opens the dataset. */
export async function createTemplateDatasetAction(form: FormData): Promise<void> {
  const access = await requireAccess("edit");
  const templateId = id.safeParse(form.get("templateId"));
  if (!templateId.success) return;
  const { datasetId } = await createTemplateDataset(
    access.workspaceId,
    templateId.data,
    await workspaceModels(access.workspaceId),
  );
  revalidatePath("/datasets");
  redirect(`/datasets/${datasetId}`);
}
