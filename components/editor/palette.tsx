"use client";
import { memo, type DragEvent } from "react";
import { KIND_TERMS, KindIcon } from "@/components/terms/kinds";
import { nodeKinds } from "@/lib/workflow/schema";
import { PALETTE_MIME, type PaletteItem, type SavedAgentSpec } from "./palette-item";

/** What the palette offers: every kind, in schema order, with the shared words and icon (components/terms). */
const PALETTE_KINDS = nodeKinds.map((kind) => ({ kind, label: KIND_TERMS[kind].label, hint: KIND_TERMS[kind].hint }));

/** A saved agent from the user's library, offered as an agent node (its fields seed the node's agent spec). */
export type SavedAgentItem = { id: string; name: string; spec?: SavedAgentSpec };

function startDrag(event: DragEvent, item: PaletteItem) {
  event.dataTransfer.setData(PALETTE_MIME, JSON.stringify(item));
  event.dataTransfer.effectAllowed = "copy";
}

const NO_AGENTS: SavedAgentItem[] = [];

/** Drag node kinds (and saved agents) onto the canvas; a click adds one at the centre instead. Memoised (static for an editor). */
export const Palette = memo(function Palette({
  savedAgents = NO_AGENTS,
  onAdd,
}: {
  savedAgents?: SavedAgentItem[];
  onAdd: (item: PaletteItem) => void;
}) {
  return (
    <aside
      aria-label="Node palette"
      className="flex w-44 shrink-0 flex-col gap-1 overflow-y-auto border-r border-border bg-surface p-2"
    >
      <h2 className="px-1 pb-1 text-xs font-semibold uppercase tracking-wide text-muted">Nodes</h2>
      {PALETTE_KINDS.map(({ kind, label, hint }) => {
        const item: PaletteItem = { type: "kind", kind };
        return (
          <button
            key={kind}
            type="button"
            draggable
            data-testid={`palette-${kind}`}
            title={`${hint} — drag onto the canvas`}
            onDragStart={(e) => startDrag(e, item)}
            onDoubleClick={() => onAdd(item)}
            className="flex cursor-grab items-center gap-2 rounded-md border border-transparent px-1.5 py-1 text-left text-sm hover:border-border hover:bg-surface-2 active:cursor-grabbing"
          >
            <KindIcon kind={kind} className="size-6" />
            <span>{label}</span>
          </button>
        );
      })}
      {savedAgents.length > 0 && (
        <>
          <h2 className="px-1 pb-1 pt-3 text-xs font-semibold uppercase tracking-wide text-muted">Saved agents</h2>
          {savedAgents.map((a) => {
            const item: PaletteItem = {
              type: "saved-agent",
              agentId: a.id,
              name: a.name,
              ...(a.spec ? { spec: a.spec } : {}),
            };
            return (
              <button
                key={a.id}
                type="button"
                draggable
                data-testid="palette-saved-agent"
                data-agent-id={a.id}
                title={`${a.spec?.description || a.name} — drag onto the canvas`}
                onDragStart={(e) => startDrag(e, item)}
                onDoubleClick={() => onAdd(item)}
                className="cursor-grab truncate rounded-md border border-border bg-surface-2 px-2 py-1.5 text-left text-sm hover:border-primary"
              >
                {a.name}
              </button>
            );
          })}
        </>
      )}
    </aside>
  );
});
