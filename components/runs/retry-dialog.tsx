"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { deriveRun, type VersionChoice } from "./derive-request";
import { VersionChoiceField } from "./version-choice";

/** What the run page knows before retrying: how many steps ended with a result, and which did not. */
export interface RetryPreview {
  reusable: number;
  failed: string[];
  version: number;
}

/**
 * "Retry from failed step": asks which version to run, starts the retry (POST /api/runs/:id/retry)
 * and opens the new run.
 */
export function RetryDialog({
  runId,
  open,
  onOpenChange,
  preview,
}: {
  runId: string;
  open: boolean;
  onOpenChange: (o: boolean) => void;
  preview: RetryPreview;
}) {
  const router = useRouter();
  const [version, setVersion] = useState<VersionChoice>("original");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    setBusy(true);
    setError(null);
    const r = await deriveRun(runId, "retry", { version });
    setBusy(false);
    if (!r.ok) return setError(r.error);
    const { reusable, changedNodes } = r.answer.reuse;
    toast.success(
      `Retry started: ${reusable} step${reusable === 1 ? "" : "s"} reused` +
        `${changedNodes.length ? `, changed since: ${changedNodes.join(", ")}` : ""}.`,
    );
    onOpenChange(false);
    router.push(`/runs/${r.answer.run.id}`);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Retry from the failed step"
      description={
        `A new run linked to this one reuses the ${preview.reusable} step${preview.reusable === 1 ? "" : "s"} ` +
        "that ended with a result — no model call, no side effect again — and runs " +
        `${preview.failed.length ? preview.failed.join(", ") : "the rest"} and what follows.`
      }
      footer={
        <>
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button loading={busy} onClick={() => void start()} data-testid="retry-start">
            Retry
          </Button>
        </>
      }
    >
      <div className="grid gap-3" data-testid="retry-dialog">
        <VersionChoiceField value={version} onChange={setVersion} version={preview.version} kind="retry" />
        {error && (
          <p role="alert" className="text-sm text-danger" data-testid="retry-error">
            {error}
          </p>
        )}
      </div>
    </Dialog>
  );
}
