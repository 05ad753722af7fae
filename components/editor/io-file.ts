"use client";
import { workflowSchema, type Workflow } from "@/lib/workflow/schema";

/** Saves the document as a pretty-printed JSON file named after the workflow. */
export function downloadJson(doc: Workflow): void {
  const blob = new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = `${doc.name.replace(/[^A-Za-z0-9_-]+/g, "-").toLowerCase() || "workflow"}.weft.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Parses an imported JSON workflow; an error message names what is wrong. */
export function parseWorkflowJson(text: string): { ok: true; doc: Workflow } | { ok: false; error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: "The file is not JSON." };
  }
  const parsed = workflowSchema.safeParse(raw);
  if (parsed.success) return { ok: true, doc: parsed.data };
  const first = parsed.error.issues[0];
  return { ok: false, error: `Not a Weft workflow: ${first ? `${first.path.join(".") || "(root)"}: ${first.message}` : "invalid"}` };
}
