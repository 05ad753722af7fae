import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { RunDashboard } from "@/components/runs/run-dashboard";
import { ArrowLeftIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccess } from "@/lib/auth/access";
import { AppError } from "@/lib/errors";
import { deliveriesOfRun } from "@/lib/db/deliveries";
import { getRunDashboard, type RunDashboard as Dashboard } from "@/lib/run-views/dashboard";
import { runInfoView, stepView, type StepView } from "@/lib/run-views/dto";
import { runLineage } from "@/lib/run-views/lineage";
import { AddToDataset } from "@/components/evals/add-to-dataset";
import { datasetNames } from "@/lib/evals/datasets";
import { addRunToDatasetAction } from "../../datasets/actions";

export const metadata: Metadata = { title: "Run" };
export const dynamic = "force-dynamic";

async function load(userId: string, id: string): Promise<Dashboard | null> {
  try {
    return await getRunDashboard(userId, id);
  } catch (err) {
    if (err instanceof AppError && err.code === "not_found") return null;
    throw err;
  }
}

/** One of the user's runs, live: graph, timeline, step inspector, events; another user's run is a 404. */
export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const access = await requireAccess("read", `/runs/${id}`);
  const data = await load(access.workspaceId, id);
  if (!data) notFound();
  const { run, doc, prices, subflowNames } = data;
  const [notifications, lineage, datasets] = await Promise.all([
    deliveriesOfRun(access.workspaceId, run.id),
    runLineage(access.workspaceId, run.id),
    datasetNames(access.workspaceId),
  ]);
  const steps: StepView[] = run.steps.map((s) => ({
    ...stepView(s),
    input: s.input ?? undefined,
    output: s.output ?? undefined,
  }));
  return (
    <>
      <PageHeader
        title={`Run of ${run.workflowName}`}
        description={<span className="font-mono text-xs">{run.id}</span>}
        actions={
          <>
            <AddToDataset action={addRunToDatasetAction} runId={run.id} datasets={datasets} />
            <Link href="/runs" className="inline-flex items-center gap-1 text-sm text-muted hover:text-foreground">
              <ArrowLeftIcon width={14} height={14} /> All runs
            </Link>
          </>
        }
      />
      <RunDashboard
        mode="owner"
        run={{
          ...runInfoView(run),
          triggerLabel: run.triggerLabel,
          inputs: run.inputs ?? {},
          outputs: run.outputs ?? undefined,
        }}
        doc={doc}
        steps={steps}
        eventsUrl={`/api/runs/${run.id}/events`}
        prices={prices}
        notifications={notifications}
        subflowNames={subflowNames}
        {...(lineage ? { lineage } : {})}
      />
    </>
  );
}
