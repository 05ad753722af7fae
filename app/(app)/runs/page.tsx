import type { Metadata } from "next";
import Link from "next/link";
import { RunsTable } from "@/components/runs/runs-table";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PlayIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccess } from "@/lib/auth/access";
import { listWorkflows } from "@/lib/db/workflows";
import { runStatuses } from "@/lib/engine/events";
import { listRunRows } from "@/lib/run-views/dashboard";
import { runTriggers } from "@/lib/workflow/runs";

export const metadata: Metadata = { title: "Runs" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The address's filter, each value kept only when it names a known status, trigger or one of the user's workflows. */
function filterOf(params: Record<string, string | string[] | undefined>, workflowIds: Set<string>) {
  const one = (k: string) => (typeof params[k] === "string" ? params[k] : undefined);
  const workflow = one("workflow");
  const status = runStatuses.find((s) => s === one("status"));
  const trigger = runTriggers.find((t) => t === one("trigger"));
  return {
    ...(workflow && workflowIds.has(workflow) ? { workflow } : {}),
    ...(status ? { status } : {}),
    ...(trigger ? { trigger } : {}),
  };
}

/** All the user's runs, newest first, live while any is running; `?workflow=&status=&trigger=` filters them. */
export default async function RunsPage({ searchParams }: Props) {
  const access = await requireAccess("read", "/runs");
  const workflows = await listWorkflows(access.workspaceId);
  const filter = filterOf(await searchParams, new Set(workflows.map((w) => w.id)));
  const { runs } = await listRunRows(access.workspaceId, {
    limit: 100,
    workflowId: filter.workflow,
    status: filter.status,
    trigger: filter.trigger,
  });
  const filtered = Object.keys(filter).length > 0;
  return (
    <>
      <PageHeader title="Runs" description="Every execution of your workflows, live and past." />
      {runs.length === 0 && !filtered ? (
        <EmptyState
          icon={<PlayIcon width={20} height={20} />}
          title="No runs yet"
          description="Open a workflow and run it; its steps stream here live."
        >
          <Link href="/workflows" className={buttonClasses("outline")}>
            Go to workflows
          </Link>
        </EmptyState>
      ) : (
        <RunsTable initial={runs} filter={filter} workflows={workflows.map((w) => ({ id: w.id, name: w.name }))} />
      )}
    </>
  );
}
