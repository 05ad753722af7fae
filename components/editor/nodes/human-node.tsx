"use client";
import { memo } from "react";
import type { NodeProps } from "@xyflow/react";
import type { FlowNode } from "../flow-mapping";
import { useNodeView } from "./detail-level";
import { NodeLine, NodeShell, sameNodeView } from "./node-shell";

/** Longest prompt preview drawn on the canvas (the inspector shows the whole prompt). */
const PREVIEW_CHARS = 80;

/** A prompt on one line, cut to {@link PREVIEW_CHARS} with an ellipsis. */
export function promptPreview(prompt: string): string {
  const line = prompt.replace(/\s+/g, " ").trim();
  return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line;
}

/**
 * A human review: in the editor, what the person is asked and the fields they fill in (a run shows its
 * question in the review card); one output handle per choice (branch).
 */
export const HumanNode = memo(function HumanNode({ data, selected }: NodeProps<FlowNode>) {
  const view = useNodeView();
  const node = data.node;
  if (node.type !== "human") return null;
  return (
    <NodeShell data={data} selected={selected}>
      {view === "design" && (
        <NodeLine label="Asks">
          <span data-testid="node-prompt">{promptPreview(node.prompt) || "nothing yet"}</span>
        </NodeLine>
      )}
      {view === "design" && node.fields.length > 0 && (
        <NodeLine label="Fields">{node.fields.map((f) => f.key).join(", ")}</NodeLine>
      )}
    </NodeShell>
  );
}, sameNodeView);
