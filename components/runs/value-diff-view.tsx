import { diffValues } from "@/lib/run-views/value-diff";

const short = (v: unknown) => {
  const s = v === undefined ? "—" : JSON.stringify(v);
  return s.length > 200 ? `${s.slice(0, 199)}…` : s;
};

/**
 * How two step values differ, under a changed row of the run comparison: text word by word
 * (removed struck through, added underlined), JSON values path by path.
 */
export function ValueDiffView({ left, right, what }: { left: unknown; right: unknown; what: string }) {
  const diff = diffValues(left, right);
  if (diff.kind === "equal") return null;
  return (
    <div className="grid gap-1 text-xs" data-testid={`value-diff-${what}`} data-kind={diff.kind}>
      <span className="text-muted">{what} diff</span>
      {diff.kind === "text" ? (
        <p className="whitespace-pre-wrap break-words rounded-md border border-border bg-surface-2 p-2 font-mono">
          {diff.parts.map((p, i) =>
            p.op === "same" ? (
              <span key={i}>{p.text}</span>
            ) : p.op === "removed" ? (
              <del
                key={i}
                className="bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200"
                data-testid="diff-removed"
              >
                {p.text}
              </del>
            ) : (
              <ins
                key={i}
                className="bg-green-100 text-green-800 no-underline dark:bg-green-950 dark:text-green-200"
                data-testid="diff-added"
              >
                {p.text}
              </ins>
            ),
          )}
        </p>
      ) : (
        <ul className="grid gap-0.5 rounded-md border border-border bg-surface-2 p-2 font-mono">
          {diff.changes.map((c) => (
            <li key={c.path} className="break-words">
              <span className="font-semibold">{c.path}</span>:{" "}
              <del className="text-red-700 dark:text-red-300">{short(c.left)}</del> →{" "}
              <ins className="text-green-700 no-underline dark:text-green-300">{short(c.right)}</ins>
            </li>
          ))}
          {diff.more > 0 && <li className="text-muted">… {diff.more} more</li>}
        </ul>
      )}
    </div>
  );
}
