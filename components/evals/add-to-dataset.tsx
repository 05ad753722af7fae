"use client";
import { useActionState } from "react";
import { ActionForm } from "@/components/ui/action-form";
import { Select } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import type { EvalActionResult } from "@/lib/evals/dto";

type Action = (prev: EvalActionResult, form: FormData) => Promise<EvalActionResult>;

/** "Add this run to a dataset": its inputs become a row, its outputs the row's reference. */
export function AddToDataset({
  action,
  runId,
  datasets,
}: {
  action: Action;
  runId: string;
  datasets: { id: string; name: string }[];
}) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" } as EvalActionResult);
  if (!datasets.length) return null;
  return (
    <ActionForm
      action={formAction}
      pending={pending}
      className="flex flex-wrap items-center gap-2 text-sm"
      data-testid="add-to-dataset"
    >
      <input type="hidden" name="runId" value={runId} />
      <Select name="datasetId" aria-label="Dataset" className="h-8 w-48" defaultValue={datasets[0]!.id}>
        {datasets.map((d) => (
          <option key={d.id} value={d.id}>
            {d.name}
          </option>
        ))}
      </Select>
      <SubmitButton size="sm" variant="outline">
        Add to dataset
      </SubmitButton>
      {state.status === "ok" && (
        <span className="text-xs text-success" role="status">
          {state.message}
        </span>
      )}
      {state.status === "error" && (
        <span className="text-xs text-danger" role="alert">
          {state.message}
        </span>
      )}
    </ActionForm>
  );
}
