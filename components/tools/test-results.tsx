import type { ToolTestView } from "./types";

const json = (v: unknown) => (v === undefined ? "—" : JSON.stringify(v));

/** A table of test cases: input, expected, actual (or the error), pass/fail. */
export function TestResults({ results }: { results: ToolTestView[] }) {
  if (results.length === 0) return <p className="text-xs text-muted">No recorded tests.</p>;
  return (
    <table className="w-full text-xs" data-testid="tool-tests">
      <thead className="text-left text-muted">
        <tr>
          <th className="py-1 pr-2 font-medium">Input</th>
          <th className="py-1 pr-2 font-medium">Expected</th>
          <th className="py-1 pr-2 font-medium">Actual</th>
          <th className="py-1 font-medium">Result</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-border font-mono">
        {results.map((r, i) => (
          <tr key={i} data-testid="tool-test" data-passed={r.passed === undefined ? "unknown" : String(r.passed)}>
            <td className="max-w-48 truncate py-1 pr-2" title={json(r.input)}>
              {json(r.input)}
            </td>
            <td className="max-w-48 truncate py-1 pr-2" title={json(r.expected)}>
              {json(r.expected)}
            </td>
            <td className="max-w-48 truncate py-1 pr-2" title={r.error ?? json(r.actual)}>
              {r.error ? <span className="text-danger">{r.error}</span> : json(r.actual)}
            </td>
            <td className="py-1 font-sans">
              {r.passed === undefined ? (
                "—"
              ) : r.passed ? (
                <span className="text-success">pass</span>
              ) : (
                <span className="text-danger">fail</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Code in a scrollable monospace block. */
export function CodeBlock({ code, testId }: { code: string; testId?: string }) {
  return (
    <pre
      data-testid={testId}
      className="max-h-72 overflow-auto rounded-md border border-border bg-surface-2 p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap"
    >
      {code}
    </pre>
  );
}
