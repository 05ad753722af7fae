"use client";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Select } from "@/components/ui/input";
import type { RunRow } from "@/lib/run-views/dto";
import { runTriggers } from "@/lib/workflow/runs";
import { formatCost, formatDuration } from "./cost";
import { StatusBadge } from "@/components/terms/status-badge";
import { describeTrigger, TRIGGER_NAMES } from "./trigger";

const STATUSES = ["queued", "running", "waiting", "succeeded", "failed", "aborted", "budget_exhausted", "cancelled"];
const POLL_MS = 2_000;

/** The runs page's filter as its address gives it (`?workflow=&status=&trigger=`). */
export interface RunsFilter {
  workflow?: string;
  status?: string;
  trigger?: string;
}

/**
 * The user's runs, newest first, filtered by workflow, status and trigger. `initial` holds the rows
 * of `filter` (the page's ?workflow=&status=&trigger=); a filter change re-fetches /runs/feed and
 * writes the filter back into the address, so it can be bookmarked and shared. Re-fetches every 2 s
 * while any shown run is queued or running.
 */
export function RunsTable({
  initial,
  workflows,
  filter = {},
}: {
  initial: RunRow[];
  workflows: { id: string; name: string }[];
  filter?: RunsFilter;
}) {
  const [rows, setRows] = useState(initial);
  const [workflowId, setWorkflowId] = useState(filter.workflow ?? "");
  const [status, setStatus] = useState(filter.status ?? "");
  const [trigger, setTrigger] = useState(filter.trigger ?? "");
  const [tick, setTick] = useState(0);
  const first = useRef(true);
  const active = rows.some((r) => r.status === "queued" || r.status === "running");

  useEffect(() => {
    // the first render shows the server's rows for the initial filter
    if (first.current) {
      first.current = false;
      return;
    }
    const q = new URLSearchParams({
      limit: "100",
      ...(workflowId && { workflowId }),
      ...(status && { status }),
      ...(trigger && { trigger }),
    });
    const shown = new URLSearchParams({
      ...(workflowId && { workflow: workflowId }),
      ...(status && { status }),
      ...(trigger && { trigger }),
    }).toString();
    window.history.replaceState(null, "", shown ? `?${shown}` : window.location.pathname);
    const ctrl = new AbortController();
    fetch(`/runs/feed?${q}`, { cache: "no-store", signal: ctrl.signal })
      .then((r) => (r.ok ? (r.json() as Promise<{ runs: RunRow[] }>) : null))
      .then(
        (b) => b && setRows(b.runs),
        () => undefined,
      );
    return () => ctrl.abort();
  }, [workflowId, status, trigger, tick]);

  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setTick((n) => n + 1), POLL_MS);
    return () => clearInterval(t);
  }, [active]);

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap gap-3">
        {/* the fields are w-full (cn does not merge classes), so their wrappers set the width */}
        <div className="w-56">
          <Select
            aria-label="Workflow"
            value={workflowId}
            onChange={(e) => setWorkflowId(e.target.value)}
            data-testid="filter-workflow"
          >
            <option value="">All workflows</option>
            {workflows.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </Select>
        </div>
        <div className="w-44">
          <Select
            aria-label="Status"
            value={status}
            onChange={(e) => setStatus(e.target.value)}
            data-testid="filter-status"
          >
            <option value="">All statuses</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </div>
        <div className="w-44">
          <Select
            aria-label="Trigger"
            value={trigger}
            onChange={(e) => setTrigger(e.target.value)}
            data-testid="filter-trigger"
          >
            <option value="">All triggers</option>
            {runTriggers.map((t) => (
              <option key={t} value={t}>
                {TRIGGER_NAMES[t]}
              </option>
            ))}
          </Select>
        </div>
      </div>
      {rows.length === 0 ? (
        <p className="text-sm text-muted" data-testid="runs-empty">
          No runs match.
        </p>
      ) : (
        <div className="relative overflow-x-auto rounded-lg border border-border bg-surface">
          <table className="w-full text-sm" data-testid="runs-table">
            <thead className="border-b border-border text-left text-xs text-muted">
              <tr>
                {["Status", "Workflow", "Started", "Trigger", "Duration", "Steps", "Tokens", "Est. cost"].map((h) => (
                  <th key={h} className="px-3 py-2 font-medium">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr
                  key={r.id}
                  className="border-b border-border last:border-0 hover:bg-surface-2"
                  data-testid={`run-row-${r.id}`}
                  data-status={r.status}
                >
                  <td className="px-3 py-2">
                    <Link href={`/runs/${r.id}`}>
                      <StatusBadge status={r.status} />
                    </Link>
                  </td>
                  <td className="px-3 py-2">
                    <Link href={`/runs/${r.id}`} className="font-medium hover:underline">
                      {r.workflowName}
                    </Link>{" "}
                    <span className="text-xs text-muted">v{r.version}</span>
                  </td>
                  <td className="px-3 py-2 text-muted">{new Date(r.startedAt ?? r.createdAt).toLocaleString()}</td>
                  <td
                    className="max-w-56 truncate px-3 py-2 text-muted"
                    title={describeTrigger(r.trigger, r.triggerLabel)}
                    data-testid="run-trigger"
                  >
                    {r.sourceRunId ? (
                      <span data-testid="run-lineage">
                        {r.trigger === "fork" ? "Fork" : "Retry"} of{" "}
                        <Link href={`/runs/${r.sourceRunId}`} className="font-mono underline">
                          {r.sourceRunId.slice(0, 8)}
                        </Link>
                        {r.sourceNodeId && <> at {r.sourceNodeId}</>}
                      </span>
                    ) : (
                      describeTrigger(r.trigger, r.triggerLabel)
                    )}
                    {r.derivedCount > 0 && (
                      <Link
                        href={`/runs/${r.id}#lineage`}
                        className="ml-1"
                        data-testid="run-derived"
                        title="Retries and forks of this run"
                      >
                        <Badge tone="neutral">+{r.derivedCount} derived</Badge>
                      </Link>
                    )}
                  </td>
                  <td className="px-3 py-2 tabular-nums">{formatDuration(r.durationMs)}</td>
                  <td className="px-3 py-2 tabular-nums">{r.stepCount}</td>
                  <td className="px-3 py-2 tabular-nums">{r.tokens}</td>
                  <td className="px-3 py-2 tabular-nums">{formatCost(r.costUsd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
