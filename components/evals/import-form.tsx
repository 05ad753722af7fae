"use client";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input, Select, Textarea } from "@/components/ui/input";
import type { EvalActionResult, RowErrorView } from "@/lib/evals/dto";

/** The import's answer as the form shows it (the route's 201, or its error with every bad row). */
async function send(datasetId: string, format: "csv" | "jsonl", body: Blob | string): Promise<EvalActionResult> {
  let res: Response;
  try {
    res = await fetch(`/api/datasets/${encodeURIComponent(datasetId)}/rows`, {
      method: "POST",
      headers: { "content-type": format === "csv" ? "text/csv" : "application/x-ndjson" },
      body,
    });
  } catch {
    return { status: "error", message: "The import did not reach the server. Check your connection and retry." };
  }
  const answer = (await res.json().catch(() => null)) as {
    added?: number;
    version?: number;
    error?: { message?: string; details?: { errors?: RowErrorView[]; errorCount?: number } };
  } | null;
  if (res.ok)
    return { status: "ok", message: `${answer?.added ?? 0} rows imported (version ${answer?.version ?? "?"}).` };
  const details = answer?.error?.details;
  return {
    status: "error",
    message: answer?.error?.message ?? `The import failed (${res.status}).`,
    ...(details?.errors ? { rowErrors: details.errors, errorCount: details.errorCount } : {}),
  };
}

/**
 * Imports a CSV or JSONL file (or pasted rows) into a dataset through POST /api/datasets/<id>/rows.
 * All or nothing: a refused import lists every bad row with its line, and nothing was stored.
 */
export function ImportForm({ datasetId, columns }: { datasetId: string; columns: string[] }) {
  const router = useRouter();
  const [state, setState] = useState<EvalActionResult>({ status: "idle" });
  const [pending, setPending] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const file = form.get("file");
    const pasted = String(form.get("text") ?? "");
    const fromFile = file instanceof File && file.size > 0;
    if (!fromFile && !pasted.trim()) return setState({ status: "error", message: "Choose a file or paste rows." });
    const name = fromFile ? file.name.toLowerCase() : "";
    const format =
      form.get("format") === "jsonl" || name.endsWith(".jsonl") || name.endsWith(".ndjson") ? "jsonl" : "csv";
    setPending(true);
    const answer = await send(datasetId, format, fromFile ? file : pasted);
    setPending(false);
    setState(answer);
    if (answer.status === "ok") router.refresh();
  };
  return (
    <Card className="grid gap-3 p-5">
      <h2 className="text-sm font-semibold">Import rows</h2>
      <p className="text-xs text-muted">
        CSV with a header row:{" "}
        {columns.length
          ? columns.map((c) => (
              <code key={c} className="mr-1">
                {c}
              </code>
            ))
          : "your input fields"}
        , then
        <code className="mx-1">expected</code> (or <code>expected.&lt;output&gt;</code>) and <code>tags</code>{" "}
        (separated by <code>;</code>). JSONL: one <code>{'{"inputs": {…}, "reference": …, "tags": […]}'}</code> per
        line. Up to 5,000 rows and 5 MB.
      </p>
      <form onSubmit={(e) => void submit(e)} className="grid gap-3" data-testid="dataset-import">
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
        <div>
          <Button type="submit" loading={pending}>
            Import
          </Button>
        </div>
      </form>
      {state.status === "ok" && (
        <p className="text-sm text-success" role="status" data-testid="dataset-import-ok">
          {state.message}
        </p>
      )}
      {state.status === "error" && (
        <div role="alert" className="grid gap-1 text-sm text-danger" data-testid="dataset-import-errors">
          <p>{state.message}</p>
          {state.rowErrors && (
            <ul className="list-disc pl-5 text-xs">
              {state.rowErrors.map((e) => (
                <li key={`${e.line}-${e.message}`} data-testid="dataset-import-error">
                  {e.row ? `Row ${e.row} (line ${e.line})` : `Line ${e.line}`}: {e.message}
                </li>
              ))}
              {(state.errorCount ?? 0) > state.rowErrors.length && (
                <li>… and {state.errorCount! - state.rowErrors.length} more</li>
              )}
            </ul>
          )}
        </div>
      )}
    </Card>
  );
}
