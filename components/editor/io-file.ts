"use client";
import { exportWorkflow, formatImportErrors, importWorkflow } from "@/lib/workflow/io";
import type { Workflow } from "@/lib/workflow/schema";

/** Saves the document as lib/workflow's JSON export (schemaVersion first), named after the workflow. */
export function downloadJson(doc: Workflow): void {
  const blob = new Blob([exportWorkflow(doc)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = `${doc.name.replace(/[^A-Za-z0-9_-]+/g, "-").toLowerCase() || "workflow"}.weft.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Parses an imported Weft JSON workflow (with schema migrations); the error names what is wrong. */
export function parseWorkflowJson(text: string): { ok: true; doc: Workflow } | { ok: false; error: string } {
  const r = importWorkflow(text);
  return r.ok
    ? { ok: true, doc: r.workflow }
    : { ok: false, error: `Not a Weft workflow: ${formatImportErrors(r.errors.slice(0, 3))}` };
}
