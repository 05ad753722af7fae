import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ArrowLeftIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page-header";
import { DeleteWorkflowButton } from "./delete-workflow-button";
import { plural, timeAgo } from "./format";
import { RunFromScript } from "./run-from-script";
import { SchedulesCard } from "./schedules-card";
import type { ScheduleActions, ScheduleRow } from "./schedule-types";
import { WebhooksCard } from "./webhooks-card";
import type { WebhookActions, WebhookRow } from "./webhook-types";
import { NotifiersCard } from "./notifiers-card";
import { RecentRuns } from "./recent-runs";
import type { RunRow } from "@/lib/run-views/dto";
import type { NotifierActions, NotifierRow } from "./notifier-types";
import { exampleRunBody } from "./api-example";
import type { Field } from "@/lib/workflow/schema";

export interface WorkflowOverviewProps {
  workflow: { id: string; name: string; description: string; nodeCount: number; updatedAt: Date; valid: boolean };
  /** The draft's input fields (null while the draft does not parse: no script example then). */
  inputs: Field[] | null;
  versions: { id: string; version: number; message: string; createdAt: Date }[];
  schedules: ScheduleRow[];
  scheduleActions: ScheduleActions;
  webhooks: WebhookRow[];
  webhookActions: WebhookActions;
  notifiers: NotifierRow[];
  /** The workflow's latest runs, newest first. */
  recentRuns: RunRow[];
  notifierActions: NotifierActions;
  /** Server action deleting the workflow (form field `id`). */
  deleteAction: (form: FormData) => Promise<void>;
  /** Whether the member may change the workflow (editor, owner): otherwise no delete, and "View graph". */
  canEdit?: boolean;
}

/** A read-only summary of a workflow: size, draft state, versions and how to run it from a script. */
export function WorkflowOverview({
  workflow,
  inputs,
  versions,
  schedules,
  scheduleActions,
  webhooks,
  webhookActions,
  notifiers,
  notifierActions,
  recentRuns,
  deleteAction,
  canEdit = true,
}: WorkflowOverviewProps) {
  return (
    <div>
      <Link
        href="/workflows"
        className="mb-4 inline-flex items-center gap-1.5 text-sm text-muted hover:text-foreground"
      >
        <ArrowLeftIcon /> Workflows
      </Link>
      <PageHeader
        title={workflow.name}
        description={workflow.description || "No description yet."}
        actions={
          <>
            {canEdit && <DeleteWorkflowButton id={workflow.id} name={workflow.name} action={deleteAction} />}
            <Link href={`/workflows/${workflow.id}/edit`} className={buttonClasses("primary")}>
              {canEdit ? "Open editor" : "View graph"}
            </Link>
          </>
        }
      />
      <div className="grid gap-4 md:grid-cols-3">
        <Card>
          <CardHeader>
            <CardDescription>Nodes</CardDescription>
            <CardTitle className="text-2xl" data-testid="node-count">
              {workflow.nodeCount}
            </CardTitle>
          </CardHeader>
        </Card>
        <Card>
          <CardHeader>
            <CardDescription>Versions</CardDescription>
            <CardTitle className="text-2xl">{versions.length}</CardTitle>
          </CardHeader>
        </Card>
        <Card>
          <CardHeader>
            <CardDescription>Draft</CardDescription>
            <CardTitle className="flex items-center gap-2">
              {workflow.valid ? (
                <Badge tone="success">Well-formed</Badge>
              ) : (
                <Badge tone="warning">Needs attention</Badge>
              )}
              <span className="text-xs font-normal text-muted">edited {timeAgo(workflow.updatedAt)}</span>
            </CardTitle>
          </CardHeader>
        </Card>
      </div>
      <RecentRuns workflowId={workflow.id} runs={recentRuns} />
      <Card className="mt-6">
        <CardHeader>
          <CardTitle>Version history</CardTitle>
          <CardDescription>Saved versions are immutable; runs always point at one.</CardDescription>
        </CardHeader>
        <CardContent>
          {versions.length === 0 ? (
            <p className="text-sm text-muted">No saved versions yet.</p>
          ) : (
            <ul className="divide-y divide-border">
              {versions.map((v) => (
                <li key={v.id} className="flex items-center justify-between py-2 text-sm">
                  <span>
                    <Badge tone="primary">v{v.version}</Badge> <span className="ml-2">{v.message || "—"}</span>
                  </span>
                  <span className="text-muted">{timeAgo(v.createdAt)}</span>
                </li>
              ))}
            </ul>
          )}
          <p className="mt-4 text-xs text-muted">{plural(versions.length, "version")}</p>
        </CardContent>
      </Card>
      <SchedulesCard
        workflowId={workflow.id}
        schedules={schedules}
        hasSavedVersion={versions.length > 0}
        exampleInputs={exampleRunBody(inputs ?? []).inputs}
        actions={scheduleActions}
      />
      <WebhooksCard
        workflowId={workflow.id}
        webhooks={webhooks}
        hasSavedVersion={versions.length > 0}
        fields={inputs ?? []}
        actions={webhookActions}
      />
      <NotifiersCard workflowId={workflow.id} notifiers={notifiers} actions={notifierActions} />
      {inputs && <RunFromScript workflowId={workflow.id} inputs={inputs} />}
    </div>
  );
}
