"use client";
import Link from "next/link";
import { errorClassLabels, type ErrorClass } from "@/lib/workflow/error-policy";
import { formatDuration } from "./cost";
import type { StepState } from "./run-fold";

const classLabel = (c: string | null) => (c && c in errorClassLabels ? errorClassLabels[c as ErrorClass] : c);

/**
 * How a step recovered or was reused: reused from the run a retry or fork derives from (edited in a
 * fork), its tries (error-policy retries and re-dispatches, each with how it ended), its next try
 * while it waits for a retry, and a fallback or error branch its policy took.
 */
export function StepRecovery({ step, linkRuns }: { step: StepState; linkRuns: boolean }) {
  const tries = step.attempts.length > 1 || step.status === "retrying";
  if (!step.reused && !tries && !step.recovered) return null;
  return (
    <div className="grid gap-1 rounded-md border border-border bg-surface-2 p-2 text-xs" data-testid="step-recovery">
      {step.reused && (
        <p data-testid="step-reused">
          {step.reused.edited ? "Edited in this fork" : "Reused"} —{" "}
          {step.reused.edited ? "the value given at the fork" : "not executed again: the result of"}{" "}
          {step.reused.runId && linkRuns ? (
            <Link className="underline" href={`/runs/${step.reused.runId}`}>
              run {step.reused.runId.slice(0, 8)}
            </Link>
          ) : (
            "the source run"
          )}
          .
        </p>
      )}
      {tries && (
        <ol className="grid gap-0.5" data-testid="step-attempts">
          {step.attempts.map((a) => (
            <li key={a.attempt} data-status={a.status}>
              <span className="font-medium">Attempt {a.attempt}</span>
              {a.retry > 0 && <span className="text-muted"> (retry {a.retry})</span>}: {a.status}
              {a.finishedAt && (
                <span className="text-muted">
                  {" "}
                  after {formatDuration(Date.parse(a.finishedAt) - Date.parse(a.startedAt))}
                </span>
              )}
              {a.errorClass && <span> · {classLabel(a.errorClass)}</span>}
              {a.error && <span className="block break-words text-danger">{a.error}</span>}
            </li>
          ))}
        </ol>
      )}
      {step.status === "retrying" && step.retryAt && (
        <p data-testid="step-retry-at">
          Next try at {new Date(step.retryAt).toLocaleTimeString()} (its error policy retries{" "}
          {classLabel(step.errorClass)}).
        </p>
      )}
      {step.recovered === "fallback" && (
        <p data-testid="step-recovered">
          Failed ({classLabel(step.errorClass)}); its error policy answered the fallback output.
        </p>
      )}
      {step.recovered === "error_branch" && (
        <p data-testid="step-recovered">
          Failed ({classLabel(step.errorClass)}); its error policy took the error branch.
        </p>
      )}
    </div>
  );
}
