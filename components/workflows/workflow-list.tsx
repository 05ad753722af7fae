import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { plural, timeAgo } from "./format";

/** What the list needs of each workflow (lib/db's WorkflowSummary satisfies it). */
export interface WorkflowRow {
  id: string;
  name: string;
  description: string;
  updatedAt: Date;
  versionCount: number;
  nodeCount: number;
  /** Enabled schedules and webhooks: runs start without anyone. */
  schedules?: number;
  webhooks?: number;
}

/** The user's workflows as a table: name (link), nodes, versions, last update. */
export function WorkflowList({ workflows }: { workflows: WorkflowRow[] }) {
  return (
    <Card className="overflow-hidden">
      <table className="w-full text-sm">
        <thead className="border-b border-border bg-surface-2/60 text-left text-xs uppercase tracking-wide text-muted">
          <tr>
            <th scope="col" className="w-1/2 px-5 py-2.5 font-medium">
              Name
            </th>
            <th scope="col" className="hidden px-5 py-2.5 font-medium sm:table-cell">
              Nodes
            </th>
            <th scope="col" className="px-5 py-2.5 font-medium">
              Versions
            </th>
            <th scope="col" className="px-5 py-2.5 text-right font-medium">
              Updated
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {workflows.map((w) => (
            <tr key={w.id} className="transition-colors hover:bg-surface-2/60">
              <td className="max-w-0 px-5 py-3">
                <Link href={`/workflows/${w.id}`} className="block truncate font-medium hover:text-primary">
                  {w.name}
                </Link>
                {w.description && <p className="truncate text-xs text-muted">{w.description}</p>}
              </td>
              <td className="hidden px-5 py-3 text-muted sm:table-cell">{w.nodeCount}</td>
              <td className="px-5 py-3">
                <span className="flex flex-wrap gap-1">
                  {w.versionCount ? (
                    <Badge tone="primary">{plural(w.versionCount, "version")}</Badge>
                  ) : (
                    <Badge>Draft</Badge>
                  )}
                  {!!w.schedules && <Badge title={plural(w.schedules, "active schedule")}>Scheduled</Badge>}
                  {!!w.webhooks && <Badge title={plural(w.webhooks, "active webhook")}>Webhook</Badge>}
                </span>
              </td>
              <td className="whitespace-nowrap px-5 py-3 text-right text-muted">
                <time dateTime={w.updatedAt.toISOString()} title={w.updatedAt.toLocaleString("en")}>
                  {timeAgo(w.updatedAt)}
                </time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
