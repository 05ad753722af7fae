"use client";
import { useActionState, useMemo, useState } from "react";
import { ActionForm } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input, Textarea } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import type { EvalActionResult } from "@/lib/evals/dto";
import { evaluatorListSchema } from "@/lib/evals/evaluator-spec";

type Action = (prev: EvalActionResult, form: FormData) => Promise<EvalActionResult>;

/** A workflow version the form offers (lib/evals experimentVersionOptions). */
export interface VersionOption {
  workflowId: string;
  workflowName: string;
  version: number;
  message: string;
}

/** The evaluators the form starts with: an exact match against the reference and a judge. */
export const DEFAULT_EVALUATORS = JSON.stringify(
  [
    { kind: "exact", name: "matches reference", ignoreCase: true, weight: 1 },
    {
      kind: "judge",
      name: "judge",
      rubric: "Does the answer do what the inputs ask, at least as well as the reference answer?",
      scale: { min: 1, max: 5 },
      threshold: 0.5,
    },
  ],
  null,
  2,
);

/** The problem with evaluators as typed (JSON, then the specs' schema), or null. */
function evaluatorProblem(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "Not valid JSON.";
  }
  const parsed = evaluatorListSchema.safeParse(value);
  return parsed.success
    ? null
    : parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".") || "list"}: ${i.message}`)
        .join("; ");
}

/** Starts an experiment: the versions to compare (the first is the baseline), the evaluators, how many runs at once. */
export function ExperimentForm({
  action,
  datasetId,
  versions,
}: {
  action: Action;
  datasetId: string;
  versions: VersionOption[];
}) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" } as EvalActionResult);
  const [evaluators, setEvaluators] = useState(DEFAULT_EVALUATORS);
  const problem = useMemo(() => evaluatorProblem(evaluators), [evaluators]);
  return (
    <Card className="grid gap-3 p-5">
      <h2 className="text-sm font-semibold">Run an experiment</h2>
      <ActionForm action={formAction} pending={pending} className="grid gap-3" data-testid="experiment-form">
        <input type="hidden" name="datasetId" value={datasetId} />
        <fieldset className="grid gap-1 text-sm">
          <legend className="mb-1 text-xs font-medium">Versions to compare (the first ticked is the baseline)</legend>
          {versions.length === 0 && <p className="text-xs text-muted">Save a version of a workflow first.</p>}
          {versions.map((v) => (
            <label key={`${v.workflowId}:${v.version}`} className="flex items-center gap-2">
              <input
                type="checkbox"
                name="variant"
                value={`${v.workflowId}:${v.version}`}
                data-testid={`experiment-version-${v.version}`}
              />
              {v.workflowName} v{v.version}
              {v.message ? <span className="text-xs text-muted">— {v.message}</span> : null}
            </label>
          ))}
        </fieldset>
        <div className="grid gap-3 sm:grid-cols-[2fr_1fr]">
          <FormField label="Name (optional)">
            <Input name="name" maxLength={100} />
          </FormField>
          <FormField label="Runs at once" hint="1–8; interactive runs always go first">
            <Input name="concurrency" type="number" min={1} max={8} defaultValue={4} />
          </FormField>
        </div>
        <FormField
          label="Evaluators (JSON)"
          error={problem ?? undefined}
          hint="exact, contains, regex, json_schema, numeric, length, latency, cost, judge — see docs/evaluations.md"
        >
          <Textarea
            name="evaluators"
            rows={10}
            className="font-mono text-xs"
            value={evaluators}
            onChange={(e) => setEvaluators(e.target.value)}
            data-testid="experiment-evaluators"
          />
        </FormField>
        <div>
          <SubmitButton disabled={problem !== null || versions.length === 0}>Start experiment</SubmitButton>
        </div>
      </ActionForm>
      {state.status === "error" && (
        <p className="text-sm text-danger" role="alert">
          {state.message}
        </p>
      )}
    </Card>
  );
}
