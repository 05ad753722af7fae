"use client";
import { useMemo, useRef, useState } from "react";
import { Textarea } from "@/components/ui/input";
import type { Workflow } from "@/lib/workflow/schema";
import { useSubflowTargets } from "../subflow-targets-context";
import { insertSuggestion, openTagAt, templateSuggestions } from "../template-suggestions";

type Props = {
  doc: Workflow;
  /** The node whose template this is (decides which upstream nodes are offered). */
  nodeId?: string;
  value: string;
  onCommit: (value: string) => void;
  rows?: number;
  testId?: string;
  ariaLabel?: string;
  placeholder?: string;
  /** A map's body field: `{{item}}` is offered too. */
  itemScope?: boolean;
};

/**
 * A templated text field: typing `{{` offers the inputs, variables, upstream node outputs (a
 * subflow's output keys from the editor's subflow targets) and feedback this node may refer to; a
 * click (or Enter on the highlighted one) completes the tag. Commits on blur like the other fields.
 */
export function TemplateField({
  doc,
  nodeId,
  value,
  onCommit,
  rows = 3,
  testId,
  ariaLabel,
  placeholder,
  itemScope = false,
}: Props) {
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const ref = useRef<HTMLTextAreaElement>(null);
  if (seen !== value) {
    setSeen(value);
    setDraft(value);
  }
  const subflows = useSubflowTargets();
  const all = useMemo(() => {
    const refs = templateSuggestions(doc, nodeId, subflows);
    return itemScope ? [{ ref: "item", detail: "the item this step runs for" }, ...refs] : refs;
  }, [doc, nodeId, subflows, itemScope]);
  const tag = caret === null ? null : openTagAt(draft, caret);
  const options = tag ? all.filter((s) => s.ref.startsWith(tag.partial)).slice(0, 8) : [];

  const choose = (refText: string) => {
    const next = insertSuggestion(draft, caret ?? draft.length, refText);
    setDraft(next.text);
    setCaret(null);
    requestAnimationFrame(() => {
      ref.current?.focus();
      ref.current?.setSelectionRange(next.caret, next.caret);
    });
  };

  return (
    <div className="relative">
      <Textarea
        ref={ref}
        rows={rows}
        value={draft}
        data-testid={testId}
        aria-label={ariaLabel}
        placeholder={placeholder}
        className="font-mono text-xs"
        aria-autocomplete="list"
        onChange={(e) => {
          setDraft(e.target.value);
          setCaret(e.target.selectionStart);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (!options.length) return;
          if (e.key === "ArrowDown" || e.key === "ArrowUp") {
            e.preventDefault();
            setActive((a) => (a + (e.key === "ArrowDown" ? 1 : options.length - 1)) % options.length);
          } else if (e.key === "Enter" || e.key === "Tab") {
            e.preventDefault();
            choose(options[active]?.ref ?? "");
          } else if (e.key === "Escape") setCaret(null);
        }}
        onBlur={() => {
          setTimeout(() => setCaret(null), 150);
          if (draft !== value) onCommit(draft);
        }}
      />
      {options.length > 0 && (
        <ul
          role="listbox"
          data-testid="template-suggestions"
          className="absolute left-0 right-0 top-full z-20 mt-1 max-h-48 overflow-auto rounded-md border border-border bg-surface text-xs shadow-lg"
        >
          {options.map((s, i) => (
            <li
              key={s.ref}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(s.ref);
              }}
              className={`flex cursor-pointer justify-between gap-2 px-2 py-1 ${i === active ? "bg-primary/10" : ""}`}
            >
              <code>{s.ref}</code>
              <span className="truncate text-muted">{s.detail}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
