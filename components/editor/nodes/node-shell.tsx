"use client";
import { Handle, Position, useUpdateNodeInternals, type NodeProps } from "@xyflow/react";
import clsx from "clsx";
import { useEffect, useRef, type ReactNode } from "react";
import { TARGET_HANDLE, type FlowNode, type FlowNodeData, type NodeRunState } from "../flow-mapping";
import { useCompactNodes } from "./detail-level";

/**
 * memo() comparator of the kind components: they draw only `data` and `selected`, so a drag (new
 * positionAbsoluteX/Y, dragging, z-index on every pointer move) re-renders none of them.
 */
export const sameNodeView = (a: NodeProps<FlowNode>, b: NodeProps<FlowNode>): boolean => a.data === b.data && a.selected === b.selected;

/** Colour of the node border per run status (the live overlay). */
const RUN_RING: Record<NodeRunState["status"], string> = {
  pending: "ring-2 ring-zinc-300 dark:ring-zinc-600",
  running: "ring-4 ring-sky-400 animate-pulse",
  waiting: "ring-4 ring-amber-400",
  succeeded: "ring-4 ring-emerald-500",
  failed: "ring-4 ring-red-500",
  skipped: "ring-2 ring-zinc-300 opacity-50 dark:ring-zinc-600",
};

/** Version diff highlight. */
const DIFF_RING: Record<NonNullable<FlowNodeData["diff"]>, string> = {
  added: "ring-4 ring-emerald-400",
  changed: "ring-4 ring-amber-400",
  removed: "ring-4 ring-red-400 opacity-60",
};

type ShellProps = {
  data: FlowNodeData;
  selected: boolean;
  /** Tailwind classes of the header strip (one colour per kind). */
  accent: string;
  kindLabel: string;
  /** start has no input; end/abort have no outputs (the terminal look). */
  hasInput?: boolean;
  terminal?: boolean;
  children?: ReactNode;
};

/**
 * Common frame of every canvas node: header (kind + name), body, one labelled output handle per
 * outcome, validation badge and run overlay. Kind components fill the body. Zoomed out (see
 * detail-level.tsx) it draws only a flat box: kind colour, badges, name and the handles.
 */
export function NodeShell({ data, selected, accent, kindLabel, hasInput = true, terminal = false, children }: ShellProps) {
  const { node, run, issues, incoming } = data;
  const compact = useCompactNodes();
  const updateNodeInternals = useUpdateNodeInternals();
  const handleKey = data.handles.map((h) => h.id).join("|");
  // React Flow caches handle positions per node; a renamed or reordered outcome must be re-measured.
  // Not on mount: React Flow measures a new node itself, and one call per mounted node (each a forced
  // layout plus a store update every node's selectors see) made loading quadratic (B3: 500 nodes).
  const measuredKey = useRef(handleKey);
  useEffect(() => {
    if (measuredKey.current === handleKey) return;
    measuredKey.current = handleKey;
    updateNodeInternals(node.id);
  }, [handleKey, node.id, updateNodeInternals]);
  const frame = clsx(
    "w-56 rounded-lg border bg-white text-xs dark:bg-zinc-900 dark:text-zinc-100",
    terminal ? "rounded-full border-2 border-zinc-800 dark:border-zinc-200" : "border-zinc-300 dark:border-zinc-700",
    selected && "outline outline-2 outline-offset-2 outline-sky-500",
    issues.length > 0 && !run && "border-red-400",
    run && RUN_RING[run.status],
    data.diff && DIFF_RING[data.diff],
  );
  const attrs = {
    "data-testid": `node-${node.id}`,
    "data-kind": node.type,
    "data-status": run?.status,
    "data-iteration": run?.iteration,
    "data-history": run?.history?.join(" "),
    "data-diff": data.diff,
  };
  const input = hasInput && <Handle type="target" position={Position.Left} id={TARGET_HANDLE} className="!h-3 !w-3 !bg-zinc-500" />;
  const header = clsx("flex items-center gap-2 px-3", terminal ? "rounded-t-full" : "rounded-t-lg", accent);
  const name = <div className="truncate text-sm font-medium" title={node.name || node.id}>{node.name || node.id}</div>;
  const badges = (
    <>
      {incoming > 1 && (
        <span data-testid="join-badge" title={`Join (${node.join}): waits for ${node.join === "all" ? incoming : 1} of ${incoming} inputs`}
          className="rounded bg-white/70 px-1 text-[10px] text-zinc-800">
          {node.join === "all" ? `waits ${incoming}/${incoming}` : `any of ${incoming}`}
        </span>
      )}
      {run && run.iteration > 1 && (
        <span data-testid="iteration-badge" className="rounded bg-amber-300 px-1 text-[10px] font-bold text-zinc-900">×{run.iteration}</span>
      )}
      {issues.length > 0 && (
        <span data-testid="issue-badge" title={issues.join("\n")} className="rounded-full bg-red-500 px-1.5 text-[10px] font-bold text-white">
          {issues.length}
        </span>
      )}
    </>
  );

  // Zoomed out: a flat box (colour strip with the badges, name, handles spread down the right edge).
  // No positioned rows and no shadow: every positioned element is one more layer for the browser to
  // hit-test and composite on each pointer move and pan step (B3: 2,000 nodes).
  if (compact) {
    return (
      <div {...attrs} data-compact="" className={frame}>
        {input}
        <div className={clsx(header, "h-6 justify-end")}>{badges}</div>
        <div className="truncate px-3 py-2 text-sm font-medium" title={node.name || node.id}>{node.name || node.id}</div>
        {!terminal && data.handles.map((h, i) => (
          <Handle key={h.id} type="source" position={Position.Right} id={h.id} className="!h-3 !w-3 !bg-sky-600"
            style={{ top: `${((i + 1) / (data.handles.length + 1)) * 100}%` }} />
        ))}
      </div>
    );
  }
  return (
    <div {...attrs} className={clsx(frame, "relative shadow-sm")}>
      {input}
      <div className={clsx(header, "justify-between py-1.5")}>
        <span className="font-semibold uppercase tracking-wide">{kindLabel}</span>
        <span className="flex items-center gap-1">{badges}</span>
      </div>
      <div className="px-3 py-2">
        {name}
        {children}
      </div>
      {!terminal && data.handles.length > 0 && (
        <div className="border-t border-zinc-200 py-1 dark:border-zinc-700">
          {data.handles.map((h) => (
            <div key={h.id} className="relative flex h-6 items-center justify-end pr-4 text-[11px] text-zinc-600 dark:text-zinc-300">
              {h.label}
              <Handle type="source" position={Position.Right} id={h.id} className="!h-3 !w-3 !bg-sky-600" />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** A muted "label: value" line inside a node body. */
export function NodeLine({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="mt-0.5 flex gap-1 truncate text-zinc-500 dark:text-zinc-400">
      <span className="shrink-0">{label}:</span>
      <span className="truncate text-zinc-700 dark:text-zinc-200">{children}</span>
    </div>
  );
}
