"use client";
import { DIFF_TERMS } from "@/components/terms/words";
import { Badge } from "@/components/ui/badge";
import { useCallback, useEffect, useMemo, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import type { Workflow } from "@/lib/workflow/schema";
import type { EditorServerActions, VersionItem } from "./editor-types";
import { versionDiff, type VersionDiff } from "./version-diff";

type Props = {
  workflowId: string;
  draft: Workflow;
  actions: EditorServerActions;
  /** Bumped after a version is saved, to reload the list. */
  refreshKey: number;
  /** Shows the diff of the compared version on the canvas (undefined clears it). */
  onCompare: (diff: VersionDiff | undefined) => void;
  /** Loads a version's document into the draft (one undoable step). */
  onRestore: (doc: Workflow) => void;
};

/** Version history: every saved immutable version, a visual diff against the draft, restore. */
export function VersionsPanel({ workflowId, draft, actions, refreshKey, onCompare, onRestore }: Props) {
  const [versions, setVersions] = useState<VersionItem[] | null>(null);
  const [compared, setCompared] = useState<{ id: string; doc: Workflow } | null>(null);

  useEffect(() => {
    let live = true;
    void actions.listVersions(workflowId).then((r) => {
      if (!live) return;
      if (r.ok) setVersions(r.data);
      else toast.error(r.error);
    });
    return () => {
      live = false;
    };
  }, [actions, workflowId, refreshKey]);

  const diff = useMemo(() => (compared ? versionDiff(compared.doc, draft) : undefined), [compared, draft]);
  useEffect(() => onCompare(diff), [diff, onCompare]);
  useEffect(() => () => onCompare(undefined), [onCompare]);

  const compare = useCallback(
    async (id: string) => {
      if (compared?.id === id) return setCompared(null);
      const r = await actions.getVersion(workflowId, id);
      if (r.ok) setCompared({ id, doc: r.data });
      else toast.error(r.error);
    },
    [actions, workflowId, compared],
  );

  const restore = useCallback(
    async (v: VersionItem) => {
      const r = await actions.getVersion(workflowId, v.id);
      if (!r.ok) return toast.error(r.error);
      onRestore(r.data);
      setCompared(null);
      toast.success(`Version ${v.version} restored into the draft (undo to go back).`);
    },
    [actions, workflowId, onRestore],
  );

  if (versions === null) return <p className="text-xs text-muted">Loading versions…</p>;
  if (versions.length === 0)
    return (
      <p className="text-xs text-muted" data-testid="versions-empty">
        No saved versions yet. “Save version” snapshots the draft.
      </p>
    );
  return (
    <div className="grid gap-2" data-testid="versions">
      {diff && (
        <div className="rounded-md border border-border bg-surface-2 p-2 text-xs" data-testid="version-diff">
          <p className="font-medium">
            {diff.count === 0 ? "Same as the draft." : `${diff.count} change(s) from this version to the draft`}
          </p>
          <ul className="mt-1 flex flex-wrap gap-1">
            {[...diff.marks].map(([id, m]) => (
              <li key={id}>
                <Badge tone={DIFF_TERMS[m].tone} className={m === "removed" ? "line-through" : undefined}>
                  {id} · {DIFF_TERMS[m].label}
                </Badge>
              </li>
            ))}
            {diff.settings.map((s) => (
              <li key={s}>
                <Badge tone={DIFF_TERMS.changed.tone}>{s}</Badge>
              </li>
            ))}
          </ul>
        </div>
      )}
      <ul className="grid gap-1">
        {versions.map((v) => (
          <li
            key={v.id}
            className="flex items-center justify-between gap-2 rounded-md border border-border p-2 text-xs"
            data-testid={`version-${v.version}`}
          >
            <span className="grid">
              <span className="font-medium">
                v{v.version}
                {v.message ? ` · ${v.message}` : ""}
              </span>
              <span className="text-muted">{new Date(v.createdAt).toLocaleString()}</span>
            </span>
            <span className="flex gap-1">
              <Button
                size="sm"
                variant={compared?.id === v.id ? "secondary" : "outline"}
                onClick={() => void compare(v.id)}
              >
                {compared?.id === v.id ? "Hide diff" : "Diff"}
              </Button>
              <Button size="sm" variant="outline" onClick={() => void restore(v)}>
                Restore
              </Button>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
