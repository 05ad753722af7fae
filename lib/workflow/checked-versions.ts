import type { z } from "zod";
import type { ValidationIssue } from "./issues";
import { workflowSchema, type Workflow } from "./schema";
import { validate } from "./validate";

/** A document parsed with workflowSchema and validated (no registry context), or why it does not parse. */
export type CheckedDocument = { ok: true; workflow: Workflow; issues: readonly ValidationIssue[] } | { ok: false; error: z.ZodError };

/** Parses and validates a document. */
export function checkDocument(raw: unknown): CheckedDocument {
  const parsed = workflowSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: parsed.error };
  return { ok: true, workflow: parsed.data, issues: validate(parsed.data) };
}

const MAX_VERSIONS = 256;
const byVersion = new Map<string, CheckedDocument>();

/**
 * checkDocument for a saved workflow version, done once per version and process: a version's
 * document never changes once saved, and every run of it (the start request, then the worker that
 * opens it) would otherwise parse and validate the same document again. The answer is deeply
 * frozen, because runs share it. At most MAX_VERSIONS are kept; the least recently used goes first.
 * `raw` must be the stored document of `versionId`.
 */
export function checkVersion(versionId: string, raw: unknown): CheckedDocument {
  const hit = byVersion.get(versionId);
  if (hit) {
    byVersion.delete(versionId);
    byVersion.set(versionId, hit);
    return hit;
  }
  const checked = deepFreeze(checkDocument(raw));
  byVersion.set(versionId, checked);
  if (byVersion.size > MAX_VERSIONS) byVersion.delete(byVersion.keys().next().value!);
  return checked;
}

/** Versions currently kept (tests). */
export const checkedVersionCount = (): number => byVersion.size;

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
  return value;
}
