"use client";
import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import type { ComparedRunView, ComparedStepView, ComparisonRowView, RunComparisonView } from "@/lib/run-views/dto";
import { formatCost, formatDuration } from "./cost";
import { ValueDiffView } from "./value-diff-view";
import { JsonView } from "./json-view";
import { StatusBadge } from "@/components/terms/status-badge";
import { describeTrigger } from "./trigger";

const VERDICT: Record<
  ComparisonRowView["verdict"],
  { label: string; tone: "success" | "warning" | "neutral" | "primary" }
> = {
  same: { label: "same", tone: "success" },
  changed: { label: "changed", tone: "warning" },
  only_left: { label: "only left", tone: "neutral" },
  only_right: { label: "only right", tone: "primary" },
};

function Head({ run, side }: { run: ComparedRunView; side: string }) {
  return (
    <div className="grid gap-1" data-testid={`compare-${side}`}>
      <span className="text-xs uppercase tracking-wide text-muted">{side}</span>
      <Link href={`/runs/${run.id}`} className="font-mono text-xs underline">
        {run.id.slice(0, 8)}
      </Link>
      <span className="flex flex-wrap items-center gap-2 text-xs">
        <StatusBadge status={run.status} />
        <span className="text-muted">
          {describeTrigger(run.trigger)} · v{run.version} · {new Date(run.createdAt).toLocaleString()}
        </span>
      </span>
      <span className="text-xs text-muted" data-testid={`compare-${side}-totals`}>
        {formatDuration(run.durationMs)} · {run.tokens} tok · {formatCost(run.costUsd)}
      </span>
    </div>
  );
}

function Side({ step, showOutput }: { step: ComparedStepView | null; showOutput: boolean }) {
  if (!step) return <span className="text-xs text-muted">did not run</span>;
  return (
    <div className="grid gap-1 text-xs">
      <span className="flex flex-wrap items-center gap-1">
        <StatusBadge status={step.status} />
        {step.reused && (
          <Badge tone="neutral" data-testid="compare-reused">
            {step.edited ? "edited" : "reused"}
          </Badge>
        )}
        {step.branch && <code className="text-muted">→ {step.branch}</code>}
        {step.attempts > 1 && <span className="text-muted">{step.attempts} attempts</span>}
        <span className="text-muted">
          {step.tokens} tok{step.latencyMs !== null ? ` · ${formatDuration(step.latencyMs)}` : ""}
        </span>
      </span>
      {step.error && <span className="break-words text-danger">{step.error}</span>}
      {showOutput && <JsonView value={step.output ?? undefined} />}
    </div>
  );
}

/**
 * Two runs side by side, step by step (a run and its retry or fork, or any two of the owner's
 * runs): for each node and iteration what each run did, whether its result was reused from the
 * source or edited in a fork, and whether the two agree; a changed step shows how its input and
 * output differ (text word by word, JSON path by path); each run's time, tokens and cost head its
 * column. `onlyDifferences` starts with same rows hidden.
 */
export function RunComparison({
  comparison,
  onlyDifferences = false,
}: {
  comparison: RunComparisonView;
  onlyDifferences?: boolean;
}) {
  const [differences, setDifferences] = useState(onlyDifferences);
  const [outputs, setOutputs] = useState(true);
  const { left, right, rows, nodeNames } = comparison;
  const shown = differences ? rows.filter((r) => r.verdict !== "same") : rows;
  const counts = rows.reduce((c, r) => ({ ...c, [r.verdict]: (c[r.verdict] ?? 0) + 1 }), {} as Record<string, number>);
  return (
    <div className="grid gap-4" data-testid="run-comparison">
      <div className="grid grid-cols-[10rem_1fr_1fr] gap-3">
        <div className="text-xs text-muted" data-testid="compare-summary">
          {Object.entries(counts)
            .map(([v, n]) => `${n} ${VERDICT[v as ComparisonRowView["verdict"]].label}`)
            .join(" · ")}
        </div>
        <Head run={left} side="left" />
        <Head run={right} side="right" />
      </div>
      <div className="flex gap-4 text-xs">
        <label className="flex items-center gap-1">
          <input
            type="checkbox"
            checked={differences}
            onChange={(e) => setDifferences(e.target.checked)}
            data-testid="compare-only-diff"
          />{" "}
          Only differences
        </label>
        <label className="flex items-center gap-1">
          <input type="checkbox" checked={outputs} onChange={(e) => setOutputs(e.target.checked)} /> Outputs
        </label>
      </div>
      <ol className="grid gap-2">
        {shown.map((r) => (
          <li
            key={r.key}
            data-testid={`compare-row-${r.nodeId}-${r.iteration}`}
            data-verdict={r.verdict}
            className={cn(
              "grid grid-cols-[10rem_1fr_1fr] gap-3 rounded-md border border-border p-2",
              r.verdict === "changed" && "border-amber-400",
              r.verdict === "only_right" && "border-sky-400",
            )}
          >
            <div className="grid content-start gap-1 text-xs">
              <span className="font-medium">{nodeNames[r.nodeId] ?? r.nodeId}</span>
              <span className="text-muted">iteration {r.iteration}</span>
              <span className="w-fit">
                <Badge tone={VERDICT[r.verdict].tone}>{VERDICT[r.verdict].label}</Badge>
              </span>
            </div>
            <Side step={r.left} showOutput={outputs} />
            <Side step={r.right} showOutput={outputs} />
            {r.verdict === "changed" && r.left && r.right && (
              <div className="col-start-2 col-end-4 grid gap-2">
                <ValueDiffView left={r.left.input} right={r.right.input} what="input" />
                <ValueDiffView left={r.left.output} right={r.right.output} what="output" />
              </div>
            )}
          </li>
        ))}
      </ol>
      <div className="grid grid-cols-[10rem_1fr_1fr] gap-3 text-xs">
        <span className="font-medium">Run outputs</span>
        <JsonView value={left.outputs ?? undefined} testId="compare-left-outputs" />
        <JsonView value={right.outputs ?? undefined} testId="compare-right-outputs" />
      </div>
    </div>
  );
}
