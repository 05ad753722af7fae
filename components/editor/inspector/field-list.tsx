"use client";
import { Fragment } from "react";
import { Button } from "@/components/ui/button";
import { fieldTypes, type Field } from "@/lib/workflow/schema";
import { CommitInput, SelectField } from "./fields";

type Props = {
  fields: Field[];
  onChange: (fields: Field[]) => void;
  /** Names the rows, their test ids and new keys (`input1`, `field1`...). */
  label: string;
  /** Also edit each field's description (human review: shown to the person filling it in). */
  descriptions?: boolean;
};

/** Editable list of fields (workflow inputs/outputs, a human review's fields): key, type, required. */
export function FieldList({ fields, onChange, label, descriptions = false }: Props) {
  const set = (i: number, patch: Partial<Field>) => onChange(fields.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  return (
    <div className="grid gap-1" data-testid={`fields-${label}`}>
      {fields.map((f, i) => {
        const row = (
          <div className="flex items-center gap-1">
            <CommitInput
              value={f.key}
              ariaLabel={`${label} ${i + 1} key`}
              testId={`${label}-${i}-key`}
              onCommit={(key) => set(i, { key: key.trim() })}
            />
            <SelectField
              value={f.type}
              ariaLabel={`${label} ${i + 1} type`}
              testId={`${label}-${i}-type`}
              options={fieldTypes.map((t) => ({ value: t, label: t }))}
              onChange={(type) => set(i, { type })}
            />
            <label className="flex items-center gap-1 text-[11px] text-muted" title="required">
              <input
                type="checkbox"
                checked={f.required}
                aria-label={`${label} ${i + 1} required`}
                onChange={(e) => set(i, { required: e.target.checked })}
              />
              req
            </label>
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Remove ${f.key}`}
              onClick={() => onChange(fields.filter((_, j) => j !== i))}
            >
              ✕
            </Button>
          </div>
        );
        if (!descriptions) return <Fragment key={`${i}-${f.key}`}>{row}</Fragment>;
        return (
          <div key={`${i}-${f.key}`} className="grid gap-1 rounded-md border border-border p-2">
            {row}
            <CommitInput
              value={f.description}
              ariaLabel={`${label} ${i + 1} description`}
              testId={`${label}-${i}-description`}
              placeholder="description"
              onCommit={(description) => set(i, { description })}
            />
          </div>
        );
      })}
      <Button
        variant="outline"
        size="sm"
        data-testid={`add-${label}`}
        onClick={() => onChange([...fields, newField(fields, label)])}
      >
        Add {label}
      </Button>
    </div>
  );
}

/** A new required string field keyed `<stem><n>`, n the first free number from the list's length + 1. */
export function newField(fields: readonly Field[], stem: string): Field {
  let n = fields.length + 1;
  while (fields.some((f) => f.key === `${stem}${n}`)) n++;
  return { key: `${stem}${n}`, type: "string", description: "", required: true };
}
