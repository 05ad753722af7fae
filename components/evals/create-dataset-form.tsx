"use client";
import { useActionState } from "react";
import { ActionForm } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input, Select } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import type { EvalActionResult } from "@/lib/evals/dto";

type Action = (prev: EvalActionResult, form: FormData) => Promise<EvalActionResult>;

/** Name, workflow (its input fields check the rows) and description of a new dataset; the action opens it. */
export function CreateDatasetForm({
  action,
  workflows,
}: {
  action: Action;
  workflows: { id: string; name: string }[];
}) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" } as EvalActionResult);
  return (
    <Card className="p-5">
      <ActionForm
        action={formAction}
        pending={pending}
        className="grid gap-3 sm:grid-cols-[1fr_1fr_2fr_auto] sm:items-end"
        data-testid="dataset-create"
      >
        <FormField label="Dataset name">
          <Input name="name" required maxLength={100} placeholder="e.g. support questions" />
        </FormField>
        <FormField label="Workflow" hint="Rows are checked against its input fields">
          <Select name="workflowId" defaultValue={workflows[0]?.id ?? ""}>
            <option value="">Any inputs</option>
            {workflows.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="Description (optional)">
          <Input name="description" maxLength={1000} />
        </FormField>
        <SubmitButton>Create dataset</SubmitButton>
      </ActionForm>
      {state.status === "error" && (
        <p className="mt-2 text-sm text-danger" role="alert">
          {state.message}
        </p>
      )}
    </Card>
  );
}
