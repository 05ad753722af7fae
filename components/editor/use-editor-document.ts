"use client";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import type { ValidationContext, ValidationIssue } from "@/lib/workflow/validate";
import type { Workflow } from "@/lib/workflow/schema";
import { commit, createHistory, redo, undo, type History } from "./history";
import { editorIssues } from "./validation";

/** The result of an edit: the next document, or why the model refuses it (shown as a toast). */
export type EditResult = { ok: true; doc: Workflow } | { ok: false; error: string };

const NO_ISSUES: ValidationIssue[] = [];

/** False until the browser is first idle after mounting (requestIdleCallback, at most 300 ms; a timer where it is missing). */
function useIdleFlag(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof requestIdleCallback === "function") {
      const id = requestIdleCallback(() => setIdle(true), { timeout: 300 });
      return () => cancelIdleCallback(id);
    }
    const t = setTimeout(() => setIdle(true), 0);
    return () => clearTimeout(t);
  }, []);
  return idle;
}

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
  const initialRef = useRef(history.present);
  const [saved, setSaved] = useState<Workflow>(initial);
  const ref = useRef(history);
  ref.current = history;

  const set = useCallback((h: History) => {
    ref.current = h;
    setHistory(h);
  }, []);

  const apply = useCallback(
    (edit: Edit) => {
      const result = edit(ref.current.present);
      if (!result.ok) {
        toast.error(result.error);
        return false;
      }
      set(commit(ref.current, result.doc));
      return true;
    },
    [set],
  );

  const replace = useCallback((doc: Workflow) => set(commit(ref.current, doc)), [set]);
  const doUndo = useCallback(() => set(undo(ref.current)), [set]);
  const doRedo = useCallback(() => set(redo(ref.current)), [set]);
  // The opened document is validated once the browser is idle after the first paint (its issues show
  // a moment later): validation is no work before the canvas is drawn and answers. Every document an
  // edit makes is validated as it is made; a drag changes only positions and reuses the previous
  // document's issues (see validation.ts).
  const openedValidated = useIdleFlag();
  const pending = !openedValidated && history.present === initialRef.current;
  const issues = useMemo(
    () => (pending ? NO_ISSUES : editorIssues(history.present, [history.past.at(-1), history.future[0]], context)),
    [pending, history, context],
  );

  // One object per state, so callers' memoised callbacks depending on it change only with the document.
  return useMemo(
    () => ({
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
    }),
    [history, issues, saved, apply, replace, doUndo, doRedo],
  );
}
