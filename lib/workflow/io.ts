import { SCHEMA_VERSION, workflowSchema, type Workflow } from "./schema";

/**
 * Workflow files: `exportWorkflow` writes pretty JSON with `schemaVersion` first; `importWorkflow`
 * reads one back (or any JSON a user pastes), migrating older schema versions step by step and
 * reporting every problem with its exact path (e.g. `nodes.2.branches.0.id`).
 */
export type ImportError = { path: (string | number)[]; message: string };
/** Either the parsed workflow or every problem found (never both). */
export type ImportWorkflowResult = { ok: true; workflow: Workflow } | { ok: false; errors: ImportError[] };

/**
 * Upgrades from version N to N+1, keyed by N. Empty while the schema is at version 1; a future
 * version 2 adds `1: (doc) => …` here and bumps SCHEMA_VERSION.
 */
export const migrations: Record<number, (doc: Record<string, unknown>) => Record<string, unknown>> = {};

/** Pretty JSON (2 spaces, trailing newline) with schemaVersion as the first key. */
export function exportWorkflow(doc: Workflow): string {
  const { schemaVersion: _ignored, ...rest } = doc;
  return `${JSON.stringify({ schemaVersion: SCHEMA_VERSION, ...rest }, null, 2)}\n`;
}

const fail = (message: string, path: (string | number)[] = []): ImportWorkflowResult => ({
  ok: false,
  errors: [{ path, message }],
});

/** Validates an already-parsed value as a workflow document (with migrations). */
export function parseWorkflow(value: unknown): ImportWorkflowResult {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return fail("A workflow must be a JSON object.");
  let doc = value as Record<string, unknown>;
  const version = doc.schemaVersion ?? SCHEMA_VERSION;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
    return fail("schemaVersion must be a positive integer.", ["schemaVersion"]);
  }
  if (version > SCHEMA_VERSION) {
    return fail(`This workflow uses schema version ${version}, newer than the supported version ${SCHEMA_VERSION}.`, [
      "schemaVersion",
    ]);
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    const step = migrations[v];
    if (!step) return fail(`No migration from schema version ${v}.`, ["schemaVersion"]);
    doc = { ...step(doc), schemaVersion: v + 1 };
  }
  const parsed = workflowSchema.safeParse({ ...doc, schemaVersion: SCHEMA_VERSION });
  if (parsed.success) return { ok: true, workflow: parsed.data };
  return {
    ok: false,
    errors: parsed.error.issues.map((i) => ({
      path: i.path.map((p) => (typeof p === "symbol" ? String(p) : p)),
      message: i.message,
    })),
  };
}

/** Parses workflow JSON text; never throws. */
export function importWorkflow(text: string): ImportWorkflowResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return fail(`Not valid JSON: ${(e as Error).message}`);
  }
  return parseWorkflow(value);
}

/** "nodes.2.branches.0.id: Required" — one line per error, for messages and logs. */
export function formatImportErrors(errors: readonly ImportError[]): string {
  return errors.map((e) => `${e.path.length > 0 ? e.path.join(".") : "(root)"}: ${e.message}`).join("\n");
}
