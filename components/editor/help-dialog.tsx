"use client";
import { Dialog } from "@/components/ui/dialog";
import type { Shortcut } from "./use-shortcuts";

/** The keyboard shortcuts, listed (opened with "?"). */
export function HelpDialog({
  open,
  onOpenChange,
  shortcuts,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  shortcuts: Shortcut[];
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Keyboard shortcuts"
      description="Drag a node kind from the palette onto the canvas; drag from an output handle to a node to connect."
    >
      <table className="w-full text-sm" data-testid="shortcuts-table">
        <tbody>
          {shortcuts.map((s) => (
            <tr key={s.keys} className="border-b border-border last:border-0">
              <td className="py-1 pr-4">
                <kbd className="rounded border border-border bg-surface-2 px-1.5 font-mono text-xs">{s.keys}</kbd>
              </td>
              <td className="py-1">{s.description}</td>
            </tr>
          ))}
          <tr>
            <td className="py-1 pr-4">
              <kbd className="rounded border border-border bg-surface-2 px-1.5 font-mono text-xs">Shift + drag</kbd>
            </td>
            <td>Select several (box)</td>
          </tr>
        </tbody>
      </table>
    </Dialog>
  );
}
