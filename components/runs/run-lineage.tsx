"use client";
import Link from "next/link";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { LineageRunView, RunLineageView } from "@/lib/run-views/dto";
import { StatusBadge } from "@/components/terms/status-badge";
import { TRIGGER_NAMES } from "./trigger";

const compareHref = (a: string, b: string) => `/runs/compare?a=${a}&b=${b}`;

function RunChip({ run, nodeName }: { run: LineageRunView; nodeName: (id: string) => string }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Link href={`/runs/${run.id}`} className="font-mono text-xs underline">
        {run.id.slice(0, 8)}
      </Link>
      <span className="text-xs text-muted">
        {run.trigger === "retry" || run.trigger === "fork" ? TRIGGER_NAMES[run.trigger].toLowerCase() : "original"}
      </span>
      {run.forkedAt && (
        <span className="text-xs text-muted">
          at {nodeName(run.forkedAt.nodeId)}
          {run.forkedAt.iteration > 1 ? ` #${run.forkedAt.iteration}` : ""}
        </span>
      )}
      <StatusBadge status={run.status} />
    </span>
  );
}

/**
 * Where a run sits among its retries and forks: the chain from the original to this run (a fork
 * names the step it forked at), the retries and forks made of it, and links to compare this run
 * with its source or with each of them (the run comparison view).
 */
export function RunLineage({
  runId,
  lineage,
  nodeName,
}: {
  runId: string;
  lineage: RunLineageView;
  nodeName: (id: string) => string;
}) {
  const source = lineage.chain.at(-1);
  if (!source && lineage.derived.length === 0) return null;
  return (
    <Card id="lineage" data-testid="run-lineage">
      <CardHeader>
        <CardTitle>Lineage</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {source && (
          <div className="grid gap-1" data-testid="lineage-chain">
            <div className="flex flex-wrap items-center gap-2">
              {lineage.chain.map((r) => (
                <span key={r.id} className="inline-flex items-center gap-2">
                  <RunChip run={r} nodeName={nodeName} /> →
                </span>
              ))}
              <span className="text-xs font-medium">
                this run
                {lineage.forkedAt
                  ? ` (forked at ${nodeName(lineage.forkedAt.nodeId)}${lineage.forkedAt.iteration > 1 ? ` #${lineage.forkedAt.iteration}` : ""})`
                  : ""}
              </span>
            </div>
            <Link href={compareHref(source.id, runId)} className="w-fit text-xs underline" data-testid="compare-source">
              Compare with the run it derives from
            </Link>
          </div>
        )}
        {lineage.derived.length > 0 && (
          <div className="grid gap-1">
            <span className="text-xs font-medium text-muted">Retries and forks of this run</span>
            <ul className="grid gap-1" data-testid="lineage-derived">
              {lineage.derived.map((r) => (
                <li key={r.id} className="flex flex-wrap items-center gap-2">
                  <RunChip run={r} nodeName={nodeName} />
                  <Link href={compareHref(runId, r.id)} className="text-xs underline" data-testid={`compare-${r.id}`}>
                    compare
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
