import { importAutoAgentXml } from "@/lib/workflow/importers/autoagent-xml";
import type { ImportResult as SeedImportResult } from "@/lib/workflow/importers/common";
import { importMetaAgentFsm } from "@/lib/workflow/importers/metaagent-fsm";
import type { Workflow } from "@/lib/workflow/schema";
import { parseWorkflowJson } from "./io-file";

/** Formats the editor imports: its own JSON, AutoAgent's workflow form (XML), MetaAgent's FSM (JSON). */
export type ImportFormat = "weft" | "autoagent" | "metaagent";

export type ImportResult =
  { ok: true; doc: Workflow; format: ImportFormat; warnings: string[] } | { ok: false; error: string };

/** Which format a file is, from its content (XML root `<workflow>`, JSON with `states`, else Weft JSON). */
export function detectFormat(text: string): ImportFormat {
  if (text.trimStart().startsWith("<")) return "autoagent";
  try {
    const raw = JSON.parse(text) as Record<string, unknown> | null;
    if (raw && typeof raw === "object" && "states" in raw && "agents" in raw && !("nodes" in raw)) return "metaagent";
  } catch {
    return "weft";
  }
  return "weft";
}

function fromSeed(r: SeedImportResult, format: ImportFormat, label: string): ImportResult {
  if (r.ok) return { ok: true, doc: r.workflow, format, warnings: r.issues.map((i) => i.message) };
  const first = r.issues.find((i) => i.severity === "error") ?? r.issues[0];
  return {
    ok: false,
    error: `Could not import the ${label}: ${first ? `${first.message}${first.line ? ` (line ${first.line})` : ""}` : "invalid file"}`,
  };
}

/** Imports a file's text in whichever supported format it is. */
export function importWorkflowFile(text: string): ImportResult {
  const format = detectFormat(text);
  switch (format) {
    case "weft": {
      const r = parseWorkflowJson(text);
      return r.ok ? { ok: true, doc: r.doc, format, warnings: [] } : r;
    }
    case "autoagent":
      return fromSeed(importAutoAgentXml(text), format, "AutoAgent workflow form");
    case "metaagent":
      return fromSeed(importMetaAgentFsm(text), format, "MetaAgent FSM");
  }
}
