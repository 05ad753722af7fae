"use client";
import { memo } from "react";
import type { NodeProps } from "@xyflow/react";
import type { FlowNode } from "../flow-mapping";
import { NodeShell, sameNodeView } from "./node-shell";

/** The run's entry point: no input handle, one `next` outcome. Memoised (re-renders only when its data changes). */
export const StartNode = memo(function StartNode({ data, selected }: NodeProps<FlowNode>) {
  return <NodeShell data={data} selected={selected} hasInput={false} />;
}, sameNodeView);
