import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PlusIcon, WorkflowIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page-header";
import { WorkflowList } from "@/components/workflows/workflow-list";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { TemplatePicker } from "@/components/workflows/template-picker";
import { requireAccess } from "@/lib/auth/access";
import { listWorkflows } from "@/lib/db/workflows";
import { createWorkflowAction } from "./actions";
import { templateOptions } from "./templates";

export const metadata: Metadata = { title: "Workflows" };

export default async function WorkflowsPage() {
  const access = await requireAccess("read", "/workflows");
  const workflows = await listWorkflows(access.workspaceId);
  const templates = templateOptions();
  return (
    <>
      <PageHeader
        title="Workflows"
        description="Multi-agent systems you design, version and run."
        actions={
          <Link href="/workflows/new" className={buttonClasses("primary", "md")} data-testid="new-workflow">
            <PlusIcon /> New workflow
          </Link>
        }
      />
      {workflows.length ? (
        <>
          <WorkflowList workflows={workflows} />
          <section aria-labelledby="templates-heading" className="mt-10">
            <h2 id="templates-heading" className="mb-3 text-sm font-semibold">
              Start from a pattern
            </h2>
            <TemplatePicker templates={templates} action={createWorkflowAction} />
          </section>
        </>
      ) : (
        <EmptyState
          icon={<WorkflowIcon width={20} height={20} />}
          title="No workflows yet"
          description="Describe the system you want in plain language (New workflow), or start from a pattern template or a blank canvas."
        >
          <TemplatePicker templates={templates} action={createWorkflowAction} />
        </EmptyState>
      )}
    </>
  );
}
