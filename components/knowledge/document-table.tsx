"use client";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { TrashIcon } from "@/components/ui/icons";
import type { DocumentRow } from "@/lib/kb/types";
import type { ActionResult } from "./types";
import { formatBytes } from "./upload";

/** The collection's documents: name, format, size, pages, chunks, added; delete with confirmation. */
export function DocumentTable({
  documents,
  remove,
}: {
  documents: DocumentRow[];
  remove: (id: string) => Promise<ActionResult>;
}) {
  const [target, setTarget] = useState<DocumentRow | null>(null);
  const [pending, start] = useTransition();
  if (!documents.length) {
    return (
      <p className="rounded-lg border border-dashed border-border px-4 py-6 text-center text-sm text-muted">
        No documents yet. Upload files above.
      </p>
    );
  }
  return (
    <Card className="overflow-hidden">
      <table className="w-full text-sm" data-testid="kb-documents">
        <thead className="border-b border-border bg-surface-2/60 text-left text-xs uppercase tracking-wide text-muted">
          <tr>
            <th scope="col" className="px-4 py-2.5 font-medium">
              Document
            </th>
            <th scope="col" className="px-4 py-2.5 font-medium">
              Type
            </th>
            <th scope="col" className="hidden px-4 py-2.5 font-medium sm:table-cell">
              Size
            </th>
            <th scope="col" className="px-4 py-2.5 font-medium">
              Chunks
            </th>
            <th scope="col" className="px-4 py-2.5">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {documents.map((d) => (
            <tr key={d.id} data-testid="kb-document-row">
              <td className="max-w-0 px-4 py-2.5">
                <p className="truncate font-medium" title={d.name}>
                  {d.name}
                </p>
                <p className="truncate text-xs text-muted">
                  {[
                    d.title && d.title !== d.name ? d.title : null,
                    d.pageCount ? `${d.pageCount} page${d.pageCount === 1 ? "" : "s"}` : null,
                    `${d.textChars.toLocaleString("en")} characters`,
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </p>
              </td>
              <td className="px-4 py-2.5">
                <Badge>{d.format.toUpperCase()}</Badge>
              </td>
              <td className="hidden whitespace-nowrap px-4 py-2.5 text-muted sm:table-cell">
                {formatBytes(d.sizeBytes)}
              </td>
              <td className="px-4 py-2.5 tabular-nums">{d.chunkCount}</td>
              <td className="px-4 py-2.5 text-right">
                <Button variant="ghost" size="icon" aria-label={`Delete ${d.name}`} onClick={() => setTarget(d)}>
                  <TrashIcon />
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Dialog
        open={target !== null}
        onOpenChange={(o) => !o && setTarget(null)}
        title={`Delete “${target?.name ?? ""}”?`}
        description="Its text and chunks are removed from the collection. This cannot be undone."
      >
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => setTarget(null)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            loading={pending}
            onClick={() =>
              start(async () => {
                if (!target) return;
                const r = await remove(target.id);
                if (r.status === "error") toast.error(r.message);
                else toast.success(r.status === "ok" ? r.message : "Deleted.");
                setTarget(null);
              })
            }
          >
            Delete document
          </Button>
        </div>
      </Dialog>
    </Card>
  );
}
