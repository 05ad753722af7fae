"use client";
import { useActionState } from "react";
import { ActionForm } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input, Select, Textarea } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import type { EvalActionResult } from "@/lib/evals/dto";

type Action = (prev: EvalActionResult, form: FormData) => Promise<EvalActionResult>;

/**
 * Imports a CSV or JSONL file (or pasted rows) into a dataset. All or nothing: a refused import
 * lists every bad row with its line, and nothing was stored.
 */
export function ImportForm({ action, datasetId, columns }: { action: Action; datasetId: string; columns: string[] }) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" } as EvalActionResult);
  return (
    <Card className="grid gap-3 p-5">
      <h2 className="text-sm font-semibold">Import rows</h2>
      <p className="text-xs text-muted">
        CSV with a header row: {columns.length ? columns.map((c) => <code key={c} className="mr-1">{c}</code>) : "your input fields"}, then
        <code className="mx-1">expected</code> (or <code>expected.&lt;output&gt;</code>) and <code>tags</code> (separated by <code>;</code>).
        JSONL: one <code>{'{"inputs": {…}, "reference": …, "tags": […]}'}</code> per line.
      </p>
      <ActionForm action={formAction} pending={pending} className="grid gap-3" data-testid="dataset-import">
        <input type="hidden" name="datasetId" value={datasetId} />
        <div className="grid gap-3 sm:grid-cols-[2fr_1fr]">
          <FormField label="File (.csv, .jsonl)">
            <Input type="file" name="file" accept=".csv,.jsonl,.ndjson,text/csv" data-testid="dataset-import-file" />
          </FormField>
          <FormField label="Format of pasted rows">
            <Select name="format" defaultValue="csv">
              <option value="csv">CSV</option>
              <option value="jsonl">JSONL</option>
            </Select>
          </FormField>
        </div>
        <FormField label="Or paste rows">
          <Textarea name="text" rows={4} className="font-mono text-xs" data-testid="dataset-import-text" />
        </FormField>
        <div><SubmitButton>Import</SubmitButton></div>
      </ActionForm>
      {state.status === "ok" && <p className="text-sm text-success" role="status" data-testid="dataset-import-ok">{state.message}</p>}
      {state.status === "error" && (
        <div role="alert" className="grid gap-1 text-sm text-danger" data-testid="dataset-import-errors">
          <p>{state.message}</p>
          {state.rowErrors && (
            <ul className="list-disc pl-5 text-xs">
              {state.rowErrors.map((e) => (
                <li key={`${e.line}-${e.message}`} data-testid="dataset-import-error">{e.row ? `Row ${e.row} (line ${e.line})` : `Line ${e.line}`}: {e.message}</li>
              ))}
              {(state.errorCount ?? 0) > state.rowErrors.length && <li>… and {state.errorCount! - state.rowErrors.length} more</li>}
            </ul>
          )}
        </div>
      )}
    </Card>
  );
}
