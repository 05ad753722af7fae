import type { z } from "zod";
import type { ValidationIssue } from "./issues";
import { workflowSchema, type Workflow } from "./schema";
import { validate } from "./validate";

/** A document parsed with workflowSchema and validated (no registry context), or why it does not parse. */
export type CheckedDocument =
  { ok: true; workflow: Workflow; issues: readonly ValidationIssue[] } | { ok: false; error: z.ZodError };

/** Parses and validates a document. */
export function checkDocument(raw: unknown): CheckedDocument {
  const parsed = workflowSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: parsed.error };
  return { ok: true, workflow: parsed.data, issues: validate(parsed.data) };
}

/** At most this many versions are kept… */
export const MAX_CHECKED_VERSIONS = 256;
/** …holding at most this many nodes in all (a 2,000-node graph is kept; a few hundred of them are not). */
export const MAX_CHECKED_NODES = 20_000;
const byVersion = new Map<string, { checked: CheckedDocument; nodes: number }>();
let keptNodes = 0;

/**
 * checkDocument for a saved workflow version, done once per version and process: a version's
 * document never changes once saved, and every run of it (the start request, then the worker that
 * opens it) would otherwise parse and validate the same document again. The answer is deeply
 * frozen, because runs share it. The least recently used versions go first once more than
 * MAX_CHECKED_VERSIONS or MAX_CHECKED_NODES are kept. `raw` must be the stored document of `versionId`.
 */
export function checkVersion(versionId: string, raw: unknown): CheckedDocument {
  const hit = byVersion.get(versionId);
  if (hit) {
    byVersion.delete(versionId);
    byVersion.set(versionId, hit);
    return hit.checked;
  }
  const checked = deepFreeze(checkDocument(raw));
  const nodes = checked.ok ? checked.workflow.nodes.length : 0;
  if (nodes > MAX_CHECKED_NODES) return checked; // would push out everything else
  byVersion.set(versionId, { checked, nodes });
  keptNodes += nodes;
  while (byVersion.size > MAX_CHECKED_VERSIONS || keptNodes > MAX_CHECKED_NODES) {
    const [oldest, entry] = byVersion.entries().next().value!;
    byVersion.delete(oldest);
    keptNodes -= entry.nodes;
  }
  return checked;
}

/** The kept check of `versionId`, if this process has one (no document to parse otherwise). */
export function keptVersion(versionId: string): CheckedDocument | undefined {
  return byVersion.get(versionId)?.checked;
}

/** Versions and nodes currently kept (tests). */
export const checkedVersionCount = (): number => byVersion.size;
export const checkedNodeCount = (): number => keptNodes;

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
  return value;
}
