"use client";
import { Handle, Position, useUpdateNodeInternals, type NodeProps } from "@xyflow/react";
import clsx from "clsx";
import { useEffect, useRef, type CSSProperties, type ReactNode } from "react";
import { KIND_TERMS, KindIcon } from "@/components/terms/kinds";
import { FILL_CLASS, RING_CLASS, statusHint, statusLabel, statusTone } from "@/components/terms/status";
import { DIFF_TERMS, joinBadge, joinHint, nodeTitle } from "@/components/terms/words";
import { TARGET_HANDLE, type FlowNode, type FlowNodeData } from "../flow-mapping";
import { useCompactNodes } from "./detail-level";
import { NODE_WIDTH } from "./node-size";
import { describeErrorPolicy } from "../error-policy-text";
import { ErrorPolicyBadge } from "./error-policy-badge";

/**
 * memo() comparator of the kind components: they draw only `data` and `selected`, so a drag (new
 * positionAbsoluteX/Y, dragging, z-index on every pointer move) re-renders none of them.
 */
export const sameNodeView = (a: NodeProps<FlowNode>, b: NodeProps<FlowNode>): boolean =>
  a.data === b.data && a.selected === b.selected;

type ShellProps = {
  data: FlowNodeData;
  selected: boolean;
  /** start has no input; end/abort have no outputs. */
  hasInput?: boolean;
  terminal?: boolean;
  children?: ReactNode;
};

/** The title row's middle (pt-3 + half the 28 px icon). */
const HANDLE_TOP: CSSProperties = { top: 26 };

const BADGE = "inline-flex h-5 items-center rounded-full px-2 text-xs font-medium leading-none";

/** Run status, iteration, join, error policy and validation badges (the row under the title; empty when none applies). */
function Badges({ data }: { data: FlowNodeData }) {
  const { node, run, issues, incoming } = data;
  const tone = run && statusTone(run.status);
  return (
    <>
      {run && tone && (
        <span
          data-testid="status-badge"
          title={statusHint(run.status)}
          className={clsx(BADGE, "gap-1.5 bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200")}
        >
          <span className={clsx("size-2 rounded-full", FILL_CLASS[tone])} />
          {statusLabel(run.status)}
        </span>
      )}
      {run && run.iteration > 1 && (
        <span
          data-testid="iteration-badge"
          title={`Iteration ${run.iteration}`}
          className={clsx(BADGE, "bg-amber-100 text-amber-900 dark:bg-amber-500/20 dark:text-amber-200")}
        >
          ×{run.iteration}
        </span>
      )}
      <ErrorPolicyBadge
        node={node}
        className={clsx(BADGE, "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200")}
      />
      {incoming > 1 && (
        <span
          data-testid="join-badge"
          title={joinHint(node.join, incoming)}
          className={clsx(BADGE, "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200")}
        >
          {joinBadge(node.join, incoming)}
        </span>
      )}
      {issues.length > 0 && (
        <span data-testid="issue-badge" title={issues.join("\n")} className={clsx(BADGE, "bg-danger text-white")}>
          {issues.length} {issues.length === 1 ? "issue" : "issues"}
        </span>
      )}
    </>
  );
}

const hasBadges = ({ node, run, incoming, issues }: FlowNodeData) =>
  Boolean(run) || incoming > 1 || issues.length > 0 || describeErrorPolicy(node) !== null;

/**
 * Common frame of every canvas node, one look in the editor, the run dashboard and the share page: the
 * kind's icon, the node's title and kind (components/terms), a row of badges (run status, iteration,
 * join, issues), the kind's facts, and one labelled output handle per outcome (a single outcome is a
 * bare handle on the right edge). Zoomed out (detail-level.tsx) it draws a flat box: icon and title.
 */
export function NodeShell({ data, selected, hasInput = true, terminal = false, children }: ShellProps) {
  const { node, run, issues } = data;
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
  const title = nodeTitle(node);
  // Border, selection, run status and version-diff marks: the same at every detail level.
  const marks = clsx(
    "rounded-xl border",
    issues.length > 0 && !run ? "border-danger" : "border-zinc-300 dark:border-zinc-700",
    selected && "outline outline-2 outline-offset-2 outline-primary",
    run && RING_CLASS[statusTone(run.status)],
    data.diff && DIFF_TERMS[data.diff].ring,
  );
  const attrs = {
    "data-testid": `node-${node.id}`,
    "data-kind": node.type,
    "data-status": run?.status,
    "data-iteration": run?.iteration,
    "data-history": run?.history?.join(" "),
    "data-diff": data.diff,
    style: { width: NODE_WIDTH },
  };
  // The input and a lone output sit level with the title, so edges between nodes of one row run straight.
  const input = hasInput && (
    <Handle
      type="target"
      position={Position.Left}
      id={TARGET_HANDLE}
      style={compact ? undefined : HANDLE_TOP}
      className="!size-3 !border-2 !border-white !bg-zinc-500 dark:!border-zinc-900"
    />
  );
  const source = (id: string, style?: CSSProperties) => (
    <Handle
      key={id}
      type="source"
      position={Position.Right}
      id={id}
      style={style}
      className="!size-3 !border-2 !border-white !bg-primary dark:!border-zinc-900"
    />
  );
  const outcomes = terminal ? [] : data.handles;

  // Zoomed out: a flat box in the kind's colours with the title as its only text: no shadow, no icon
  // (under 8 px here, where the colour is what tells kinds apart), no rows. One element besides the
  // handles, which sit outside its overflow clip (their containing block is React Flow's wrapper): at
  // a 500-node fit every element per node is style, layout and paint work before the first frame.
  if (compact) {
    return (
      <div
        {...attrs}
        data-compact=""
        title={title}
        className={clsx(marks, KIND_TERMS[node.type].tile, "truncate px-3 py-3 text-sm font-semibold leading-5")}
      >
        {input}
        {title}
        {outcomes.map((h, i) => source(h.id, { top: `${((i + 1) / (outcomes.length + 1)) * 100}%` }))}
      </div>
    );
  }
  return (
    <div
      {...attrs}
      className={clsx(marks, "relative bg-white text-zinc-900 shadow-sm dark:bg-zinc-900 dark:text-zinc-100")}
    >
      {input}
      <div className="flex items-center gap-2.5 px-3 pb-2 pt-3">
        <KindIcon kind={node.type} />
        <div className="min-w-0 flex-1">
          <div className="truncate text-sm font-semibold leading-5" title={title}>
            {title}
          </div>
          <div className="text-xs leading-4 text-zinc-500 dark:text-zinc-400">{KIND_TERMS[node.type].label}</div>
        </div>
      </div>
      {hasBadges(data) && (
        <div className="flex flex-wrap gap-1 px-3 pb-2">
          <Badges data={data} />
        </div>
      )}
      {run?.writing && (
        <p
          className="truncate px-3 pb-2 text-xs italic text-zinc-600 dark:text-zinc-300"
          data-testid={`node-writing-${node.id}`}
          title={run.writing}
          aria-live="polite"
        >
          {run.writing}
        </p>
      )}
      {children && (
        <dl className="grid grid-cols-[3.5rem_minmax(0,1fr)] gap-x-2 gap-y-1 px-3 pb-3 text-xs leading-4">
          {children}
        </dl>
      )}
      {outcomes.length === 1 && source(outcomes[0]!.id, HANDLE_TOP)}
      {outcomes.length > 1 && (
        <div className="border-t border-zinc-200 py-1 dark:border-zinc-800">
          {outcomes.map((h) => (
            <div
              key={h.id}
              className="relative flex h-7 items-center justify-end pr-4 text-xs text-zinc-600 dark:text-zinc-300"
            >
              {h.label}
              {source(h.id)}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** One "label value" fact inside a node body (a row of its two-column list; the value truncated to the node's width). */
export function NodeLine({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className="truncate text-zinc-800 dark:text-zinc-200">{children}</dd>
    </>
  );
}
