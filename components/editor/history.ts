import type { Workflow } from "@/lib/workflow/schema";

/**
 * Undo/redo as a history of whole documents (each edit operation yields a new immutable document,
 * so a step back is just the previous document). Pure; the editor keeps one in React state.
 */
export type History = { past: Workflow[]; present: Workflow; future: Workflow[] };

/** How many documents undo can go back (default 200; older ones are dropped). */
export const HISTORY_LIMIT = 200;

/** A fresh history whose only document is `doc`. */
export const createHistory = (doc: Workflow): History => ({ past: [], present: doc, future: [] });

/** Records `next` as the new present (a no-op when it is the same object); clears redo. */
export function commit(h: History, next: Workflow, limit = HISTORY_LIMIT): History {
  if (next === h.present) return h;
  const past = [...h.past, h.present];
  return { past: past.length > limit ? past.slice(past.length - limit) : past, present: next, future: [] };
}

/** Steps back one document (no-op at the start). */
export function undo(h: History): History {
  const prev = h.past.at(-1);
  if (!prev) return h;
  return { past: h.past.slice(0, -1), present: prev, future: [h.present, ...h.future] };
}

/** Steps forward one document (no-op at the end). */
export function redo(h: History): History {
  const [next, ...rest] = h.future;
  if (!next) return h;
  return { past: [...h.past, h.present], present: next, future: rest };
}
