import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunDashboard } from "@/components/runs/run-dashboard";
import { graphToWorkflow } from "@/components/runs/to-props";
import { getSharedRun } from "@/lib/run-views/share";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Shared run", referrer: "no-referrer", robots: { index: false, follow: false } };

/**
 * A shared run, read-only and live, for anyone with the link (no account). Only the allow-listed DTO
 * of lib/run-views/share-dto reaches the page; unknown, revoked and expired links are 404.
 */
export default async function SharedRunPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const shared = await getSharedRun(token);
  if (!shared) notFound();
  const { run, graph, steps, includeContent, expiresAt } = shared;
  return (
    <main className="mx-auto grid w-full max-w-7xl gap-4 px-4 py-6">
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <div>
          <h1 className="text-xl font-semibold tracking-tight">Shared run · {run.workflowName}</h1>
          <p className="text-xs text-muted">Read-only{includeContent ? "" : ", prompts and outputs hidden"} · link expires {new Date(expiresAt).toUTCString()}</p>
        </div>
        <span className="text-xs text-muted">Weft</span>
      </header>
      <RunDashboard
        mode="share"
        run={run}
        doc={graphToWorkflow(graph)}
        steps={steps}
        eventsUrl={`/api/share/${token}/events`}
        shareUrl={`/api/share/${token}`}
        includeContent={includeContent}
      />
    </main>
  );
}
