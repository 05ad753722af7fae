"use client";
import { memo } from "react";
import type { NodeProps } from "@xyflow/react";
import type { MapProgress } from "../flow-mapping";
import type { FlowNode } from "../flow-mapping";
import { useNodeView } from "./detail-level";
import { NodeLine, NodeShell, sameNodeView } from "./node-shell";

/** "3 of 20 done · 1 failed · 5 running": a map's items in a run, as its node and the step inspector say it. */
export function mapProgressText(p: MapProgress): string {
  const parts = [`${p.succeeded + p.failed} of ${p.total} done`];
  if (p.failed > 0) parts.push(`${p.failed} failed`);
  if (p.running > 0) parts.push(`${p.running} running`);
  return parts.join(" · ");
}

/**
 * A map: the list it goes over, what runs for each item (an agent or a tool), how many at once and
 * what a failed item does; on a run's graph, how far its items are.
 */
export const MapNode = memo(function MapNode({ data, selected }: NodeProps<FlowNode>) {
  const view = useNodeView();
  const node = data.node;
  if (node.type !== "map") return null;
  const body =
    node.body.type === "agent" ? (data.agent?.name ?? (node.body.agent || "no agent")) : `tool ${node.body.tool.name}`;
  const items = data.run?.items;
  return (
    <NodeShell data={data} selected={selected}>
      {view === "design" && (
        <NodeLine label="Over">
          <code data-testid="map-node-items">{node.items || "no list yet"}</code>
        </NodeLine>
      )}
      <NodeLine label="Each">{body}</NodeLine>
      {items ? (
        <NodeLine label="Items">
          <span data-testid="map-progress" data-done={items.succeeded + items.failed} data-total={items.total}>
            {mapProgressText(items)}
          </span>
        </NodeLine>
      ) : (
        view === "design" && (
          <NodeLine label="At once">
            {node.concurrency}
            {node.onItemError !== "fail" ? ` · failed items: ${node.onItemError}` : ""}
          </NodeLine>
        )
      )}
    </NodeShell>
  );
}, sameNodeView);
