import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { formatCost, formatDuration } from "@/components/runs/cost";
import { StatusBadge } from "@/components/terms/status-badge";
import { VERDICT_TERMS } from "@/components/terms/words";
import type { CellView, ExperimentView, ResultRowView } from "@/lib/evals/dto";
import type { VariantAggregate } from "@/lib/evals/stats";

const pct = (x: number | null) => (x === null ? "—" : `${Math.round(x * 100)} %`);
const num = (x: number | null) => (x === null ? "—" : x.toFixed(2));
const brief = (v: unknown) => {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 119)}…` : s;
};

function Verdict({ cell }: { cell: CellView }) {
  const term =
    cell.passed === true ? VERDICT_TERMS.pass : cell.passed === false ? VERDICT_TERMS.fail : VERDICT_TERMS.none;
  return (
    <Badge tone={term.tone} data-testid="cell-verdict">
      {term.label}
    </Badge>
  );
}

function Cell({ cell }: { cell: CellView | null }) {
  if (!cell) return <td className="p-2 text-xs text-muted">—</td>;
  return (
    <td
      className={cn("p-2 align-top text-xs", cell.regression && "bg-amber-50 dark:bg-amber-950/40")}
      data-testid={`cell-${cell.variant}`}
      data-status={cell.status}
      data-regression={cell.regression || undefined}
    >
      <div className="flex flex-wrap items-center gap-1">
        {cell.status === "scored" ? (
          <>
            <span className="font-mono font-semibold">{num(cell.score)}</span>
            <Verdict cell={cell} />
          </>
        ) : (
          <StatusBadge status={cell.status} />
        )}
        {cell.regression && <Badge tone={VERDICT_TERMS.regression.tone}>{VERDICT_TERMS.regression.label}</Badge>}
        {cell.runId && (
          <Link href={`/runs/${cell.runId}`} className="underline" data-testid="cell-run">
            run
          </Link>
        )}
      </div>
      {cell.status === "scored" && (
        <div className="text-muted">
          {cell.tokens} tok · {formatCost(cell.costUsd)} · {formatDuration(cell.latencyMs)}
          {cell.judgeTokens > 0 && <span data-testid="cell-judge-tokens"> · judged with {cell.judgeTokens} tok</span>}
        </div>
      )}
      {cell.error && <div className="text-danger">{cell.error}</div>}
      {cell.results.length > 0 && (
        <details className="mt-1">
          <summary className="cursor-pointer text-muted">evaluators</summary>
          <ul className="grid gap-1 pt-1">
            {cell.results.map((r) => (
              <li key={r.name}>
                <span className="font-medium">{r.name}</span>: {num(r.score)}{" "}
                {r.passed === false ? "✗" : r.passed ? "✓" : ""} <span className="text-muted">{r.detail}</span>
                {r.reasoning && (
                  <div className="whitespace-pre-wrap text-muted" data-testid="judge-reasoning">
                    {r.reasoning}
                  </div>
                )}
              </li>
            ))}
          </ul>
        </details>
      )}
    </td>
  );
}

function Aggregate({ a }: { a: VariantAggregate }) {
  return (
    <div className="grid gap-0.5 text-xs">
      <span>
        <span className="font-mono text-base font-semibold">{num(a.mean)}</span>
        {a.low !== null && (
          <span className="text-muted">
            {" "}
            (95 %: {num(a.low)}–{num(a.high)})
          </span>
        )}
      </span>
      <span>
        pass rate {pct(a.passRate)} · {a.scored}/{a.cells} scored{a.cancelled ? ` · ${a.cancelled} cancelled` : ""}
      </span>
      <span className="text-muted">
        {a.tokens} tok · {formatCost(a.costUsd)} · median {formatDuration(a.medianLatencyMs)}
        {a.judgeTokens > 0 && ` · judging ${a.judgeTokens} tok`}
      </span>
    </div>
  );
}

function compareHref(row: ResultRowView, v: number): string | null {
  const base = row.cells[0]?.runId;
  const other = row.cells[v]?.runId;
  return base && other ? `/runs/compare?a=${base}&b=${other}` : null;
}

/**
 * An experiment's results: rows × versions with each cell's score, verdict, tokens, cost and time
 * (regressions against the first version highlighted), each cell opening its run and each row the
 * run comparison of its versions; above them the aggregate per version with its 95 % interval.
 */
export function ExperimentResults({ experiment: e }: { experiment: ExperimentView }) {
  const { progress: p } = e;
  return (
    <div className="grid gap-4" data-testid="experiment-results" data-status={e.status}>
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <StatusBadge status={e.status} />
        <span data-testid="experiment-progress">
          {p.scored} of {p.total} scored{p.running ? ` · ${p.running} running` : ""}
          {p.pending ? ` · ${p.pending} waiting` : ""}
          {p.cancelled ? ` · ${p.cancelled} cancelled` : ""}
        </span>
        <span className="text-muted">
          dataset{" "}
          <Link className="underline" href={`/datasets/${e.datasetId}`}>
            {e.datasetName}
          </Link>{" "}
          v{e.datasetVersion} · {e.concurrency} at once
        </span>
        {e.regressions > 0 && (
          <Badge tone="warning" data-testid="experiment-regressions">
            {e.regressions} regressions
          </Badge>
        )}
      </div>
      <div className="overflow-x-auto rounded-md border border-border">
        <table className="w-full border-collapse text-left">
          <thead className="bg-surface-2 text-xs">
            <tr>
              <th className="p-2 align-bottom">Row</th>
              {e.variants.map((v, i) => (
                <th key={i} className="p-2 align-bottom" data-testid={`aggregate-${i}`}>
                  <div className="mb-1 text-sm font-semibold">
                    {v.label}
                    {i === 0 && e.variants.length > 1 ? (
                      <span className="ml-1 text-xs font-normal text-muted">baseline</span>
                    ) : null}
                  </div>
                  <Aggregate a={e.aggregates[i]!} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {e.rows.map((row) => (
              <tr key={row.rowId} className="border-t border-border" data-testid={`result-row-${row.ordinal}`}>
                <td className="max-w-72 p-2 align-top text-xs">
                  <div className="break-words font-mono">{brief(row.inputs)}</div>
                  {row.reference !== null && (
                    <div className="break-words text-muted">expected: {brief(row.reference)}</div>
                  )}
                  {e.variants.slice(1).map((_, k) => {
                    const href = compareHref(row, k + 1);
                    return href ? (
                      <Link key={k} href={href} className="mr-2 underline" data-testid="row-compare">
                        compare v{e.variants[0]!.version} ↔ v{e.variants[k + 1]!.version}
                      </Link>
                    ) : null;
                  })}
                </td>
                {row.cells.map((c, i) => (
                  <Cell key={i} cell={c} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
