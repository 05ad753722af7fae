"use client";
import { useState } from "react";
import { Textarea } from "@/components/ui/input";
import { jsonText, parseJsonDraft } from "@/components/ui/json-draft";
import {
  ERROR_OUTCOME,
  errorClasses,
  errorClassLabels,
  retryPolicySchema,
  type ErrorPolicy,
  type RetryPolicy,
} from "@/lib/workflow/error-policy";
import { outcomesOf, type WorkflowNode } from "@/lib/workflow/schema";
import { CommitInput, Row, Section, SelectField } from "./fields";
import type { InspectorActions } from "./types";

/** Seconds as typed → ms (undefined when empty or not a positive number). */
const secondsToMs = (text: string): number | undefined => {
  const n = Number(text.trim());
  return text.trim() !== "" && Number.isFinite(n) && n >= 0 ? Math.round(n * 1_000) : undefined;
};
const msToSeconds = (ms: number | undefined): string => (ms === undefined ? "" : String(ms / 1_000));

const EXHAUSTED = [
  { value: "fail", label: "Fail the run" },
  { value: "fallback", label: "Continue with a fallback output" },
  { value: "error_branch", label: "Take the error branch" },
] as const;

/**
 * "When a try fails": the node's per-try timeout (kinds that wait for people or child runs set
 * theirs in their own form), retries with backoff for chosen error classes, and what happens when
 * the tries are used up (lib/workflow/error-policy.ts). The fallback output is JSON, committed only
 * when it parses.
 */
export function ErrorPolicyForm({ node, act }: { node: WorkflowNode; act: InspectorActions }) {
  const policy: ErrorPolicy = node.onError ?? { onExhausted: "fail" };
  const set = (patch: Partial<ErrorPolicy>) => {
    const next = { ...policy, ...patch };
    const empty = next.onExhausted === "fail" && !next.retry;
    act.updateNode(node.id, { onError: empty ? undefined : next });
  };
  const ownTimeout = node.type !== "human" && node.type !== "subflow";
  return (
    <Section title="When a try fails">
      <div className="grid gap-3" data-testid="error-policy">
        {ownTimeout && (
          <Row label="Timeout per try (seconds, empty = none)">
            <CommitInput
              type="number"
              value={msToSeconds(node.timeoutMs)}
              testId="node-timeout"
              ariaLabel="Timeout per try in seconds"
              onCommit={(text) => act.updateNode(node.id, { timeoutMs: secondsToMs(text) || undefined })}
            />
          </Row>
        )}
        <label className="flex items-center gap-2 text-xs">
          <input
            type="checkbox"
            data-testid="retry-enabled"
            checked={policy.retry !== undefined}
            onChange={(e) => set({ retry: e.target.checked ? retryPolicySchema.parse({}) : undefined })}
          />
          Retry with backoff
        </label>
        {policy.retry && <RetryFields retry={policy.retry} onChange={(retry) => set({ retry })} />}
        <Row label="When the tries are used up">
          <SelectField
            value={policy.onExhausted}
            options={EXHAUSTED}
            testId="on-exhausted"
            onChange={(onExhausted) => set({ onExhausted })}
          />
        </Row>
        {policy.onExhausted === "fallback" && <FallbackFields node={node} policy={policy} onChange={set} />}
        {policy.onExhausted === "error_branch" && (
          <p className="text-xs text-muted">
            Connect the node&apos;s <code>{ERROR_OUTCOME}</code> handle: it carries {"{error, errorClass, attempts}"}.
          </p>
        )}
      </div>
    </Section>
  );
}

function RetryFields({ retry, onChange }: { retry: RetryPolicy; onChange: (r: RetryPolicy) => void }) {
  const int = (text: string, min: number, max: number) => {
    const n = Number(text);
    return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
  };
  const toggle = (c: (typeof errorClasses)[number], on: boolean) =>
    onChange({ ...retry, on: on ? [...retry.on, c] : retry.on.filter((x) => x !== c) });
  return (
    <div className="grid gap-2 rounded-md border border-border p-2">
      <div className="grid grid-cols-2 gap-2">
        <Row label="Attempts in all">
          <CommitInput
            type="number"
            value={String(retry.maxAttempts)}
            testId="retry-attempts"
            ariaLabel="Attempts in all"
            onCommit={(t) => {
              const n = int(t, 1, 10);
              if (n !== undefined) onChange({ ...retry, maxAttempts: n });
            }}
          />
        </Row>
        <Row label="First wait (s)">
          <CommitInput
            type="number"
            value={msToSeconds(retry.initialDelayMs)}
            testId="retry-delay"
            ariaLabel="First wait in seconds"
            onCommit={(t) => {
              const ms = secondsToMs(t);
              if (ms !== undefined) onChange({ ...retry, initialDelayMs: ms });
            }}
          />
        </Row>
        <Row label="Backoff factor">
          <CommitInput
            type="number"
            value={String(retry.backoffFactor)}
            testId="retry-factor"
            ariaLabel="Backoff factor"
            onCommit={(t) => {
              const n = Number(t);
              if (Number.isFinite(n) && n >= 1 && n <= 10) onChange({ ...retry, backoffFactor: n });
            }}
          />
        </Row>
        <Row label="Longest wait (s)">
          <CommitInput
            type="number"
            value={msToSeconds(retry.maxDelayMs)}
            ariaLabel="Longest wait in seconds"
            onCommit={(t) => onChange({ ...retry, maxDelayMs: secondsToMs(t) })}
          />
        </Row>
      </div>
      <fieldset className="grid gap-1 text-xs">
        <legend className="mb-1 font-medium text-muted">Retry on</legend>
        {errorClasses.map((c) => (
          <label key={c} className="flex items-center gap-2">
            <input
              type="checkbox"
              data-testid={`retry-on-${c}`}
              checked={retry.on.includes(c)}
              onChange={(e) => toggle(c, e.target.checked)}
            />
            {errorClassLabels[c]}
          </label>
        ))}
      </fieldset>
    </div>
  );
}

function FallbackFields({
  node,
  policy,
  onChange,
}: {
  node: WorkflowNode;
  policy: ErrorPolicy;
  onChange: (p: Partial<ErrorPolicy>) => void;
}) {
  const [draft, setDraft] = useState(jsonText(policy.fallback));
  const parsed = parseJsonDraft(draft);
  const outcomes = outcomesOf(node).filter((o) => o !== ERROR_OUTCOME);
  return (
    <>
      <Row label="Fallback output (JSON)">
        <Textarea
          rows={3}
          value={draft}
          data-testid="fallback-output"
          aria-label="Fallback output as JSON"
          aria-invalid={!parsed.ok}
          className="font-mono text-xs"
          onChange={(e) => setDraft(e.target.value)}
          onBlur={() => parsed.ok && onChange({ fallback: parsed.value })}
        />
      </Row>
      {!parsed.ok && draft.trim() !== "" && (
        <p className="text-xs text-danger" role="alert">
          {parsed.error}
        </p>
      )}
      {outcomes.length > 1 && (
        <Row label="Then follow">
          <SelectField
            value={policy.fallbackBranch ?? ""}
            options={[{ value: "", label: "Choose an outcome" }, ...outcomes.map((o) => ({ value: o, label: o }))]}
            testId="fallback-branch"
            onChange={(b) => onChange({ fallbackBranch: b || undefined })}
          />
        </Row>
      )}
    </>
  );
}
