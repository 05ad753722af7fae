"use client";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { estimateCost, formatCost, formatDuration } from "./cost";
import { JsonView } from "./json-view";
import type { StepState } from "./run-fold";
import { statusTone } from "./status";
import type { Prices } from "./types";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-xs font-medium text-muted">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

/**
 * Everything the engine records about one step: status, attempt (retries = attempt − 1), timing,
 * input (the edges that delivered data) and loop feedback, progress (agent turns, tool calls with
 * their arguments, format retries), model calls with tokens and latency, handoffs, the branch taken
 * and where it led, output and error. The engine records no rendered prompt or message list.
 */
export function StepInspector({ step, nodeName, prices, showContent }: { step: StepState | null; nodeName: (id: string) => string; prices?: Prices; showContent: boolean }) {
  if (!step) return <p className="text-sm text-muted">Select a node or a timeline bar to inspect its step.</p>;
  const duration = step.startedAt && step.finishedAt ? Date.parse(step.finishedAt) - Date.parse(step.startedAt) : null;
  const cost = estimateCost(prices, step.calls);
  return (
    <dl className="grid gap-3" data-testid="step-inspector" data-step={step.key}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">{nodeName(step.nodeId)}</span>
        <Badge tone={statusTone(step.status)} data-testid="step-status">{step.status}</Badge>
        {step.kind && <Badge>{step.kind}</Badge>}
        <span className="text-xs text-muted">iteration {step.iteration} · attempt {step.attempt}{step.attempt > 1 ? ` (${step.attempt - 1} retr${step.attempt === 2 ? "y" : "ies"})` : ""}</span>
      </div>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Row label="Started">{step.startedAt ? new Date(step.startedAt).toLocaleTimeString() : "—"}</Row>
        <Row label="Duration">{formatDuration(duration)}</Row>
        <Row label="Tokens">{step.promptTokens} in / {step.completionTokens} out</Row>
        {prices && <Row label="Est. cost">{formatCost(cost)}</Row>}
      </div>
      {step.branch && (
        <Row label="Branch taken">
          <span data-testid="step-branch"><code>{step.branch}</code>{step.targets.length > 0 && <> → {step.targets.map(nodeName).join(", ")}</>}</span>
          {step.skipped.length > 0 && <span className="text-muted"> (skipped: {step.skipped.map(nodeName).join(", ")})</span>}
        </Row>
      )}
      {step.error && <Row label="Error"><span className="text-danger" data-testid="step-error">{step.error}</span></Row>}
      {step.calls.length > 0 && (
        <Row label="Model calls">
          <ul className="grid gap-1 text-xs">
            {step.calls.map((c, i) => (
              <li key={i}><code>{c.model}</code>: {c.promptTokens} in / {c.completionTokens} out{c.latencyMs !== null ? `, ${formatDuration(c.latencyMs)}` : ""}</li>
            ))}
          </ul>
        </Row>
      )}
      {step.progress.length > 0 && (
        <Row label="Activity (turns, tool calls, retries)">
          <ul className="grid gap-1 text-xs" data-testid="step-progress">
            {step.progress.map((p, i) => (
              <li key={i}>
                <span className="text-muted">{new Date(p.at).toLocaleTimeString()}</span> {p.message}
                {p.detail && <JsonView value={p.detail} />}
              </li>
            ))}
          </ul>
        </Row>
      )}
      {step.handoffs.length > 0 && (
        <Row label="Handoffs">
          <ul className="grid gap-1 text-xs">
            {step.handoffs.map((h, i) => <li key={i}>{h.phase} {h.worker}{h.error ? ` — ${h.error}` : ""}{h.task ? `: ${h.task}` : ""}{h.result ? `: ${h.result}` : ""}</li>)}
          </ul>
        </Row>
      )}
      {showContent && step.input !== undefined && <Row label="Input (delivering edges)"><JsonView value={step.input} /></Row>}
      {showContent && step.feedback !== undefined && <Row label="Loop feedback"><JsonView value={step.feedback} /></Row>}
      {showContent && <Row label="Output"><JsonView value={step.output} testId="step-output" /></Row>}
    </dl>
  );
}
