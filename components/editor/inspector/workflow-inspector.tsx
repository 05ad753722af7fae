"use client";
import { Button } from "@/components/ui/button";
import type { Limits, Variable, Workflow } from "@/lib/workflow/schema";
import { FieldList } from "./field-list";
import { ModelPicker } from "./model-picker";
import { CommitInput, CommitTextarea, Row, Section, SelectField, parsePositiveInt } from "./fields";
import type { InspectorActions } from "./types";

function VariableList({ vars, onChange }: { vars: Variable[]; onChange: (v: Variable[]) => void }) {
  const set = (i: number, patch: Partial<Variable>) => onChange(vars.map((v, j) => (j === i ? { ...v, ...patch } : v)));
  return (
    <div className="grid gap-1">
      {vars.map((v, i) => (
        <div key={`${i}-${v.key}`} className="flex gap-1">
          <CommitInput
            value={v.key}
            ariaLabel={`Variable ${i + 1} key`}
            onCommit={(key) => set(i, { key: key.trim() })}
          />
          <CommitInput
            value={String(v.value)}
            ariaLabel={`Variable ${i + 1} value`}
            onCommit={(raw) => set(i, { value: raw.trim() !== "" && !Number.isNaN(Number(raw)) ? Number(raw) : raw })}
          />
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Remove ${v.key}`}
            onClick={() => onChange(vars.filter((_, j) => j !== i))}
          >
            ✕
          </Button>
        </div>
      ))}
      <Button
        variant="outline"
        size="sm"
        onClick={() => onChange([...vars, { key: `var${vars.length + 1}`, value: "", description: "" }])}
      >
        Add variable
      </Button>
    </div>
  );
}

const LIMITS: { key: keyof Limits; label: string }[] = [
  { key: "maxSteps", label: "Max steps" },
  { key: "maxIterationsPerLoop", label: "Default loop cap" },
  { key: "maxTurnsPerVisit", label: "Max agent turns per visit" },
  { key: "runTimeoutMs", label: "Run timeout (ms)" },
  { key: "tokenBudget", label: "Token budget" },
];

const TOOL_CREATION: { value: "" | "ask" | "auto"; label: string }[] = [
  { value: "", label: "Only agents marked to write tools; I approve each" },
  { value: "ask", label: "Every agent may write tools; I approve each" },
  { value: "auto", label: "Every agent; pure computation approved at once" },
];

/** Workflow-level settings: name, description, inputs, outputs, variables, default model, tools written during a run, limits. */
export function WorkflowInspector({ doc, act }: { doc: Workflow; act: InspectorActions }) {
  return (
    <div className="grid gap-3" data-testid="workflow-inspector">
      <Row label="Name">
        <CommitInput value={doc.name} testId="workflow-name" onCommit={(name) => act.updateWorkflow({ name })} />
      </Row>
      <Row label="Description">
        <CommitTextarea
          value={doc.description}
          rows={2}
          onCommit={(description) => act.updateWorkflow({ description })}
        />
      </Row>
      <Section title="Inputs">
        <FieldList label="input" fields={doc.inputs} onChange={(inputs) => act.updateWorkflow({ inputs })} />
      </Section>
      <Section title="Outputs">
        <FieldList label="output" fields={doc.outputs} onChange={(outputs) => act.updateWorkflow({ outputs })} />
      </Section>
      <Section title="Variables">
        <VariableList vars={doc.variables} onChange={(variables) => act.updateWorkflow({ variables })} />
      </Section>
      <Section title="Default model">
        <ModelPicker
          value={doc.defaultModel}
          fallback="your default"
          testId="workflow-default-model"
          onChange={(defaultModel) => act.updateWorkflow({ defaultModel })}
        />
      </Section>
      <Section title="Tools written during a run">
        <SelectField
          value={doc.toolCreation ?? ""}
          options={TOOL_CREATION}
          testId="workflow-tool-creation"
          ariaLabel="Tools written during a run"
          onChange={(v) => act.updateWorkflow({ toolCreation: v === "" ? undefined : v })}
        />
      </Section>
      <Section title="Limits">
        {LIMITS.map(({ key, label }) => (
          <Row key={key} label={label}>
            <CommitInput
              type="number"
              value={doc.limits[key] === undefined ? "" : String(doc.limits[key])}
              ariaLabel={label}
              onCommit={(v) => {
                const n = parsePositiveInt(v);
                if (n !== undefined || key === "tokenBudget")
                  act.updateWorkflow({ limits: { ...doc.limits, [key]: n } });
              }}
            />
          </Row>
        ))}
      </Section>
    </div>
  );
}
