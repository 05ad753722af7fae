import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Logo } from "@/components/layout/logo";
import { ThemeToggle } from "@/components/layout/theme-toggle";
import { RunDashboard } from "@/components/runs/run-dashboard";
import { PageHeader } from "@/components/ui/page-header";
import { graphToWorkflow } from "@/components/runs/to-props";
import { getSharedRun } from "@/lib/run-views/share";

export const dynamic = "force-dynamic";
export const metadata: Metadata = {
  title: "Shared run",
  referrer: "no-referrer",
  robots: { index: false, follow: false },
};

/**
 * A shared run, read-only and live, for anyone with the link (no account): the app's look (its bar,
 * page header and the owner's dashboard in share mode, so both say the same words). Only the
 * allow-listed DTO of lib/run-views/share-dto reaches the page; unknown, revoked and expired links are 404.
 */
export default async function SharedRunPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const shared = await getSharedRun(token);
  if (!shared) notFound();
  const { run, graph, steps, includeContent, expiresAt } = shared;
  return (
    <div className="min-h-dvh">
      <header className="sticky top-0 z-40 border-b border-border bg-background/80 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-4 sm:px-6">
          {/* the viewer has no account: the mark names the product, it links nowhere inside it */}
          <Logo href={`/share/${token}`} />
          <span
            className="rounded-full border border-border bg-surface-2 px-2.5 py-0.5 text-xs font-medium text-muted"
            data-testid="share-badge"
          >
            Shared run · read-only
          </span>
          <div className="ml-auto">
            <ThemeToggle />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <PageHeader
          title={`Run of ${run.workflowName}`}
          description={
            <>
              {includeContent ? "Prompts and outputs included" : "Prompts and outputs hidden"} · link expires{" "}
              <time dateTime={expiresAt}>{new Date(expiresAt).toUTCString()}</time>
            </>
          }
        />
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
    </div>
  );
}
