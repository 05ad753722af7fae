import type { DiffMark } from "@/components/terms/words";
import { diffDocuments } from "@/lib/workflow/diff";
import type { Workflow } from "@/lib/workflow/schema";

/** How an element of the draft differs from a version (components/terms). */
export type { DiffMark };

/** The visual diff of a version against the draft: marks per node/edge id, plus settings changes. */
export type VersionDiff = { marks: Map<string, DiffMark>; settings: string[]; count: number };

/**
 * Classifies diffDocuments(version → draft): added/changed/removed per node and edge id (moves count
 * as changes) and which workflow-level parts changed. Removed ids are those only the version has.
 */
export function versionDiff(version: Workflow, draft: Workflow): VersionDiff {
  const ops = diffDocuments(version, draft);
  const marks = new Map<string, DiffMark>();
  const settings: string[] = [];
  const mark = (id: string, m: DiffMark) => {
    if (marks.get(id) !== "added" && marks.get(id) !== "removed") marks.set(id, m);
  };
  for (const op of ops) {
    switch (op.type) {
      case "addNode":
        marks.set(op.node.id, "added");
        break;
      case "addEdge":
        marks.set(op.edge.id, "added");
        break;
      case "removeNode":
      case "removeEdge":
        marks.set(op.id, "removed");
        break;
      case "updateNode":
      case "moveNode":
      case "updateEdge":
        mark(op.id, "changed");
        break;
      case "renameNode":
        mark(op.newId, "changed");
        break;
      case "addAgent":
      case "updateAgent":
      case "removeAgent":
        settings.push(`agent ${"key" in op ? op.key : op.agent.key}`);
        break;
      case "setInputs":
      case "setOutputs":
      case "setVariables":
      case "setLimits":
      case "setInfo":
        settings.push(op.type.slice(3).toLowerCase());
        break;
      case "reorder":
        break;
    }
  }
  const draftEdges = new Set(draft.edges.map((e) => e.id));
  for (const e of version.edges) if (!draftEdges.has(e.id)) marks.set(e.id, "removed");
  return { marks, settings, count: ops.filter((o) => o.type !== "reorder").length };
}
