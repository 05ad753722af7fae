"use client";
import type { LiveStepText } from "@/lib/events/live-frame";
import { liveTail } from "./live-tail";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { estimateCost, type Prices } from "@/lib/run-views/cost";
import { formatCost, formatDuration } from "./cost";
import { JsonView } from "./json-view";
import type { StepState } from "./run-fold";
import { stepDetail, type RecordedMessage } from "./step-detail";
import { StatusBadge } from "@/components/terms/status-badge";
import { SubflowRunLink } from "./subflow-runs";
import { Button } from "@/components/ui/button";
import { StepRecovery } from "./step-recovery";

/** A fork starts from a step that ended: it succeeded, or it failed (the fork gives it the output it should have had). */
const FORKABLE = ["succeeded", "failed", "timed_out"];

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-xs font-medium text-muted">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

function Messages({ messages }: { messages: RecordedMessage[] }) {
  return (
    <ol className="grid gap-2" data-testid="step-prompt">
      {messages.map((m, i) => (
        <li key={i} className="grid gap-1">
          <span className="text-xs font-medium uppercase tracking-wide text-muted">
            {m.role}
            {m.name ? ` · ${m.name}` : ""}
          </span>
          <JsonView value={m.content} />
          {m.toolCalls?.map((c) => (
            <JsonView key={c.id} value={{ call: c.name, args: c.args }} />
          ))}
        </li>
      ))}
    </ol>
  );
}

/**
 * Everything the engine records about one step: status, attempt (retries = attempt − 1), timing,
 * input (the edges that delivered data) and loop feedback, the rendered prompt (messages), tool calls
 * with arguments and results, invalid-call repairs, progress, model calls with tokens and latency,
 * handoffs, the branch taken, why and where it led, a human review's question (its answer is the
 * output), a subflow's child run (its outputs are the output; linked when `linkRuns`: the owner's
 * view), output and error. Content (prompt, arguments, results, reasons, question, output) only
 * when `showContent` (a share link without content has none).
 */
export function StepInspector({
  step,
  nodeName,
  prices,
  showContent,
  linkRuns = false,
  onFork,
  items = [],
  onSelect,
  liveText = null,
}: {
  step: StepState | null;
  nodeName: (id: string) => string;
  prices?: Prices;
  showContent: boolean;
  linkRuns?: boolean;
  /** A map's step or one of its items: the map's item steps in item order, to page through. */
  items?: readonly StepState[];
  onSelect?: (key: string) => void;
  /** While the step runs: what its model has written so far (live, not stored; its output replaces it). */
  liveText?: LiveStepText | null;
  /** Owner view: forks the run at this step (offered once the step ended). */
  onFork?: (step: StepState) => void;
}) {
  if (!step) return <p className="text-sm text-muted">Select a node or a timeline bar to inspect its step.</p>;
  const duration = step.startedAt && step.finishedAt ? Date.parse(step.finishedAt) - Date.parse(step.startedAt) : null;
  const cost = estimateCost(prices, step.calls);
  const detail = stepDetail(step);
  const isItem = items.some((s) => s.key === step.key);
  return (
    <dl className="grid gap-3" data-testid="step-inspector" data-step={step.key}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">{nodeName(step.nodeId)}</span>
        <StatusBadge status={step.status} testId="step-status" />
        {step.kind && <Badge>{step.kind}</Badge>}
        <span className="text-xs text-muted">
          {isItem ? `item ${step.iteration} of ${items.length}` : `iteration ${step.iteration}`} · attempt{" "}
          {step.attempt}
          {step.attempt > 1 ? ` (${step.attempt - 1} retr${step.attempt === 2 ? "y" : "ies"})` : ""}
        </span>
        {onFork && FORKABLE.includes(step.status) && (
          <Button size="sm" variant="outline" className="ml-auto" data-testid="step-fork" onClick={() => onFork(step)}>
            Fork from this step
          </Button>
        )}
      </div>
      {items.length > 0 && onSelect && <ItemPager step={step} items={items} onSelect={onSelect} />}
      <StepRecovery step={step} linkRuns={linkRuns} />
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Row label="Started">{step.startedAt ? new Date(step.startedAt).toLocaleTimeString() : "—"}</Row>
        <Row label="Duration">{formatDuration(duration)}</Row>
        <Row label="Tokens">
          {step.promptTokens} in / {step.completionTokens} out
        </Row>
        {prices && <Row label="Est. cost">{formatCost(cost)}</Row>}
      </div>
      {step.branch && (
        <Row label="Branch taken">
          <span data-testid="step-branch">
            <code>{step.branch}</code>
            {step.targets.length > 0 && <> → {step.targets.map(nodeName).join(", ")}</>}
          </span>
          {step.skipped.length > 0 && (
            <span className="text-muted"> (skipped: {step.skipped.map(nodeName).join(", ")})</span>
          )}
          {showContent && detail.branchReason && (
            <span className="mt-1 block text-xs text-muted" data-testid="step-branch-reason">
              Why: {detail.branchReason}
            </span>
          )}
        </Row>
      )}
      {step.request && (
        <Row label={step.status === "waiting" ? "Question (waiting for an answer)" : "Question"}>
          {showContent && step.request.prompt ? (
            <div
              className="max-h-64 overflow-auto whitespace-pre-wrap break-words rounded-md border border-border bg-surface-2 p-2 text-sm"
              data-testid="step-question"
            >
              {step.request.prompt}
            </div>
          ) : (
            <span className="text-muted">Not shared.</span>
          )}
          <span className="mt-1 block text-xs text-muted">
            Choices: {step.request.choices.map((c) => c.label || c.id).join(", ")}
          </span>
        </Row>
      )}
      {step.subflow && (
        <Row label={step.status === "waiting" ? "Subflow (waiting for its run to end)" : "Subflow"}>
          <span data-testid="step-subflow">
            <SubflowRunLink subflow={step.subflow} link={linkRuns} />
          </span>
        </Row>
      )}
      {showContent && liveText && (
        <Row
          label={
            liveText.tool
              ? `Writing (now calling ${liveText.tool})`
              : "Writing (live, replaced by the output when the step ends)"
          }
        >
          <LiveTextBox text={liveText.text} />
        </Row>
      )}
      {step.error && (
        <Row label="Error">
          <span className="text-danger" data-testid="step-error">
            {step.error}
          </span>
        </Row>
      )}
      {step.calls.length > 0 && (
        <Row label="Model calls">
          <ul className="grid gap-1 text-xs">
            {step.calls.map((c, i) => (
              <li key={i}>
                <code>{c.model}</code>: {c.promptTokens} in / {c.completionTokens} out
                {c.latencyMs !== null ? `, ${formatDuration(c.latencyMs)}` : ""}
              </li>
            ))}
          </ul>
        </Row>
      )}
      {showContent && detail.prompt && (
        <Row label="Rendered prompt (messages sent first)">
          <Messages messages={detail.prompt} />
        </Row>
      )}
      {showContent && detail.toolCalls.length > 0 && (
        <Row label="Tool calls">
          <ul className="grid gap-2 text-xs" data-testid="step-tool-calls">
            {detail.toolCalls.map((c, i) => (
              <li key={i} className="grid gap-1">
                <span>
                  <code>{c.tool}</code> <span className="text-muted">{new Date(c.at).toLocaleTimeString()}</span>
                </span>
                <JsonView value={c.args} />
                {c.result !== undefined ? (
                  <JsonView value={c.result} />
                ) : (
                  <span className="text-muted">no result recorded</span>
                )}
              </li>
            ))}
          </ul>
        </Row>
      )}
      {step.progress.length > 0 && (
        <Row
          label={`Activity (turns, tool calls, retries${detail.repairs.length ? `, ${detail.repairs.length} tool-call repair${detail.repairs.length > 1 ? "s" : ""}` : ""})`}
        >
          <ul className="grid gap-1 text-xs" data-testid="step-progress">
            {step.progress.map((p, i) => (
              <li key={i}>
                <span className="text-muted">{new Date(p.at).toLocaleTimeString()}</span> {p.message}
                {p.detail && !("messages" in p.detail) && !("result" in p.detail) && <JsonView value={p.detail} />}
              </li>
            ))}
          </ul>
        </Row>
      )}
      {step.handoffs.length > 0 && (
        <Row label="Handoffs">
          <ul className="grid gap-1 text-xs">
            {step.handoffs.map((h, i) => (
              <li key={i}>
                {h.phase} {h.worker}
                {h.error ? ` — ${h.error}` : ""}
                {h.task ? `: ${h.task}` : ""}
                {h.result ? `: ${h.result}` : ""}
              </li>
            ))}
          </ul>
        </Row>
      )}
      {showContent && step.input !== undefined && (
        <Row label="Input (delivering edges)">
          <JsonView value={step.input} />
        </Row>
      )}
      {showContent && step.feedback !== undefined && (
        <Row label="Loop feedback">
          <JsonView value={step.feedback} />
        </Row>
      )}
      {showContent && (
        <Row label="Output">
          <JsonView value={step.output} testId="step-output" />
        </Row>
      )}
    </dl>
  );
}

/** A map's items as buttons (status-coloured, the open one marked), with the previous and next item. */
function ItemPager({
  step,
  items,
  onSelect,
}: {
  step: StepState;
  items: readonly StepState[];
  onSelect: (key: string) => void;
}) {
  const at = items.findIndex((s) => s.key === step.key);
  const go = (i: number) => items[i] && onSelect(items[i].key);
  return (
    <div className="grid gap-1" data-testid="map-items-pager">
      <div className="flex items-center gap-2 text-xs text-muted">
        <span>Items</span>
        <Button size="sm" variant="outline" disabled={at <= 0} data-testid="map-item-prev" onClick={() => go(at - 1)}>
          Previous
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={at < 0 ? items.length === 0 : at >= items.length - 1}
          data-testid="map-item-next"
          onClick={() => go(at + 1)}
        >
          Next
        </Button>
      </div>
      <div className="flex flex-wrap gap-1">
        {items.map((s) => (
          <button
            key={s.key}
            type="button"
            data-testid={`map-item-${s.iteration}`}
            data-status={s.status}
            aria-current={s.key === step.key ? "true" : undefined}
            title={`Item ${s.iteration}: ${s.status}`}
            onClick={() => onSelect(s.key)}
            className={`h-6 min-w-6 rounded px-1 text-[11px] tabular-nums ${s.key === step.key ? "bg-primary text-white" : s.status === "succeeded" ? "bg-emerald-100 dark:bg-emerald-500/20" : s.status === "failed" || s.status === "timed_out" ? "bg-red-100 dark:bg-red-500/20" : "bg-surface-2"}`}
          >
            {s.iteration}
          </button>
        ))}
      </div>
    </div>
  );
}

/** The live text while the step runs: its last characters (live-tail.ts), with how many come before them. */
function LiveTextBox({ text }: { text: string }) {
  const tail = liveTail(text);
  return (
    <div className="grid gap-1">
      {tail.hidden > 0 && (
        <span className="text-xs text-muted" data-testid="step-live-text-hidden">
          … {tail.hidden.toLocaleString("en-US")} characters before; the whole text is the output when the step ends
        </span>
      )}
      <div
        className="max-h-64 overflow-auto whitespace-pre-wrap break-words rounded-md border border-border bg-surface-2 p-2 text-sm"
        data-testid="step-live-text"
        aria-live="polite"
      >
        {tail.text}
      </div>
    </div>
  );
}
