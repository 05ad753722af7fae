import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ExperimentForm } from "@/components/evals/experiment-form";
import { ImportForm } from "@/components/evals/import-form";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/terms/status-badge";
import { requireAccess } from "@/lib/auth/access";
import { AppError } from "@/lib/errors";
import { experimentVersionOptions, getDataset, workflowFields } from "@/lib/evals/datasets";
import { listExperiments } from "@/lib/evals/results";
import { removeRowAction, startExperimentAction } from "../actions";

export const metadata: Metadata = { title: "Dataset" };
export const dynamic = "force-dynamic";

const brief = (v: unknown) => (v === null || v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v));

/** One dataset: its rows (current version), import, export, and experiments over it. */
export default async function DatasetPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const access = await requireAccess("read", `/datasets/${id}`);
  const dataset = await getDataset(access.workspaceId, id).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "not_found") return null;
    throw err;
  });
  if (!dataset) notFound();
  const [versions, experiments, fields] = await Promise.all([
    experimentVersionOptions(access.workspaceId, dataset.workflowId),
    listExperiments(access.workspaceId, dataset.id),
    dataset.workflowId ? workflowFields(access.workspaceId, dataset.workflowId).catch(() => []) : Promise.resolve([]),
  ]);
  return (
    <>
      <PageHeader
        title={dataset.name}
        description={`${dataset.rowCount} rows · version ${dataset.version}${dataset.workflowName ? ` · inputs of ${dataset.workflowName}` : ""}`}
        actions={
          <>
            <a
              className="text-sm underline"
              href={`/api/datasets/${dataset.id}/export?format=csv`}
              data-testid="dataset-export-csv"
            >
              Export CSV
            </a>
            <a className="text-sm underline" href={`/api/datasets/${dataset.id}/export?format=jsonl`}>
              Export JSONL
            </a>
            <Link href="/datasets" className="text-sm text-muted hover:text-foreground">
              All datasets
            </Link>
          </>
        }
      />
      <div className="grid gap-6">
        {dataset.rows.length ? (
          <div className="overflow-x-auto rounded-md border border-border">
            <table className="w-full text-left text-xs" data-testid="dataset-rows">
              <thead className="bg-surface-2">
                <tr>
                  <th className="p-2">#</th>
                  <th className="p-2">Inputs</th>
                  <th className="p-2">Reference</th>
                  <th className="p-2">Tags</th>
                  <th className="p-2" />
                </tr>
              </thead>
              <tbody>
                {dataset.rows.map((r) => (
                  <tr key={r.id} className="border-t border-border" data-testid="dataset-row">
                    <td className="p-2 text-muted">{r.ordinal}</td>
                    <td className="max-w-96 break-words p-2 font-mono">{brief(r.inputs)}</td>
                    <td className="max-w-96 break-words p-2">{brief(r.reference)}</td>
                    <td className="p-2">
                      {r.tags.join(", ")}
                      {r.sourceRunId && (
                        <>
                          {" "}
                          ·{" "}
                          <Link className="underline" href={`/runs/${r.sourceRunId}`}>
                            run
                          </Link>
                        </>
                      )}
                    </td>
                    <td className="p-2">
                      <form action={removeRowAction}>
                        <input type="hidden" name="datasetId" value={dataset.id} />
                        <input type="hidden" name="rowId" value={r.id} />
                        <Button type="submit" size="sm" variant="ghost">
                          Remove
                        </Button>
                      </form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <EmptyState
            title="No rows yet"
            description="Import a CSV or JSONL file below, or open a run and add it to this dataset."
          />
        )}
        <ImportForm datasetId={dataset.id} columns={fields.map((f) => f.key)} />
        {dataset.rows.length > 0 && (
          <ExperimentForm action={startExperimentAction} datasetId={dataset.id} versions={versions} />
        )}
        {experiments.length > 0 && (
          <section className="grid gap-2">
            <h2 className="text-sm font-semibold">Experiments on this dataset</h2>
            <ul className="grid gap-1 text-sm">
              {experiments.map((x) => (
                <li key={x.id} className="flex flex-wrap items-center gap-2">
                  <StatusBadge status={x.status} />
                  <Link href={`/experiments/${x.id}`} className="underline">
                    {x.name}
                  </Link>
                  <span className="text-xs text-muted">
                    {x.progress.scored}/{x.progress.total} scored
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
