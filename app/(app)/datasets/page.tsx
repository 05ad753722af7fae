import type { Metadata } from "next";
import Link from "next/link";
import { CreateDatasetForm } from "@/components/evals/create-dataset-form";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/terms/status-badge";
import { requireAccess } from "@/lib/auth/access";
import { listWorkflows } from "@/lib/db/workflows";
import { listDatasets } from "@/lib/evals/datasets";
import { listExperiments } from "@/lib/evals/results";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/input";
import { templatesWithDatasets } from "@/lib/evals/templates";
import { createDatasetAction, createTemplateDatasetAction } from "./actions";

export const metadata: Metadata = { title: "Datasets" };
export const dynamic = "force-dynamic";

/** Datasets (cases to run workflows on) and the latest experiments run over them. */
export default async function DatasetsPage() {
  const access = await requireAccess("read", "/datasets");
  const [datasets, workflows, experiments] = await Promise.all([
    listDatasets(access.workspaceId),
    listWorkflows(access.workspaceId),
    listExperiments(access.workspaceId),
  ]);
  return (
    <>
      <PageHeader
        title="Datasets"
        description="Cases to run your workflows on: run versions over a dataset as an experiment, score them and compare."
      />
      <div className="grid gap-6">
        <CreateDatasetForm
          action={createDatasetAction}
          workflows={workflows.map((w) => ({ id: w.id, name: w.name }))}
        />
        <form
          action={createTemplateDatasetAction}
          className="flex flex-wrap items-center gap-2 text-sm"
          data-testid="dataset-from-template"
        >
          <span className="text-muted">Or start from a template (its workflow and a few cases):</span>
          <Select name="templateId" aria-label="Template" className="h-8 w-56">
            {templatesWithDatasets().map((t) => (
              <option key={t.id} value={t.id}>
                {t.title}
              </option>
            ))}
          </Select>
          <Button type="submit" size="sm" variant="outline">
            New dataset from template
          </Button>
        </form>
        {datasets.length ? (
          <ul className="grid gap-2" data-testid="dataset-list">
            {datasets.map((d) => (
              <li
                key={d.id}
                className="flex flex-wrap items-baseline gap-3 rounded-md border border-border p-3 text-sm"
              >
                <Link href={`/datasets/${d.id}`} className="font-medium underline">
                  {d.name}
                </Link>
                <span className="text-muted">
                  {d.rowCount} rows · version {d.version}
                  {d.workflowName ? ` · ${d.workflowName}` : ""}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState
            title="No datasets yet"
            description="Create one, then import a CSV or JSONL file, or add runs to it from their pages."
          />
        )}
        {experiments.length > 0 && (
          <section className="grid gap-2">
            <h2 className="text-sm font-semibold">Experiments</h2>
            <ul className="grid gap-1 text-sm">
              {experiments.map((x) => (
                <li key={x.id} className="flex flex-wrap items-center gap-2">
                  <StatusBadge status={x.status} />
                  <Link href={`/experiments/${x.id}`} className="underline">
                    {x.name}
                  </Link>
                  <span className="text-xs text-muted">
                    {x.progress.scored}/{x.progress.total} scored · {new Date(x.createdAt).toLocaleString()}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </>
  );
}
