"use client";
import { useEffect, useRef } from "react";

/** One keyboard shortcut: keys as shown in the help dialog, and a matcher. */
export type Shortcut = { keys: string; description: string; match: (e: KeyboardEvent) => boolean; run: () => void };

const mod = (e: KeyboardEvent) => e.ctrlKey || e.metaKey;

/** Keys → matcher helpers for the shortcut table. */
export const keys = {
  mod:
    (key: string, shift = false) =>
    (e: KeyboardEvent) =>
      mod(e) && e.shiftKey === shift && e.key.toLowerCase() === key,
  plain:
    (...names: string[]) =>
    (e: KeyboardEvent) =>
      !mod(e) && !e.altKey && names.includes(e.key),
};

function typingInField(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName);
}

/**
 * Window-level shortcuts for the editor, ignored while typing in a field (so Backspace edits text,
 * not the graph) and while a modal dialog is open.
 */
export function useShortcuts(shortcuts: Shortcut[]): void {
  const ref = useRef(shortcuts);
  useEffect(() => {
    ref.current = shortcuts;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typingInField(e.target) || document.querySelector("dialog[open]")) return;
      const hit = ref.current.find((s) => s.match(e));
      if (!hit) return;
      e.preventDefault();
      hit.run();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
