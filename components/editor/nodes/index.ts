import type { ComponentType } from "react";
import type { NodeProps } from "@xyflow/react";
import type { NodeKind } from "@/lib/workflow/schema";
import type { FlowNode } from "../flow-mapping";
import { AbortNode } from "./abort-node";
import { AgentNode } from "./agent-node";
import { EndNode } from "./end-node";
import { HumanNode } from "./human-node";
import { MapNode } from "./map-node";
import { OrchestratorNode } from "./orchestrator-node";
import { RouterNode } from "./router-node";
import { StartNode } from "./start-node";
import { SubflowNode } from "./subflow-node";
import { ToolNode } from "./tool-node";

/**
 * One canvas component per node kind; typed as a Record so a kind added to the schema without a
 * canvas component fails to compile. Module-level constant: React Flow wants a stable object.
 */
export const nodeTypes: Record<NodeKind, ComponentType<NodeProps<FlowNode>>> = {
  start: StartNode,
  agent: AgentNode,
  router: RouterNode,
  tool: ToolNode,
  orchestrator: OrchestratorNode,
  human: HumanNode,
  subflow: SubflowNode,
  map: MapNode,
  end: EndNode,
  abort: AbortNode,
};
