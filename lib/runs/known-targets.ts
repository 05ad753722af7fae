import "server-only";
import type { Workflow } from "@/lib/workflow/schema";

/** What a run starts from: a saved version of the owner's workflow and its checked document. */
export interface RunTarget {
  versionId: string;
  version: number;
  workflowName: string;
  document: Workflow;
}

/** Targets kept per process; the oldest is dropped beyond this. */
export const KNOWN_TARGETS_MAX = 1_000;

const g = globalThis as unknown as { __weftKnownTargets?: Map<string, RunTarget> };
const targets = (): Map<string, RunTarget> => (g.__weftKnownTargets ??= new Map());
const keyOf = (workspaceId: string, workflowId: string, version?: number) =>
  `${workspaceId}\u0000${workflowId}\u0000${version ?? ""}`;

/**
 * The saved version this process last started for (owner, workflow, requested version): a hint
 * that lets the next start skip reading its target. Never trusted alone: the run's insert is
 * guarded by it (lib/run-store/run-insert.ts), and a start whose guard fails forgets it and reads the
 * target as usual.
 */
export function knownTarget(workspaceId: string, workflowId: string, version?: number): RunTarget | undefined {
  return targets().get(keyOf(workspaceId, workflowId, version));
}

/** Keeps a target read from PostgreSQL that a later start may guard its insert with. */
export function rememberTarget(
  workspaceId: string,
  workflowId: string,
  version: number | undefined,
  target: RunTarget,
): void {
  const map = targets();
  const key = keyOf(workspaceId, workflowId, version);
  map.delete(key);
  map.set(key, target);
  if (map.size > KNOWN_TARGETS_MAX) map.delete(map.keys().next().value!);
}

/** Drops a target whose guard failed (the workflow was edited, renamed, deleted or saved again). */
export function forgetTarget(workspaceId: string, workflowId: string, version?: number): void {
  targets().delete(keyOf(workspaceId, workflowId, version));
}
