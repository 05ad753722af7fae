"use client";
import { useReactFlow } from "@xyflow/react";
import { useMemo, useRef } from "react";
import * as ops from "./editor-ops";
import type { EditorDocument } from "./use-editor-document";
import { keys, useShortcuts, type Shortcut } from "./use-shortcuts";
import type { CanvasSelection } from "./workflow-canvas";

type Deps = {
  editor: EditorDocument;
  selection: CanvasSelection;
  save: () => Promise<boolean>;
  autoLayout: () => Promise<void>;
  openHelp: () => void;
};

/** The editor's keyboard shortcuts (also listed in the help dialog). */
export function useEditorShortcuts({ editor, selection, save, autoLayout, openHelp }: Deps): Shortcut[] {
  const flow = useReactFlow();
  const clipboard = useRef<ops.Clip | null>(null);
  const shortcuts = useMemo<Shortcut[]>(
    () => [
      { keys: "Ctrl+Z", description: "Undo", match: keys.mod("z"), run: editor.undo },
      {
        keys: "Ctrl+Shift+Z / Ctrl+Y",
        description: "Redo",
        match: (e) => keys.mod("z", true)(e) || keys.mod("y")(e),
        run: editor.redo,
      },
      { keys: "Ctrl+S", description: "Save draft", match: keys.mod("s"), run: () => void save() },
      {
        keys: "Ctrl+C",
        description: "Copy selected nodes",
        match: keys.mod("c"),
        run: () => {
          clipboard.current = ops.copySelection(editor.doc, selection.nodes);
        },
      },
      {
        keys: "Ctrl+V",
        description: "Paste",
        match: keys.mod("v"),
        run: () => {
          if (clipboard.current) editor.apply(ops.paste(clipboard.current));
        },
      },
      {
        keys: "Ctrl+D",
        description: "Duplicate selected nodes",
        match: keys.mod("d"),
        run: () => editor.apply(ops.paste(ops.copySelection(editor.doc, selection.nodes))),
      },
      {
        keys: "Delete / Backspace",
        description: "Delete selection",
        match: keys.plain("Delete", "Backspace"),
        run: () => editor.apply(ops.removeElements(selection.nodes, selection.edges)),
      },
      {
        keys: "Ctrl+A",
        description: "Select all",
        match: keys.mod("a"),
        run: () => {
          flow.setNodes((ns) => ns.map((n) => ({ ...n, selected: true })));
          flow.setEdges((es) => es.map((e) => ({ ...e, selected: true })));
        },
      },
      {
        keys: "Shift+L",
        description: "Auto-layout",
        match: (e) => e.shiftKey && !e.ctrlKey && !e.metaKey && e.key === "L",
        run: () => void autoLayout(),
      },
      {
        keys: "F",
        description: "Fit view",
        match: keys.plain("f"),
        run: () => void flow.fitView({ duration: 300, maxZoom: 1 }),
      },
      { keys: "?", description: "This help", match: (e) => e.key === "?", run: openHelp },
    ],
    [editor, selection, save, autoLayout, openHelp, flow],
  );
  useShortcuts(shortcuts);
  return shortcuts;
}
