import { Badge } from "@/components/ui/badge";
import type { NodeKind, Workflow } from "@/lib/workflow/schema";
import { previewGeometry } from "./template-preview";

/** A template offered in "New workflow" (blank has no `workflow`). */
export type GalleryTemplate = { id: string; name: string; description: string; tag?: string; workflow?: Workflow };

/** Thumbnail colour per kind, matching the canvas headers (a Record, so a new kind without one fails to compile). */
const FILL: Record<NodeKind, string> = {
  start: "fill-emerald-300",
  agent: "fill-sky-300",
  router: "fill-amber-300",
  tool: "fill-teal-300",
  orchestrator: "fill-violet-300",
  human: "fill-fuchsia-300",
  subflow: "fill-cyan-300",
  map: "fill-lime-300",
  end: "fill-zinc-700 dark:fill-zinc-300",
  abort: "fill-red-500",
};

/** A small SVG picture of a workflow: coloured boxes per kind, forward edges solid, loops dashed. */
export function WorkflowThumbnail({ workflow, className }: { workflow: Workflow; className?: string }) {
  const g = previewGeometry(workflow);
  return (
    <svg
      viewBox={`0 0 ${g.width} ${g.height}`}
      className={className}
      role="img"
      aria-label={`Preview of ${workflow.name}`}
      data-testid="template-preview"
    >
      {g.edges.map((e) =>
        e.loop ? (
          <path
            key={e.id}
            d={`M ${e.x1} ${e.y1} C ${e.x1 + 20} ${e.y1 + 28}, ${e.x2 - 20} ${e.y2 + 28}, ${e.x2} ${e.y2}`}
            className="fill-none stroke-amber-500"
            strokeDasharray="3 2"
            strokeWidth={1.2}
          />
        ) : (
          <line key={e.id} x1={e.x1} y1={e.y1} x2={e.x2} y2={e.y2} className="stroke-zinc-400" strokeWidth={1.2} />
        ),
      )}
      {g.nodes.map((n) => (
        <rect
          key={n.id}
          x={n.x}
          y={n.y}
          width={36}
          height={18}
          rx={n.type === "end" || n.type === "abort" || n.type === "start" ? 9 : 3}
          className={FILL[n.type as NodeKind] ?? "fill-zinc-300"}
        />
      ))}
    </svg>
  );
}

/**
 * "New workflow" gallery: one card per pattern template with a thumbnail of its graph; each card
 * submits `template=<id>` to the create action (a server action passed in by the page).
 */
export function TemplateGallery({
  templates,
  action,
}: {
  templates: GalleryTemplate[];
  action: (form: FormData) => Promise<void>;
}) {
  return (
    <ul
      className="grid w-full gap-3 text-left sm:grid-cols-2 lg:grid-cols-3"
      aria-label="Templates"
      data-testid="template-gallery"
    >
      {templates.map((t) => (
        <li key={t.id}>
          <form action={action} className="h-full">
            <input type="hidden" name="template" value={t.id} />
            <button
              type="submit"
              data-testid={`template-${t.id}`}
              className="group flex h-full w-full cursor-pointer flex-col gap-2 rounded-lg border border-border bg-surface p-4 text-left shadow-xs transition-colors hover:border-primary/50 hover:bg-surface-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <div className="flex h-24 items-center justify-center rounded-md bg-surface-2 p-2">
                {t.workflow ? (
                  <WorkflowThumbnail workflow={t.workflow} className="h-full w-full" />
                ) : (
                  <span className="text-xs text-muted">Start → End</span>
                )}
              </div>
              <span className="text-sm font-medium">{t.name}</span>
              <span className="line-clamp-3 text-xs text-muted">{t.description}</span>
              {t.tag && <Badge className="mt-auto self-start">{t.tag}</Badge>}
            </button>
          </form>
        </li>
      ))}
    </ul>
  );
}
