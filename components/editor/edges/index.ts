import type { ComponentType } from "react";
import type { EdgeProps } from "@xyflow/react";
import type { FlowEdge } from "../flow-mapping";
import { ForwardEdge } from "./forward-edge";
import { LoopEdge } from "./loop-edge";

/** Edge components per edge kind (stable module constant, as React Flow requires). */
export const edgeTypes: Record<FlowEdge["type"], ComponentType<EdgeProps<FlowEdge>>> = {
  forward: ForwardEdge,
  loop: LoopEdge,
};
