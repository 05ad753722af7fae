import type { WorkflowNode } from "@/lib/workflow/schema";

/**
 * The words the canvas, the run dashboard, the share page and the designer's proposal use for the
 * same things: a node's title, a join, a loop edge's cap, and a proposal's diff marks.
 */

/** A node's title wherever it is named: its name, or its id when it has none. */
export const nodeTitle = (node: Pick<WorkflowNode, "id" | "name">): string => node.name.trim() || node.id;

/** The join badge of a node with `incoming` > 1 forward edges: "all of 3" (waits for every one) or "any of 3". */
export const joinBadge = (join: WorkflowNode["join"], incoming: number): string => `${join} of ${incoming}`;

/** What the join badge means (its tooltip). */
export const joinHint = (join: WorkflowNode["join"], incoming: number): string =>
  join === "all"
    ? `Join: starts once all ${incoming} incoming edges have delivered`
    : `Join: starts on the first of its ${incoming} incoming edges`;

/** A loop edge's label: its iteration cap ("?" while missing). */
export const loopLabel = (maxIterations: number | undefined): string => `↺ ≤ ${maxIterations ?? "?"}`;

/** What a loop edge's label means (its tooltip). */
export const loopHint = (maxIterations: number | undefined): string =>
  maxIterations === undefined
    ? "Loop edge without an iteration cap (click to set one)"
    : `Loop edge: goes back at most ${maxIterations} times (click to edit)`;

/** How a proposal or a version comparison marks a node or edge. */
export type DiffMark = "added" | "changed" | "removed";

/** Diff marks: the word and colour family (badge tone, canvas ring) shared by the proposal card, its canvas preview and version comparison. */
export const DIFF_TERMS: Readonly<
  Record<DiffMark, { label: string; tone: "success" | "warning" | "danger"; ring: string; stroke: string }>
> = {
  added: { label: "added", tone: "success", ring: "ring-2 ring-success", stroke: "var(--success)" },
  changed: { label: "changed", tone: "warning", ring: "ring-2 ring-warning", stroke: "var(--warning)" },
  removed: { label: "removed", tone: "danger", ring: "ring-2 ring-danger opacity-60", stroke: "var(--danger)" },
};

/** An experiment cell's verdict: the word and badge tone the results page and the API's readers share. */
export const VERDICT_TERMS = {
  pass: { label: "pass", tone: "success" },
  fail: { label: "fail", tone: "danger" },
  none: { label: "no verdict", tone: "neutral" },
  regression: { label: "regression", tone: "warning" },
} as const;

/**
 * The "now writing" line of a node whose step's model is writing (live text, ephemeral): the last
 * words it wrote, or the tool it just started calling.
 */
export function nowWriting(live: { text: string; tool?: string }, chars = 80): string {
  const tail = live.text.replace(/\s+/g, " ").trimEnd();
  const words = tail.length > chars ? `…${tail.slice(-chars)}` : tail;
  return live.tool && !words ? `calling ${live.tool}…` : words ? `writing: ${words}` : "writing…";
}
