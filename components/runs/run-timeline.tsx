"use client";
import { FILL_CLASS, statusLabel, statusTone } from "@/components/terms/status";
import { cn } from "@/components/ui/cn";
import { formatDuration } from "./cost";
import type { StepState } from "./run-fold";

/** The tries of one step as segments of its bar (its span from `from` to `to`). */
function Attempts({ step, from, to, now }: { step: StepState; from: number; to: number; now: number }) {
  const span = Math.max(to - from, 1);
  return step.attempts.map((a) => {
    const start = Date.parse(a.startedAt) - from;
    const stop = (a.finishedAt ? Date.parse(a.finishedAt) : now) - from;
    return (
      <span
        key={a.attempt}
        data-testid={`attempt-${step.nodeId}-${step.iteration}-${a.attempt}`}
        data-status={a.status}
        title={`attempt ${a.attempt}${a.retry ? ` (retry ${a.retry})` : ""}: ${statusLabel(a.status)}${a.error ? ` — ${a.error}` : ""}`}
        className={cn("absolute top-0 h-4 min-w-0.5", FILL_CLASS[statusTone(a.status)])}
        style={{ left: `${(start / span) * 100}%`, width: `${Math.max(((stop - start) / span) * 100, 1)}%` }}
      />
    );
  });
}

interface Props {
  steps: readonly StepState[];
  /** Node order of the lanes (the document's), unknown nodes last. */
  nodeOrder: readonly string[];
  nodeName: (id: string) => string;
  now: number;
  selected: string | null;
  onSelect: (key: string) => void;
}

/**
 * Gantt of the run: one lane per node, one bar per iteration (loops show as several bars in a
 * lane), parallel steps overlap in time. Bars of running and waiting steps grow until now. Each bar
 * carries its recorded start/finish (data-started/data-finished) so tests can assert on them. A step
 * tried more than once (error-policy retries, re-dispatches) shows its tries as segments inside its
 * bar, the waits between them as gaps; a step a retry or fork reused is hatched.
 */
export function RunTimeline({ steps, nodeOrder, nodeName, now, selected, onSelect }: Props) {
  const timed = steps.filter((s) => s.startedAt);
  if (timed.length === 0)
    return (
      <p className="text-sm text-muted" data-testid="timeline-empty">
        No step has started yet.
      </p>
    );
  const t0 = Math.min(...timed.map((s) => Date.parse(s.startedAt!)));
  const end = Math.max(...timed.map((s) => (s.finishedAt ? Date.parse(s.finishedAt) : now)), t0 + 1);
  const span = end - t0;
  const lanes = [
    ...new Set([...nodeOrder.filter((id) => timed.some((s) => s.nodeId === id)), ...timed.map((s) => s.nodeId)]),
  ];
  return (
    <div className="grid gap-1" data-testid="run-timeline">
      {lanes.map((nodeId) => (
        <div key={nodeId} className="grid grid-cols-[9rem_1fr] items-center gap-2 text-xs">
          <span className="truncate text-muted" title={nodeId}>
            {nodeName(nodeId)}
            {timed.filter((s) => s.nodeId === nodeId).every((s) => s.reused) && (
              <span className="ml-1 text-[10px]">
                ({timed.some((s) => s.nodeId === nodeId && s.reused?.edited) ? "edited" : "reused"})
              </span>
            )}
          </span>
          <div className="relative h-5 rounded bg-surface-2">
            {timed
              .filter((s) => s.nodeId === nodeId)
              .map((s) => {
                const start = Date.parse(s.startedAt!) - t0;
                const stop = (s.finishedAt ? Date.parse(s.finishedAt) : now) - t0;
                return (
                  <button
                    key={s.key}
                    type="button"
                    onClick={() => onSelect(s.key)}
                    data-testid={`bar-${s.nodeId}-${s.iteration}`}
                    data-started={s.startedAt ?? ""}
                    data-finished={s.finishedAt ?? ""}
                    data-status={s.status}
                    data-attempts={s.attempts.length || undefined}
                    data-reused={s.reused ? (s.reused.edited ? "edited" : "reused") : undefined}
                    title={`${nodeName(s.nodeId)} #${s.iteration}: ${statusLabel(s.status)}${s.reused ? (s.reused.edited ? " (edited in the fork)" : " (reused)") : ""}, ${formatDuration(stop - start)}${s.attempts.length > 1 ? `, ${s.attempts.length} attempts` : ""}`}
                    className={cn(
                      "absolute top-0.5 h-4 min-w-1 overflow-hidden rounded-sm",
                      s.attempts.length > 1 ? "bg-amber-200/60 dark:bg-amber-900/40" : FILL_CLASS[statusTone(s.status)],
                      s.reused &&
                        "bg-[repeating-linear-gradient(45deg,transparent_0_3px,rgba(255,255,255,.45)_3px_6px)]",
                      selected === s.key && "ring-2 ring-ring ring-offset-1",
                    )}
                    style={{
                      left: `${(start / span) * 100}%`,
                      width: `${Math.max(((stop - start) / span) * 100, 0.5)}%`,
                    }}
                  >
                    {s.attempts.length > 1 && (
                      <Attempts
                        step={s}
                        from={Date.parse(s.startedAt!)}
                        to={s.finishedAt ? Date.parse(s.finishedAt) : now}
                        now={now}
                      />
                    )}
                    {s.iteration > 1 && <span className="relative px-1 text-[10px] text-white">#{s.iteration}</span>}
                  </button>
                );
              })}
          </div>
        </div>
      ))}
      <div className="grid grid-cols-[9rem_1fr] text-[10px] text-muted">
        <span />
        <span className="flex justify-between">
          <span>0</span>
          <span>{formatDuration(span)}</span>
        </span>
      </div>
    </div>
  );
}
