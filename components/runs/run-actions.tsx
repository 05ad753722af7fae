"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { RetryDialog, type RetryPreview } from "./retry-dialog";
import { SharePanel } from "./share-panel";

async function post(url: string): Promise<{ ok: boolean; body: unknown; status: number }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  return { ok: res.ok, status: res.status, body: await res.json().catch(() => null) };
}

/**
 * Owner actions: cancel (while running), retry a failed, cancelled or budget-exhausted run from its
 * failed step (reusing what succeeded, RetryDialog), re-run with the same inputs from scratch, share.
 */
export function RunActions({
  runId,
  status,
  retryPreview,
}: {
  runId: string;
  status: string;
  retryPreview: RetryPreview;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState<string | null>(null);
  const [retrying, setRetrying] = useState(false);
  const active = status === "queued" || status === "running" || status === "waiting";
  /** Re-run: a new run with the same inputs, every step again. */
  const again = async (label: string) => {
    setBusy(label);
    try {
      const r = await post(`/api/runs/${runId}/rerun`);
      const id = (r.body as { run?: { id?: string } } | null)?.run?.id;
      if (!r.ok || !id) return void toast.error(`Could not start a new run (${r.status}).`);
      router.push(`/runs/${id}`);
    } finally {
      setBusy(null);
    }
  };
  const cancel = async () => {
    setBusy("cancel");
    try {
      const r = await post(`/api/runs/${runId}/cancel`);
      if (r.ok) toast.success("Cancel requested.");
      else toast.error(`Could not cancel (${r.status}).`);
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      {active && (
        <Button
          variant="danger"
          size="sm"
          loading={busy === "cancel"}
          onClick={() => void cancel()}
          data-testid="run-cancel"
        >
          Cancel
        </Button>
      )}
      {!active && (status === "failed" || status === "budget_exhausted" || status === "cancelled") && (
        <>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setRetrying(true)}
            title="A new run that reuses every step that succeeded and runs from the failed one on"
            data-testid="run-retry"
          >
            Retry from failed step
          </Button>
          <RetryDialog runId={runId} open={retrying} onOpenChange={setRetrying} preview={retryPreview} />
        </>
      )}
      <Button
        variant="outline"
        size="sm"
        loading={busy === "rerun"}
        onClick={() => void again("rerun")}
        data-testid="run-rerun"
      >
        Re-run
      </Button>
      <SharePanel runId={runId} />
    </>
  );
}
