"use client";
import { parseMapItemsId } from "@/lib/workflow/map";
import Link from "next/link";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { StatusBadge } from "@/components/terms/status-badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { estimateCost } from "@/lib/run-views/cost";
import { formatCost, formatDuration } from "./cost";
import { FieldsView } from "./json-view";
import { RawEvents } from "./raw-events";
import { ForkDialog } from "./fork-dialog";
import { RunActions } from "./run-actions";
import { RunLineage } from "./run-lineage";
import { ReviewCard } from "./review-card";
import {
  isFinished,
  liveTextOf,
  mapItemSteps,
  nodeOverlay,
  orderedSteps,
  retryPreview,
  runUsage,
  stepKey,
  subflowSteps,
  waitingReviews,
  type StepState,
} from "./run-fold";
import { RunGraph } from "./run-graph";
import { RunTimeline } from "./run-timeline";
import { StepInspector } from "./step-inspector";
import { startedSubflowTargets, SubflowRuns } from "./subflow-runs";
import { SubflowTargetsProvider } from "@/components/editor/subflow-targets-context";
import { describeTrigger } from "./trigger";
import { deliveryEventLabel, describeDelivery } from "@/components/workflows/notifier-types";
import type { DashboardProps } from "./types";
import { useRunEvents, type LiveState } from "./use-run-events";

const LIVE_LABEL: Record<LiveState, string> = {
  connecting: "connecting…",
  live: "live",
  reconnecting: "reconnecting…",
  ended: "complete",
  revoked: "link revoked",
  closed: "disconnected",
};

/** A map's item steps as the timeline and the inspector name them: "<map name> · items". */
function itemsName(id: string, names: ReadonlyMap<string, string>): string {
  const parsed = parseMapItemsId(id);
  if (!parsed) return id;
  return `${names.get(parsed.mapId) ?? parsed.mapId} · items${parsed.visit > 1 ? ` (visit ${parsed.visit})` : ""}`;
}

function Stat({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div className="grid gap-0.5">
      <span className="text-xs text-muted">{label}</span>
      <span className="text-sm font-medium tabular-nums" data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

/** Ticks every `ms` while `on` (running bars and durations grow). */
function useNow(on: boolean, ms = 500): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [on, ms]);
  return now;
}

/**
 * A run's dashboard (owner and share views): status and totals, the read-only graph with live node
 * status, the timeline, the step inspector, inputs/outputs and the raw event log, all folded from
 * the run's SSE stream. The owner view adds cancel / re-run / retry / share in the header and
 * answers waiting human reviews (ReviewCard; a share viewer sees their questions only) and links to
 * the runs its subflow steps started (SubflowRuns; a share viewer sees the workflows' names only).
 */
export function RunDashboard(props: DashboardProps) {
  const { run, doc, steps, eventsUrl, shareUrl, prices, mode, notifications, subflowNames, lineage } = props;
  const { state, live } = useRunEvents({ url: eventsUrl, run, steps, checkUrl: shareUrl });
  const [selected, setSelected] = useState<string | null>(null);
  const [forking, setForking] = useState<StepState | null>(null);
  const running = !isFinished(state.status) && live !== "revoked";
  const now = useNow(running);
  const nodeIds = useMemo(() => doc?.nodes.map((n) => n.id) ?? [], [doc]);
  const names = useMemo(() => new Map(doc?.nodes.map((n) => [n.id, n.name || n.id]) ?? []), [doc]);
  const nodeName = (id: string) => names.get(id) ?? itemsName(id, names);
  // The fold mutates in place; state.version changes with every applied event.
  const overlay = useMemo(() => nodeOverlay(state, nodeIds), [state, state.version, nodeIds]); // eslint-disable-line react-hooks/exhaustive-deps
  const ordered = orderedSteps(state);
  const reviews = isFinished(state.status) ? [] : waitingReviews(state);
  const subflows = subflowSteps(state);
  // the workflows its subflow steps started, and those the document names, name the canvas's subflow nodes (owner view); the same object until one starts
  const subflowKey =
    mode === "owner" ? subflows.map((s) => `${s.subflow.workflowId}:${s.subflow.workflowName}`).join("|") : "";
  const knownSubflows = useMemo(
    () => (mode === "owner" ? startedSubflowTargets(subflows, subflowNames) : undefined),
    // keyed by what the targets are made of
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [mode, subflowKey, subflowNames],
  );
  const cost = estimateCost(prices, runUsage(state));
  const started = state.startedAt ? Date.parse(state.startedAt) : null;
  const duration = started === null ? null : (state.finishedAt ? Date.parse(state.finishedAt) : now) - started;
  const showContent = mode === "owner" || props.includeContent === true;
  const current = selected ? (state.steps.get(selected) ?? null) : null;
  const selectNode = (nodeId: string) => {
    const latest = ordered.filter((s) => s.nodeId === nodeId).at(-1);
    setSelected(latest?.key ?? stepKey(nodeId, 1));
  };

  return (
    <div className="grid gap-6" data-testid="run-dashboard" data-status={state.status} data-live={live}>
      {live === "revoked" && (
        <p
          role="alert"
          className="rounded-md border border-danger/30 bg-danger/10 p-3 text-sm text-danger"
          data-testid="share-revoked"
        >
          This link was revoked or has expired; the run is no longer shared.
        </p>
      )}
      <Card>
        <CardContent className="flex flex-wrap items-center gap-x-8 gap-y-3 pt-5">
          <div className="flex items-center gap-2">
            <StatusBadge status={state.status} testId="run-status" />
            <span className="text-xs text-muted" data-testid="run-live">
              {LIVE_LABEL[live]}
            </span>
          </div>
          <Stat label="Workflow" value={`${run.workflowName} · v${run.version}`} />
          <Stat label="Started" value={state.startedAt ? new Date(state.startedAt).toLocaleString() : "—"} />
          <Stat
            label="Trigger"
            testId="run-trigger"
            value={
              ["rerun", "subflow", "retry", "fork"].includes(run.trigger) && run.triggerLabel ? (
                <Link href={`/runs/${run.triggerLabel}`} className="underline">
                  {describeTrigger(run.trigger, run.triggerLabel)}
                </Link>
              ) : (
                describeTrigger(run.trigger, run.triggerLabel)
              )
            }
          />
          <Stat label="Duration" value={formatDuration(duration)} testId="run-duration" />
          <Stat label="Steps" value={ordered.filter((s) => s.startedAt).length} testId="run-steps" />
          <Stat label="Tokens" value={`${state.promptTokens + state.completionTokens}`} testId="run-tokens" />
          {prices && <Stat label="Est. cost" value={formatCost(cost)} testId="run-cost" />}
          {mode === "owner" && (
            <div className="ml-auto flex flex-wrap gap-2">
              <RunActions
                runId={run.id}
                status={state.status}
                retryPreview={retryPreview(ordered, nodeName, run.version)}
              />
            </div>
          )}
          {state.reason && (
            <p className="basis-full text-sm text-muted" data-testid="run-reason">
              {state.reason}
            </p>
          )}
        </CardContent>
      </Card>

      {mode === "owner" && lineage && <RunLineage runId={run.id} lineage={lineage} nodeName={nodeName} />}
      {reviews.length > 0 && (
        <ReviewCard runId={run.id} reviews={reviews} nodeName={nodeName} canAnswer={mode === "owner"} />
      )}
      {subflows.length > 0 && <SubflowRuns steps={subflows} nodeName={nodeName} link={mode === "owner"} />}

      {doc ? (
        <div
          onClick={(e) => {
            const el = (e.target as HTMLElement).closest("[data-testid^='node-']");
            const id = el?.getAttribute("data-testid")?.slice(5);
            if (id && names.has(id)) selectNode(id);
          }}
        >
          <SubflowTargetsProvider value={knownSubflows}>
            <RunGraph doc={doc} overlay={overlay} />
          </SubflowTargetsProvider>
        </div>
      ) : (
        <p className="text-sm text-muted">The workflow version of this run could not be read.</p>
      )}

      <div className="grid gap-6 xl:grid-cols-[3fr_2fr]">
        <Card className="content-start">
          <CardHeader>
            <CardTitle>Timeline</CardTitle>
          </CardHeader>
          <CardContent>
            <RunTimeline
              steps={ordered}
              nodeOrder={nodeIds}
              nodeName={nodeName}
              now={now}
              selected={selected}
              onSelect={setSelected}
            />
            {state.loops.length > 0 && (
              <ul className="mt-3 grid gap-0.5 text-xs text-muted" data-testid="loop-notes">
                {state.loops.map((l, i) => (
                  <li key={i}>{l.text}</li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <Card className="content-start">
          <CardHeader>
            <CardTitle>Step</CardTitle>
          </CardHeader>
          <CardContent>
            <StepInspector
              step={current}
              nodeName={nodeName}
              prices={prices}
              showContent={showContent}
              linkRuns={mode === "owner"}
              items={current ? mapItemSteps(state, current) : []}
              onSelect={setSelected}
              liveText={current ? liveTextOf(state, current) : null}
              {...(mode === "owner" && isFinished(state.status) ? { onFork: setForking } : {})}
            />
            {forking && (
              <ForkDialog
                runId={run.id}
                step={forking}
                doc={doc}
                version={run.version}
                nodeName={nodeName}
                onClose={() => setForking(null)}
              />
            )}
          </CardContent>
        </Card>
      </div>

      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Inputs</CardTitle>
          </CardHeader>
          <CardContent>
            {showContent ? (
              <FieldsView value={state.inputs ?? {}} testId="run-inputs" />
            ) : (
              <p className="text-sm text-muted">Not shared.</p>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Outputs</CardTitle>
          </CardHeader>
          <CardContent>
            {showContent ? (
              <FieldsView value={state.outputs ?? undefined} testId="run-outputs" />
            ) : (
              <p className="text-sm text-muted">Not shared.</p>
            )}
          </CardContent>
        </Card>
      </div>
      {notifications && notifications.length > 0 && (
        <Card>
          <CardHeader>
            <CardTitle>Notifications</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-1 text-sm" data-testid="run-notifications">
              {notifications.map((n) => (
                <li key={n.id} className="flex flex-wrap gap-x-3">
                  <span className="text-xs font-medium">{deliveryEventLabel(n.event)}</span>
                  <code className="break-all font-mono text-xs">{n.url}</code>
                  <span className={n.status === "failed" ? "text-xs text-danger" : "text-xs text-muted"}>
                    {describeDelivery(n)}
                  </span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      )}
      <details className="rounded-lg border border-border bg-surface p-4">
        <summary className="cursor-pointer text-sm font-semibold">Raw events ({state.events.length})</summary>
        <div className="mt-3">
          <RawEvents events={state.events} />
        </div>
      </details>
    </div>
  );
}
