import type { Metadata } from "next";
import Link from "next/link";
import { RunsTable } from "@/components/runs/runs-table";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PlayIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/session";
import { listWorkflows } from "@/lib/db/workflows";
import { listRunRows } from "@/lib/runs/dashboard";

export const metadata: Metadata = { title: "Runs" };
export const dynamic = "force-dynamic";

/** All the user's runs, newest first, live while any is running. */
export default async function RunsPage() {
  const user = await requireUser("/runs");
  const [{ runs }, workflows] = await Promise.all([listRunRows(user.id, { limit: 100 }), listWorkflows(user.id)]);
  return (
    <>
      <PageHeader title="Runs" description="Every execution of your workflows, live and past." />
      {runs.length === 0 ? (
        <EmptyState icon={<PlayIcon width={20} height={20} />} title="No runs yet" description="Open a workflow and run it; its steps stream here live.">
          <Link href="/workflows" className={buttonClasses("outline")}>Go to workflows</Link>
        </EmptyState>
      ) : (
        <RunsTable initial={runs} workflows={workflows.map((w) => ({ id: w.id, name: w.name }))} />
      )}
    </>
  );
}
