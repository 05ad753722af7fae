import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { RunDashboard } from "@/components/runs/run-dashboard";
import type { InitialStep } from "@/components/runs/types";
import { ArrowLeftIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { getRunDashboard, type RunDashboard as Dashboard } from "@/lib/runs/dashboard";

export const metadata: Metadata = { title: "Run" };
export const dynamic = "force-dynamic";

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

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
  const user = await requireUser(`/runs/${id}`);
  const data = await load(user.id, id);
  if (!data) notFound();
  const { run, doc, prices } = data;
  const steps: InitialStep[] = run.steps.map((s) => ({
    nodeId: s.nodeId, iteration: s.iteration, attempt: s.attempt, status: s.status, branch: s.branch, promptTokens: s.promptTokens,
    completionTokens: s.completionTokens, latencyMs: s.latencyMs, error: s.error, startedAt: iso(s.startedAt), finishedAt: iso(s.finishedAt),
    input: s.input ?? undefined, output: s.output ?? undefined,
  }));
  return (
    <>
      <PageHeader
        title={`Run of ${run.workflowName}`}
        description={<span className="font-mono text-xs">{run.id}</span>}
        actions={
          <Link href="/runs" className="inline-flex items-center gap-1 text-sm text-muted hover:text-foreground">
            <ArrowLeftIcon width={14} height={14} /> All runs
          </Link>
        }
      />
      <RunDashboard
        mode="owner"
        run={{
          id: run.id, status: run.status, reason: run.reason, workflowName: run.workflowName, version: run.version, promptTokens: run.promptTokens,
          completionTokens: run.completionTokens, createdAt: run.createdAt.toISOString(), startedAt: iso(run.startedAt), finishedAt: iso(run.finishedAt),
          inputs: run.inputs ?? {}, outputs: run.outputs ?? undefined,
        }}
        doc={doc}
        steps={steps}
        eventsUrl={`/api/runs/${run.id}/events`}
        prices={prices}
      />
    </>
  );
}
