import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AutoRefresh } from "@/components/evals/auto-refresh";
import { ExperimentResults } from "@/components/evals/experiment-results";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccess } from "@/lib/auth/access";
import { AppError } from "@/lib/errors";
import { getExperiment } from "@/lib/evals/results";
import { cancelExperimentAction } from "../../datasets/actions";

export const metadata: Metadata = { title: "Experiment" };
export const dynamic = "force-dynamic";

/** One experiment's results, refreshed while it runs; another user's is a 404. */
export default async function ExperimentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const access = await requireAccess("read", `/experiments/${id}`);
  const experiment = await getExperiment(access.workspaceId, id).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "not_found") return null;
    throw err;
  });
  if (!experiment) notFound();
  const going = experiment.status === "queued" || experiment.status === "running";
  return (
    <>
      <PageHeader
        title={experiment.name}
        description={`Evaluators: ${experiment.evaluators.map((e) => `${e.name} (${e.kind}, weight ${e.weight}, pass ≥ ${e.threshold})`).join(", ")}`}
        actions={
          <>
            {going && !experiment.cancelRequested && (
              <form action={cancelExperimentAction}>
                <input type="hidden" name="experimentId" value={experiment.id} />
                <Button type="submit" variant="outline" size="sm" data-testid="experiment-cancel">
                  Cancel
                </Button>
              </form>
            )}
            <Link href={`/datasets/${experiment.datasetId}`} className="text-sm text-muted hover:text-foreground">
              Dataset
            </Link>
          </>
        }
      />
      <AutoRefresh active={going} />
      <ExperimentResults experiment={experiment} />
    </>
  );
}
