"use client";
import { memo, type DragEvent } from "react";
import { nodeKindRegistry } from "@/lib/workflow/registry";
import { nodeKinds, type NodeKind } from "@/lib/workflow/schema";
import { PALETTE_MIME, type PaletteItem, type SavedAgentSpec } from "./palette-item";

/** One-line hint per kind (a Record, so a new kind without one fails to compile). */
const HINTS: Record<NodeKind, string> = {
  start: "Entry point with the run's inputs",
  agent: "An LLM agent with tools and branches",
  router: "Pick one branch (LLM or expression)",
  tool: "Call a tool, no LLM",
  orchestrator: "Hands sub-tasks to worker agents",
  human: "A person picks a branch and fills in fields",
  subflow: "Runs another saved workflow as one step",
  end: "Writes the outputs, finishes the run",
  abort: "Ends the run as aborted",
};

/** What the palette offers: every kind, in schema order, labelled from the registry. */
const PALETTE_KINDS = nodeKinds.map((kind) => ({ kind, label: nodeKindRegistry[kind].label, hint: HINTS[kind] }));

/** A saved agent from the user's library, offered as an agent node (its fields seed the node's agent spec). */
export type SavedAgentItem = { id: string; name: string; spec?: SavedAgentSpec };

function startDrag(event: DragEvent, item: PaletteItem) {
  event.dataTransfer.setData(PALETTE_MIME, JSON.stringify(item));
  event.dataTransfer.effectAllowed = "copy";
}

const NO_AGENTS: SavedAgentItem[] = [];

/** Drag node kinds (and saved agents) onto the canvas; a click adds one at the centre instead. Memoised (static for an editor). */
export const Palette = memo(function Palette({ savedAgents = NO_AGENTS, onAdd }: { savedAgents?: SavedAgentItem[]; onAdd: (item: PaletteItem) => void }) {
  return (
    <aside aria-label="Node palette" className="flex w-44 shrink-0 flex-col gap-1 overflow-y-auto border-r border-border bg-surface p-2">
      <h2 className="px-1 pb-1 text-xs font-semibold uppercase tracking-wide text-muted">Nodes</h2>
      {PALETTE_KINDS.map(({ kind, label, hint }) => {
        const item: PaletteItem = { type: "kind", kind };
        return (
          <button key={kind} type="button" draggable data-testid={`palette-${kind}`} title={`${hint} — drag onto the canvas`}
            onDragStart={(e) => startDrag(e, item)} onDoubleClick={() => onAdd(item)}
            className="cursor-grab rounded-md border border-border bg-surface-2 px-2 py-1.5 text-left text-sm hover:border-primary active:cursor-grabbing">
            {label}
          </button>
        );
      })}
      {savedAgents.length > 0 && (
        <>
          <h2 className="px-1 pb-1 pt-3 text-xs font-semibold uppercase tracking-wide text-muted">Saved agents</h2>
          {savedAgents.map((a) => {
            const item: PaletteItem = { type: "saved-agent", agentId: a.id, name: a.name, ...(a.spec ? { spec: a.spec } : {}) };
            return (
              <button key={a.id} type="button" draggable data-testid="palette-saved-agent" data-agent-id={a.id}
                title={`${a.spec?.description || a.name} — drag onto the canvas`}
                onDragStart={(e) => startDrag(e, item)} onDoubleClick={() => onAdd(item)}
                className="cursor-grab truncate rounded-md border border-border bg-surface-2 px-2 py-1.5 text-left text-sm hover:border-primary">
                {a.name}
              </button>
            );
          })}
        </>
      )}
    </aside>
  );
});
