import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { WorkflowOverview } from "@/components/workflows/workflow-overview";
import { requireAccess } from "@/lib/auth/access";
import { allows } from "@/lib/roles";
import { getWorkflow, listWorkflowVersions } from "@/lib/db/workflows";
import { schedulesOf } from "@/lib/schedules/service";
import { webhooksOf } from "@/lib/webhooks/service";
import { notifiersOf } from "@/lib/notifications/service";
import { listRunRows } from "@/lib/run-views/dashboard";
import { RECENT_RUNS } from "@/components/workflows/recent-runs";
import { deleteWorkflowAction } from "../actions";
import { deleteScheduleAction, pauseScheduleAction, saveScheduleAction } from "./schedule-actions";
import {
  createWebhookAction,
  deleteWebhookAction,
  pauseWebhookAction,
  rotateWebhookAction,
  updateWebhookAction,
} from "./webhook-actions";
import {
  createNotifierAction,
  deleteNotifierAction,
  pauseNotifierAction,
  pingNotifierAction,
  redeliverAction,
  updateNotifierAction,
} from "./notifier-actions";

const scheduleActions = { save: saveScheduleAction, pause: pauseScheduleAction, remove: deleteScheduleAction };
const webhookActions = {
  create: createWebhookAction,
  update: updateWebhookAction,
  pause: pauseWebhookAction,
  rotate: rotateWebhookAction,
  remove: deleteWebhookAction,
};
const notifierActions = {
  create: createNotifierAction,
  update: updateNotifierAction,
  ping: pingNotifierAction,
  pause: pauseNotifierAction,
  redeliver: redeliverAction,
  remove: deleteNotifierAction,
};

type Props = { params: Promise<{ id: string }> };

export const metadata: Metadata = { title: "Workflow" };

/** One workflow, loaded through lib/db scoped by the user: another user's id is a 404. */
export default async function WorkflowPage({ params }: Props) {
  const { id } = await params;
  const access = await requireAccess("read", `/workflows/${id}`);
  const [workflow, versions, schedules, webhooks, notifiers, recent] = await Promise.all([
    getWorkflow(access.workspaceId, id),
    listWorkflowVersions(access.workspaceId, id),
    schedulesOf(access.workspaceId, id),
    webhooksOf(access.workspaceId, id),
    notifiersOf(access.workspaceId, id),
    listRunRows(access.workspaceId, { workflowId: id, limit: RECENT_RUNS }),
  ]);
  if (!workflow || !versions) notFound();
  return (
    <WorkflowOverview
      workflow={{ ...workflow, valid: workflow.document !== null }}
      inputs={workflow.document?.inputs ?? null}
      versions={versions}
      schedules={schedules}
      scheduleActions={scheduleActions}
      webhooks={webhooks}
      webhookActions={webhookActions}
      notifiers={notifiers}
      recentRuns={recent.runs}
      notifierActions={notifierActions}
      deleteAction={deleteWorkflowAction}
      canEdit={allows(access.role, "edit")}
    />
  );
}
