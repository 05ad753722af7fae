"use client";
import { useState, type ReactNode } from "react";
import { Input, Select, Textarea } from "@/components/ui/input";

/**
 * Inspector fields keep their text locally and commit on blur (or Enter in one-line fields), so
 * typing a word is one undo step, not one per key.
 */

type CommitProps = {
  value: string;
  onCommit: (value: string) => void;
  placeholder?: string;
  testId?: string;
  ariaLabel?: string;
};

/** A one-line text field that commits on blur/Enter. */
export function CommitInput({
  value,
  onCommit,
  placeholder,
  testId,
  ariaLabel,
  type = "text",
}: CommitProps & { type?: "text" | "number" }) {
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setDraft(value);
  }
  const commit = () => draft !== value && onCommit(draft);
  return (
    <Input
      type={type}
      value={draft}
      placeholder={placeholder}
      data-testid={testId}
      aria-label={ariaLabel}
      className="h-8 text-xs"
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === "Enter") commit();
      }}
    />
  );
}

/** A multi-line text field that commits on blur; `children` renders below it (suggestions). */
export function CommitTextarea({
  value,
  onCommit,
  placeholder,
  testId,
  ariaLabel,
  rows = 3,
  onDraft,
  children,
  textareaRef,
}: CommitProps & {
  rows?: number;
  onDraft?: (text: string, caret: number) => void;
  children?: ReactNode;
  textareaRef?: React.Ref<HTMLTextAreaElement>;
}) {
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setDraft(value);
  }
  return (
    <div className="relative">
      <Textarea
        ref={textareaRef}
        rows={rows}
        value={draft}
        placeholder={placeholder}
        data-testid={testId}
        aria-label={ariaLabel}
        className="text-xs"
        onChange={(e) => {
          setDraft(e.target.value);
          onDraft?.(e.target.value, e.target.selectionStart);
        }}
        onBlur={() => draft !== value && onCommit(draft)}
      />
      {children}
    </div>
  );
}

/** A labelled row in the inspector. */
export function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="grid gap-1 text-xs">
      <span className="font-medium text-muted">{label}</span>
      {children}
    </label>
  );
}

/** A native select committing immediately. */
export function SelectField<T extends string>({
  value,
  options,
  onChange,
  testId,
  ariaLabel,
}: {
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (v: T) => void;
  testId?: string;
  ariaLabel?: string;
}) {
  return (
    <Select
      value={value}
      data-testid={testId}
      aria-label={ariaLabel}
      className="h-8 text-xs"
      onChange={(e) => onChange(e.target.value as T)}
    >
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </Select>
  );
}

/** Parses a positive integer from a field, or undefined when empty/invalid. */
export function parsePositiveInt(text: string): number | undefined {
  const n = Number(text.trim());
  return text.trim() !== "" && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** A section heading inside the inspector. */
export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="grid gap-2 border-t border-border pt-3">
      <div className="flex items-center justify-between">
        <h3 className="text-xs font-semibold uppercase tracking-wide text-muted">{title}</h3>
        {actions}
      </div>
      {children}
    </section>
  );
}
