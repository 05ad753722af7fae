import type { OperationGroup } from "@/lib/workflow/diff";
import type { Workflow } from "@/lib/workflow/schema";
import type { LocalFix } from "./fixes";
import type { EditOperation, Profile } from "./schemas";
import type { Usage } from "./model";

/**
 * What the designer streams to the UI, one event per step. A typed union: the chat panel switches on
 * `type`. Only `done` carries a workflow, and only a validated one; everything earlier is progress.
 */

/** Pipeline stages; for a new workflow profile and emit happen in ONE model call ("design"). */
export type Stage = "design" | "edit" | "validate" | "repair" | "optimise" | "layout" | "dry_run";

/** A problem in a proposal: validator issues (lib/workflow codes) or designer issues (e.g. unknown_node_kind). */
export type DesignerIssue = {
  code: string;
  message: string;
  severity?: "error" | "warning";
  nodeId?: string;
  edgeId?: string;
  branchId?: string;
  agentKey?: string;
  /** The templated field the issue is in (lib/workflow's `field`, e.g. "task"). */
  field?: string;
  /** Where in the model's answer it is, as a schema path (e.g. "design.nodes[2].task"). */
  path?: string;
};

/** A tool the design uses that the registry lacks: a visible placeholder until someone creates it. */
export type ToolToCreate = { name: string; purpose: string; usedBy: string[] };

/** Node ids added, removed and changed relative to the base graph (all "added" for a new design). */
export type NodeDiff = { added: string[]; removed: string[]; changed: string[] };

/** The final, validated and laid-out proposal. Never saved by the designer itself. */
export interface DesignResult {
  workflow: Workflow;
  /** The graph the edit started from (absent for a new workflow). */
  base?: Workflow;
  diff: NodeDiff;
  /**
   * The proposal as lib/workflow operations grouped per node (diffGrouped(base or an empty
   * workflow, workflow)): what the canvas offers to accept change by change.
   */
  changes: OperationGroup[];
  summary: string;
  profile?: Profile;
  operations?: EditOperation[];
  toCreate: ToolToCreate[];
  /** Issues that remain only because of "to create" tools (code tool_placeholder). */
  pendingIssues: DesignerIssue[];
  /** Every local repair made along the way. */
  fixes: LocalFix[];
  /** Agents merged by the optimisation step. */
  merged: { kept: string; removed: string }[];
  /** The dry run's outcome; `skipped` (with ok true) when the proposal could not be dry-run, the trace saying why. */
  dryRun?: { ok: boolean; trace: string; skipped?: boolean };
  usage: Usage;
}

export type DesignerEvent =
  | { type: "stage_started"; stage: Stage; attempt: number }
  /** What the model proposed (before validation): a summary, never a graph to show as valid. */
  /** The summary the model is writing, so far (its answer still streaming): the chat shows it growing. */
  | { type: "drafting"; attempt: number; summary: string }
  | {
      type: "proposal";
      attempt: number;
      summary: string;
      profile?: Profile;
      operations?: EditOperation[];
      nodes?: number;
      edges?: number;
    }
  | { type: "issues_found"; attempt: number; issues: DesignerIssue[] }
  /** `summary`: the fixes counted by kind, e.g. "3 ids renamed, 1 agent created". */
  | { type: "repaired"; attempt: number; by: "local" | "model"; fixes: LocalFix[]; summary: string }
  | { type: "done"; result: DesignResult }
  | {
      type: "failed";
      reason: "invalid" | "cancelled" | "model_error";
      message: string;
      issues: DesignerIssue[];
      usage: Usage;
    };
