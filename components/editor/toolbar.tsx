"use client";
import { memo, useRef, type RefObject } from "react";
import { Button } from "@/components/ui/button";

type Props = {
  name: string;
  dirty: boolean;
  saving: boolean;
  canUndo: boolean;
  canRedo: boolean;
  errorCount: number;
  onSave: () => void;
  onSaveVersion: () => void;
  onUndo: () => void;
  onRedo: () => void;
  onLayout: () => void;
  onExport: () => void;
  /** A chosen file's text (the editor decides the format). */
  onImport: (text: string, fileName: string) => void;
  onHelp: () => void;
  /** The member's role when it may not change the workflow: the bar shows it instead of editing and saving. */
  readOnlyRole?: string;
};

/** The editor's top bar: name, save state, history, layout, import/export, help. Memoised: it changes with the document, not the selection. */
export const Toolbar = memo(function Toolbar(p: Props) {
  const file = useRef<HTMLInputElement>(null);
  return (
    <div
      className="flex flex-wrap items-center gap-2 border-b border-border bg-surface px-3 py-2"
      role="toolbar"
      aria-label="Editor"
    >
      <h1 className="mr-2 truncate text-sm font-semibold" data-testid="editor-title">
        {p.name}
      </h1>
      {p.readOnlyRole ? (
        <span className="rounded bg-surface-2 px-2 py-0.5 text-xs text-muted" data-testid="read-only">
          Read only: your role here is {p.readOnlyRole}
        </span>
      ) : (
        <EditControls {...p} file={file} />
      )}
      <Button size="sm" variant="ghost" onClick={p.onHelp} title="Keyboard shortcuts (?)" data-testid="help">
        ?
      </Button>
      <span className="ml-auto flex items-center gap-2">
        {p.errorCount > 0 && (
          <span className="text-xs text-danger" data-testid="error-count">
            {p.errorCount} issue(s) block running
          </span>
        )}
        {!p.readOnlyRole && (
          <>
            <Button
              size="sm"
              variant="outline"
              onClick={p.onSave}
              disabled={p.saving}
              title="Save draft (Ctrl+S)"
              data-testid="save"
            >
              Save draft
            </Button>
            <Button size="sm" onClick={p.onSaveVersion} disabled={p.saving} data-testid="save-version">
              Save version
            </Button>
          </>
        )}
      </span>
    </div>
  );
});

/** Save state, history, layout, export and import: what a member who may edit gets. */
function EditControls(p: Props & { file: RefObject<HTMLInputElement | null> }) {
  const file = p.file;
  return (
    <>
      <span className="text-xs text-muted" data-testid="save-state">
        {p.saving ? "Saving…" : p.dirty ? "Unsaved changes" : "Saved"}
      </span>
      <span className="mx-1 h-5 w-px bg-border" />
      <Button
        size="sm"
        variant="ghost"
        onClick={p.onUndo}
        disabled={!p.canUndo}
        title="Undo (Ctrl+Z)"
        data-testid="undo"
      >
        Undo
      </Button>
      <Button
        size="sm"
        variant="ghost"
        onClick={p.onRedo}
        disabled={!p.canRedo}
        title="Redo (Ctrl+Shift+Z)"
        data-testid="redo"
      >
        Redo
      </Button>
      <Button size="sm" variant="ghost" onClick={p.onLayout} title="Auto-layout (Shift+L)" data-testid="layout">
        Auto-layout
      </Button>
      <span className="mx-1 h-5 w-px bg-border" />
      <Button size="sm" variant="ghost" onClick={p.onExport} data-testid="export">
        Export
      </Button>
      <Button size="sm" variant="ghost" onClick={() => file.current?.click()} data-testid="import">
        Import
      </Button>
      <input
        ref={file}
        type="file"
        accept=".json,.xml,application/json,text/xml"
        className="hidden"
        data-testid="import-file"
        onChange={async (e) => {
          const f = e.target.files?.[0];
          if (f) p.onImport(await f.text(), f.name);
          e.target.value = "";
        }}
      />
    </>
  );
}
