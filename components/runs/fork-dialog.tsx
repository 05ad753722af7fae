"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Select, Textarea } from "@/components/ui/input";
import { jsonText, parseJsonDraft } from "@/components/ui/json-draft";
import { ERROR_OUTCOME } from "@/lib/workflow/error-policy";
import { outcomesOf, type Workflow } from "@/lib/workflow/schema";
import { deriveRun, type VersionChoice } from "./derive-request";
import type { StepState } from "./run-fold";
import { VersionChoiceField } from "./version-choice";

/** The fork editor's bounds (the server's run value limits: lib/runs input-limits.ts). */
const FORK_BOUNDS = { maxDepth: 64, maxChars: 1_000_000 };

/**
 * Fork from a step (time travel): edit the step's output as JSON (the start step's output is the
 * run's inputs), pick the outcome it follows and the version to run; a new run linked to this one
 * reuses everything up to the step and runs what depends on it with the edited value.
 */
export function ForkDialog({
  runId,
  step,
  doc,
  version,
  nodeName,
  onClose,
}: {
  runId: string;
  step: StepState;
  doc: Workflow | null;
  version: number;
  nodeName: (id: string) => string;
  onClose: () => void;
}) {
  const router = useRouter();
  const node = doc?.nodes.find((n) => n.id === step.nodeId);
  const outcomes = node ? outcomesOf(node).filter((o) => o !== ERROR_OUTCOME || step.branch === ERROR_OUTCOME) : [];
  const [text, setText] = useState(jsonText(step.output ?? null));
  const [branch, setBranch] = useState(step.branch ?? outcomes[0] ?? "");
  const [choice, setChoice] = useState<VersionChoice>("original");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const draft = parseJsonDraft(text, FORK_BOUNDS);
  const start = async () => {
    if (!draft.ok) return;
    setBusy(true);
    setError(null);
    const body = {
      nodeId: step.nodeId,
      iteration: step.iteration,
      output: draft.value,
      ...(outcomes.length > 1 ? { branch } : {}),
      version: choice,
    };
    const r = await deriveRun(runId, "fork", body);
    setBusy(false);
    if (!r.ok) return setError(r.error);
    toast.success(`Fork started from ${nodeName(step.nodeId)}.`);
    onClose();
    router.push(`/runs/${r.answer.run.id}`);
  };
  const atStart = node?.type === "start";
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Fork from ${nodeName(step.nodeId)}`}
      className="w-[min(40rem,calc(100vw-2rem))]"
      description={
        atStart
          ? "Edit the run's inputs; the fork runs every step with them."
          : "Edit what this step produced; the fork reuses every step it does not depend on and runs the rest with your value."
      }
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={busy} disabled={!draft.ok} onClick={() => void start()} data-testid="fork-start">
            Run the fork
          </Button>
        </>
      }
    >
      <div className="grid gap-3" data-testid="fork-dialog">
        <label className="grid gap-1 text-xs font-medium text-muted">
          {atStart ? "Inputs (JSON)" : `Output of iteration ${step.iteration} (JSON)`}
          <Textarea
            rows={10}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={!draft.ok}
            className="font-mono text-xs"
            data-testid="fork-output"
          />
        </label>
        {!draft.ok && (
          <p role="alert" className="text-xs text-danger" data-testid="fork-invalid">
            {draft.error}
          </p>
        )}
        {outcomes.length > 1 && (
          <label className="grid gap-1 text-xs font-medium text-muted">
            Then follow
            <Select value={branch} onChange={(e) => setBranch(e.target.value)} data-testid="fork-branch">
              {outcomes.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </Select>
          </label>
        )}
        <VersionChoiceField value={choice} onChange={setChoice} version={version} kind="fork" />
        {error && (
          <p role="alert" className="text-sm text-danger" data-testid="fork-error">
            {error}
          </p>
        )}
      </div>
    </Dialog>
  );
}
