/** Pretty JSON in a scrollable block ("—" for undefined). */
export function JsonView({ value, testId }: { value: unknown; testId?: string }) {
  if (value === undefined) return <span className="text-muted">—</span>;
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return (
    <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-words rounded-md border border-border bg-surface-2 p-2 font-mono text-xs" data-testid={testId}>
      {text}
    </pre>
  );
}
