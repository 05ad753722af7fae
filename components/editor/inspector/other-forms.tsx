"use client";
import { Button } from "@/components/ui/button";
import type { NodeOf, Workflow } from "@/lib/workflow/schema";
import { BranchesEditor } from "./branches-editor";
import { ModelPicker } from "./model-picker";
import { CommitInput, Row, Section, SelectField } from "./fields";
import { TemplateField } from "./template-field";
import type { InspectorActions } from "./types";

type FormProps<K extends "router" | "tool" | "end" | "abort" | "start"> = {
  node: NodeOf<K>;
  doc: Workflow;
  act: InspectorActions;
};

/** Router: mode (LLM judge or expression), judge prompt and model, branches with conditions or expressions. */
export function RouterForm({ node, doc, act }: FormProps<"router">) {
  return (
    <>
      <Row label="Mode">
        <SelectField
          value={node.mode}
          testId="router-mode"
          options={[
            { value: "llm", label: "LLM judges the conditions" },
            { value: "expression", label: "Expression over data" },
          ]}
          onChange={(mode) => act.updateNode(node.id, { mode })}
        />
      </Row>
      {node.mode === "llm" && (
        <Section title="What the judge sees">
          <TemplateField
            doc={doc}
            nodeId={node.id}
            value={node.prompt}
            ariaLabel="Router prompt"
            onCommit={(prompt) => act.updateNode(node.id, { prompt })}
          />
          <Row label="Judge model">
            <ModelPicker
              value={node.model}
              fallback="workflow default"
              testId="router-model"
              onChange={(model) => act.updateNode(node.id, { model })}
            />
          </Row>
        </Section>
      )}
      <Section title="Branches">
        <BranchesEditor
          branches={node.branches}
          expressions={node.mode === "expression"}
          onChange={(branches) => act.updateNode(node.id, { branches })}
        />
      </Section>
    </>
  );
}

/** Rows of key → templated value (tool arguments, end outputs). */
function TemplateRows({
  rows,
  doc,
  nodeId,
  onChange,
  keyLabel,
}: {
  rows: Record<string, string>;
  doc: Workflow;
  nodeId: string;
  onChange: (rows: Record<string, string>) => void;
  keyLabel: string;
}) {
  const entries = Object.entries(rows);
  const rename = (from: string, to: string) =>
    onChange(Object.fromEntries(entries.map(([k, v]) => [k === from ? to : k, v])));
  return (
    <div className="grid gap-2">
      {entries.map(([k, v]) => (
        <div key={k} className="grid gap-1 rounded-md border border-border p-2">
          <div className="flex gap-1">
            <CommitInput value={k} ariaLabel={keyLabel} onCommit={(to) => to.trim() && rename(k, to.trim())} />
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Remove ${k}`}
              onClick={() => onChange(Object.fromEntries(entries.filter(([x]) => x !== k)))}
            >
              ✕
            </Button>
          </div>
          <TemplateField
            doc={doc}
            nodeId={nodeId}
            value={v}
            rows={2}
            ariaLabel={`${k} value`}
            onCommit={(val) => onChange({ ...rows, [k]: val })}
          />
        </div>
      ))}
      <Button
        variant="outline"
        size="sm"
        onClick={() => {
          let n = entries.length + 1;
          while (`${keyLabel.toLowerCase()}${n}` in rows) n++;
          onChange({ ...rows, [`${keyLabel.toLowerCase()}${n}`]: "" });
        }}
      >
        Add {keyLabel.toLowerCase()}
      </Button>
    </div>
  );
}

/** Tool: which tool, side effects, templated arguments (with autocompletion). */
export function ToolForm({ node, doc, act }: FormProps<"tool">) {
  const args = Object.fromEntries(
    Object.entries(node.args).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
  );
  return (
    <>
      <Row label="Tool">
        <CommitInput
          value={node.tool.name}
          testId="tool-name"
          onCommit={(name) => name.trim() && act.updateNode(node.id, { tool: { ...node.tool, name: name.trim() } })}
        />
      </Row>
      <label className="flex items-center gap-2 text-xs">
        <input
          type="checkbox"
          checked={node.sideEffect}
          onChange={(e) => act.updateNode(node.id, { sideEffect: e.target.checked })}
        />
        Side effect (gets an idempotency key)
      </label>
      <Section title="Arguments">
        <TemplateRows
          rows={args}
          doc={doc}
          nodeId={node.id}
          keyLabel="Argument"
          onChange={(a) => act.updateNode(node.id, { args: a })}
        />
      </Section>
    </>
  );
}

/** End: one template per workflow output. */
export function EndForm({ node, doc, act }: FormProps<"end">) {
  return (
    <Section title="Outputs">
      <TemplateRows
        rows={node.outputs}
        doc={doc}
        nodeId={node.id}
        keyLabel="Output"
        onChange={(outputs) => act.updateNode(node.id, { outputs })}
      />
    </Section>
  );
}

/** Abort: the templated reason. */
export function AbortForm({ node, doc, act }: FormProps<"abort">) {
  return (
    <Row label="Reason">
      <TemplateField
        doc={doc}
        nodeId={node.id}
        value={node.reason}
        ariaLabel="Reason"
        onCommit={(reason) => act.updateNode(node.id, { reason })}
      />
    </Row>
  );
}

/** Start: nothing to configure; the run's inputs are workflow settings. */
export function StartForm({ doc }: FormProps<"start">) {
  return (
    <p className="text-xs text-muted">
      Exposes the run&apos;s inputs: {doc.inputs.map((f) => f.key).join(", ") || "none yet (workflow settings)"}.
    </p>
  );
}
