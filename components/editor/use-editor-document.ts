"use client";
import { useCallback, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import type { ValidationContext, ValidationIssue } from "@/lib/workflow/validate";
import type { Workflow } from "@/lib/workflow/schema";
import { commit, createHistory, redo, undo, type History } from "./history";
import { editorIssues } from "./validation";

/** The result of an edit: the next document, or why the model refuses it (shown as a toast). */
export type EditResult = { ok: true; doc: Workflow } | { ok: false; error: string };

/** An edit: a pure function of the current document (built from lib/workflow operations). */
export type Edit = (doc: Workflow) => EditResult;

/** Editor state: the document history, what was last saved, and the document's validation issues. */
export type EditorDocument = {
  doc: Workflow;
  issues: ValidationIssue[];
  dirty: boolean;
  canUndo: boolean;
  canRedo: boolean;
  /** Applies an edit as one undoable step; returns false (after a toast) when it is refused. */
  apply: (edit: Edit) => boolean;
  /** Replaces the document as one undoable step (restore a version, import a file). */
  replace: (doc: Workflow) => void;
  undo: () => void;
  redo: () => void;
  /** Records `doc` as the saved state (clears `dirty` while it is the present document). */
  markSaved: (doc: Workflow) => void;
};

/**
 * Holds the workflow document being edited; every change is a new document in the history. Issues
 * are validated under `context` (the owner's workflows for subflow nodes; default none), which
 * should keep its identity while the editor lives (validation results are cached per context).
 */
export function useEditorDocument(initial: Workflow, context?: ValidationContext): EditorDocument {
  const [history, setHistory] = useState<History>(() => createHistory(initial));
  const [saved, setSaved] = useState<Workflow>(initial);
  const ref = useRef(history);
  ref.current = history;

  const set = useCallback((h: History) => {
    ref.current = h;
    setHistory(h);
  }, []);

  const apply = useCallback((edit: Edit) => {
    const result = edit(ref.current.present);
    if (!result.ok) {
      toast.error(result.error);
      return false;
    }
    set(commit(ref.current, result.doc));
    return true;
  }, [set]);

  const replace = useCallback((doc: Workflow) => set(commit(ref.current, doc)), [set]);
  const doUndo = useCallback(() => set(undo(ref.current)), [set]);
  const doRedo = useCallback(() => set(redo(ref.current)), [set]);
  // A drag changes only positions: the previous document's issues are reused (see validation.ts).
  const issues = useMemo(() => editorIssues(history.present, [history.past.at(-1), history.future[0]], context), [history, context]);

  // One object per state, so callers' memoised callbacks depending on it change only with the document.
  return useMemo(() => ({
    doc: history.present,
    issues,
    dirty: history.present !== saved,
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
    apply,
    replace,
    undo: doUndo,
    redo: doRedo,
    markSaved: setSaved,
  }), [history, issues, saved, apply, replace, doUndo, doRedo]);
}
