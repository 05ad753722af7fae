/** Pretty JSON in a scrollable block ("—" for undefined). */
export function JsonView({ value, testId }: { value: unknown; testId?: string }) {
  if (value === undefined) return <span className="text-muted">—</span>;
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return (
    <pre
      className="max-h-64 overflow-auto whitespace-pre-wrap break-words rounded-md border border-border bg-surface-2 p-2 font-mono text-xs"
      data-testid={testId}
    >
      {text}
    </pre>
  );
}

/**
 * A run's inputs or outputs: each field under its name, a text value as text (its line breaks
 * kept, not JSON-escaped), any other value as pretty JSON. Not a plain object: JsonView.
 */
export function FieldsView({ value, testId }: { value: unknown; testId?: string }) {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return <JsonView value={value} testId={testId} />;
  const entries = Object.entries(value);
  if (entries.length === 0)
    return (
      <p className="text-sm text-muted" data-testid={testId}>
        None.
      </p>
    );
  return (
    <dl className="grid gap-3" data-testid={testId}>
      {entries.map(([key, v]) => (
        <div key={key} className="grid gap-1">
          <dt className="font-mono text-xs font-medium text-muted">{key}</dt>
          <dd>
            <JsonView value={v} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
