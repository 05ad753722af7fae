import type { ReactNode } from "react";
import type { ValidationIssue } from "@/lib/workflow/validate";
import type { Workflow } from "@/lib/workflow/schema";
import type { NodeRunState } from "./flow-mapping";

/** What a server action returns to the editor: data, or a message to show. */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string };

/** A saved version as listed in the history panel. */
export type VersionItem = { id: string; version: number; message: string; createdAt: string };

/**
 * The server side of the editor, passed in by the route (components never import app/ or lib/db).
 * Each is a server action scoped by the signed-in user.
 */
export type EditorServerActions = {
  saveDraft: (workflowId: string, doc: Workflow) => Promise<ActionResult<{ savedAt: string }>>;
  saveVersion: (workflowId: string, doc: Workflow, message: string) => Promise<ActionResult<VersionItem>>;
  listVersions: (workflowId: string) => Promise<ActionResult<VersionItem[]>>;
  getVersion: (workflowId: string, versionId: string) => Promise<ActionResult<Workflow>>;
  restoreVersion: (workflowId: string, versionId: string) => Promise<ActionResult<Workflow>>;
};

/** What the run panel (rendered by the route, which may read the engine's event schema) gets. */
export type RunPanelContext = {
  workflowId: string;
  doc: Workflow;
  /** Error-level validation issues: a run is refused while any remains. */
  blockers: ValidationIssue[];
  /** Saves the draft first (a run starts from the saved document); false when saving failed. */
  save: () => Promise<boolean>;
  /** Shows (or, with undefined, clears) the live run overlay on the canvas. */
  setRunOverlay: (overlay: ReadonlyMap<string, NodeRunState> | undefined) => void;
};

export type RenderRunPanel = (ctx: RunPanelContext) => ReactNode;
