import type { Workflow } from "@/lib/workflow/schema";
import { parseWorkflowJson } from "./io-file";

/** Formats the editor imports: its own JSON, AutoAgent's workflow form (XML), MetaAgent's FSM (JSON). */
export type ImportFormat = "weft" | "autoagent" | "metaagent";

export type ImportResult = { ok: true; doc: Workflow; format: ImportFormat } | { ok: false; error: string };

/** Which format a file is, from its content (XML root `<workflow>`, JSON with `states`, else Weft JSON). */
export function detectFormat(text: string): ImportFormat {
  const head = text.trimStart();
  if (head.startsWith("<")) return "autoagent";
  try {
    const raw = JSON.parse(text) as Record<string, unknown> | null;
    if (raw && typeof raw === "object" && "states" in raw && "agents" in raw && !("nodes" in raw)) return "metaagent";
  } catch {
    return "weft";
  }
  return "weft";
}

/** Imports a file's text in whichever supported format it is. */
export function importWorkflowFile(text: string, _fileName: string): ImportResult {
  const format = detectFormat(text);
  switch (format) {
    case "weft": {
      const r = parseWorkflowJson(text);
      return r.ok ? { ok: true, doc: r.doc, format } : r;
    }
    case "autoagent":
    case "metaagent":
      return { ok: false, error: `Importing the ${format === "autoagent" ? "AutoAgent workflow form" : "MetaAgent FSM"} is not available yet.` };
  }
}
