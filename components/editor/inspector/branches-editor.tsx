"use client";
import { Button } from "@/components/ui/button";
import type { Branch } from "@/lib/workflow/schema";
import { CommitInput } from "./fields";

type Props = {
  branches: Branch[];
  onChange: (branches: Branch[]) => void;
  /** Router in expression mode: edit each branch's expression and the default flag. */
  expressions?: boolean;
};

/**
 * The outcomes of an agent, router or human review: id (the handle and what the model or person
 * picks), label, and the natural-language condition (or, for expression routers, the expression).
 * Each is one output handle.
 */
export function BranchesEditor({ branches, onChange, expressions = false }: Props) {
  const set = (i: number, patch: Partial<Branch>) =>
    onChange(branches.map((b, j) => (j === i ? { ...b, ...patch } : b)));
  const add = () => {
    let n = branches.length + 1;
    while (branches.some((b) => b.id === `branch${n}`)) n++;
    onChange([...branches, { id: `branch${n}`, label: "", condition: "" }]);
  };
  return (
    <div className="grid gap-2" data-testid="branches">
      {branches.map((b, i) => (
        <div
          key={`${i}-${b.id}`}
          className="grid gap-1 rounded-md border border-border p-2"
          data-testid={`branch-${i}`}
        >
          <div className="flex gap-1">
            <CommitInput
              value={b.id}
              ariaLabel={`Branch ${i + 1} id`}
              testId={`branch-${i}-id`}
              placeholder="id"
              onCommit={(v) => set(i, renameBranch(b, v.trim()))}
            />
            <CommitInput
              value={b.label}
              ariaLabel={`Branch ${i + 1} label`}
              testId={`branch-${i}-label`}
              placeholder="label"
              onCommit={(v) => set(i, { label: v })}
            />
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Remove branch ${b.id}`}
              onClick={() => onChange(branches.filter((_, j) => j !== i))}
            >
              ✕
            </Button>
          </div>
          {expressions ? (
            <div className="flex items-center gap-1">
              <CommitInput
                value={b.expression ?? ""}
                ariaLabel={`Branch ${i + 1} expression`}
                placeholder={b.default ? "default (no expression)" : "e.g. nodes.score.output > 7"}
                onCommit={(v) => set(i, { expression: v.trim() || undefined })}
              />
              <label className="flex items-center gap-1 text-[11px] text-muted">
                <input
                  type="checkbox"
                  checked={b.default ?? false}
                  onChange={(e) => set(i, { default: e.target.checked || undefined })}
                />
                default
              </label>
            </div>
          ) : (
            <CommitInput
              value={b.condition}
              ariaLabel={`Branch ${i + 1} condition`}
              testId={`branch-${i}-condition`}
              placeholder="when (natural language)"
              onCommit={(v) => set(i, { condition: v })}
            />
          )}
        </div>
      ))}
      <Button variant="outline" size="sm" onClick={add} data-testid="add-branch">
        Add branch
      </Button>
    </div>
  );
}

/** A new branch id; a label that only echoed the old id ("done" / "Done") follows it. */
function renameBranch(b: Branch, id: string): Partial<Branch> {
  const echoed = b.label === "" || b.label.toLowerCase() === b.id.toLowerCase();
  return echoed ? { id, label: id ? id[0]!.toUpperCase() + id.slice(1) : "" } : { id };
}
