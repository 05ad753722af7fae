"use client";
import type { Edge, Workflow } from "@/lib/workflow/schema";
import { CommitInput, Row, SelectField, parsePositiveInt } from "./fields";
import type { InspectorActions } from "./types";

/** Inspector of an edge: forward or loop; a loop's cap (maxIterations) and what happens when it is used up. */
export function EdgeInspector({ edge, doc, act }: { edge: Edge; doc: Workflow; act: InspectorActions }) {
  const source = doc.nodes.find((n) => n.id === edge.source);
  const others = source && "branches" in source ? source.branches.filter((b) => b.id !== edge.sourceHandle) : [];
  return (
    <div className="grid gap-3" data-testid="edge-inspector">
      <p className="text-xs text-muted">
        <code>{edge.source}</code> ({edge.sourceHandle}) → <code>{edge.target}</code>
      </p>
      <Row label="Kind">
        <SelectField
          value={edge.kind}
          testId="edge-kind"
          options={[
            { value: "forward", label: "Forward (data + control)" },
            { value: "loop", label: "Loop (goes back, capped)" },
          ]}
          onChange={(kind) =>
            act.updateEdge(
              edge.id,
              kind === "loop"
                ? {
                    kind,
                    maxIterations: edge.maxIterations ?? doc.limits.maxIterationsPerLoop,
                    onExhausted: edge.onExhausted ?? "continue",
                  }
                : { kind, maxIterations: undefined, onExhausted: undefined, continueWith: undefined },
            )
          }
        />
      </Row>
      {edge.kind === "loop" && (
        <>
          <Row label="Max iterations">
            <CommitInput
              type="number"
              value={edge.maxIterations === undefined ? "" : String(edge.maxIterations)}
              testId="loop-max"
              onCommit={(v) => act.updateEdge(edge.id, { maxIterations: parsePositiveInt(v) })}
            />
          </Row>
          <Row label="When exhausted">
            <SelectField
              value={edge.onExhausted ?? "continue"}
              testId="loop-on-exhausted"
              options={[
                { value: "continue", label: "Continue along another branch" },
                { value: "abort", label: "Abort the run" },
              ]}
              onChange={(onExhausted) => act.updateEdge(edge.id, { onExhausted })}
            />
          </Row>
          {edge.onExhausted !== "abort" && others.length > 0 && (
            <Row label="Continue with">
              <SelectField
                value={edge.continueWith ?? ""}
                options={[
                  { value: "", label: "first other branch" },
                  ...others.map((b) => ({ value: b.id, label: b.label || b.id })),
                ]}
                onChange={(v) => act.updateEdge(edge.id, { continueWith: v || undefined })}
              />
            </Row>
          )}
        </>
      )}
      {edge.kind === "forward" && (
        <Row label="Label">
          <CommitInput value={edge.label ?? ""} onCommit={(v) => act.updateEdge(edge.id, { label: v || undefined })} />
        </Row>
      )}
    </div>
  );
}
