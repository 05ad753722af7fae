"use client";
import type { VersionChoice } from "./derive-request";

/** Radio choice of the version a retry or fork runs. */
export function VersionChoiceField({
  value,
  onChange,
  version,
  kind,
}: {
  value: VersionChoice;
  onChange: (v: VersionChoice) => void;
  version: number;
  kind: "retry" | "fork";
}) {
  const option = (v: VersionChoice, label: string, hint: string) => (
    <label className="flex items-start gap-2 text-sm">
      <input
        type="radio"
        name="version"
        value={v}
        checked={value === v}
        onChange={() => onChange(v)}
        data-testid={`version-${v}`}
        className="mt-1"
      />
      <span>
        <span className="font-medium">{label}</span>
        <span className="block text-xs text-muted">{hint}</span>
      </span>
    </label>
  );
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-xs font-medium text-muted">Run with</legend>
      {option(
        "original",
        `The version it ran (v${version})`,
        kind === "retry"
          ? "Nothing changed: only the failed steps and what follows them run."
          : "Nothing changed: only the steps that depend on the edited one run.",
      )}
      {option(
        "current",
        "The current version",
        "Steps whose node, agent, variables or default model changed since run again, and everything downstream of them.",
      )}
    </fieldset>
  );
}
