"use client";
import { memo } from "react";
import type { NodeProps } from "@xyflow/react";
import type { FlowNode } from "../flow-mapping";
import { NodeLine, NodeShell, sameNodeView } from "./node-shell";

/** Longest prompt preview drawn on the canvas (the inspector shows the whole prompt). */
const PREVIEW_CHARS = 80;

/** A prompt on one line, cut to {@link PREVIEW_CHARS} with an ellipsis. */
export function promptPreview(prompt: string): string {
  const line = prompt.replace(/\s+/g, " ").trim();
  return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line;
}

/** A human review: what the person is asked, the fields they fill in; one output handle per choice (branch). */
export const HumanNode = memo(function HumanNode({ data, selected }: NodeProps<FlowNode>) {
  const node = data.node;
  if (node.type !== "human") return null;
  return (
    <NodeShell data={data} selected={selected} accent="bg-fuchsia-200 text-fuchsia-950" kindLabel="Human review">
      <NodeLine label="asks"><span data-testid="node-prompt">{promptPreview(node.prompt) || "nothing yet"}</span></NodeLine>
      {node.fields.length > 0 && <NodeLine label="fields">{node.fields.map((f) => f.key).join(", ")}</NodeLine>}
    </NodeShell>
  );
}, sameNodeView);
