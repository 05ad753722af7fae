"use client";
import type { AgentSpec, NodeOf, Workflow } from "@/lib/workflow/schema";
import { SCRIPTED_MODEL_LABEL, isScriptedModel } from "../model-label";
import { BranchesEditor } from "./branches-editor";
import { ModelPicker } from "./model-picker";
import { CommitInput, CommitTextarea, Row, Section, SelectField } from "./fields";
import type { InspectorActions } from "./types";
import { TemplateField } from "./template-field";

/** Agent spec fields (inline agents): name, instructions, model, tools. Shared by agent and orchestrator nodes. */
export function AgentSpecFields({ spec, act }: { spec: AgentSpec; act: InspectorActions }) {
  const set = (patch: Partial<AgentSpec>) => act.upsertAgent(spec.key, patch);
  const scripted = isScriptedModel(spec.model?.provider, spec.model?.model);
  return (
    <Section title={spec.savedAgentId ? "Saved agent" : "Agent (inline)"}>
      <Row label="Agent name">
        <CommitInput value={spec.name} testId="agent-name" onCommit={(v) => set({ name: v.trim() || spec.key })} />
      </Row>
      <Row label="Instructions">
        <CommitTextarea
          value={spec.instructions}
          rows={4}
          testId="agent-instructions"
          onCommit={(v) => set({ instructions: v })}
        />
      </Row>
      <Row label={`Model${scripted ? ` (${SCRIPTED_MODEL_LABEL})` : ""}`}>
        <ModelPicker
          value={spec.model}
          fallback="workflow default"
          testId="agent-model"
          onChange={(model) => set({ model })}
        />
      </Row>
      <Row label="Tools (comma separated)">
        <CommitInput
          value={spec.tools.map((t) => t.name).join(", ")}
          testId="agent-tools"
          onCommit={(v) =>
            set({
              tools: v
                .split(",")
                .map((s) => s.trim())
                .filter(Boolean)
                .map((name) => ({ name })),
            })
          }
        />
      </Row>
      <label className="flex items-center gap-2 text-xs">
        <input
          type="checkbox"
          checked={spec.createTools === true}
          data-testid="agent-create-tools"
          onChange={(e) => set({ createTools: e.target.checked || undefined })}
        />
        May write a tool it lacks during a run (create_tool; you approve each one)
      </label>
    </Section>
  );
}

/** Choose which agent spec a node uses (or a new inline one). */
function AgentPicker({
  doc,
  value,
  onChange,
  act,
}: {
  doc: Workflow;
  value: string;
  onChange: (key: string) => void;
  act: InspectorActions;
}) {
  const options = [
    ...doc.agents.map((a) => ({ value: a.key, label: `${a.name} (${a.key})` })),
    { value: "__new", label: "New inline agent…" },
  ];
  if (!doc.agents.some((a) => a.key === value)) options.unshift({ value, label: `${value || "none"} (missing)` });
  return (
    <SelectField
      value={value}
      options={options}
      testId="agent-picker"
      ariaLabel="Agent"
      onChange={(v) => (v === "__new" ? onChange(act.newAgentKey()) : onChange(v))}
    />
  );
}

/** Inspector of an agent node: agent spec, task template and branches. */
export function AgentForm({ node, doc, act }: { node: NodeOf<"agent">; doc: Workflow; act: InspectorActions }) {
  const spec = doc.agents.find((a) => a.key === node.agent);
  return (
    <>
      <Row label="Agent">
        <AgentPicker doc={doc} value={node.agent} act={act} onChange={(agent) => act.updateNode(node.id, { agent })} />
      </Row>
      {spec && <AgentSpecFields spec={spec} act={act} />}
      <Section title="Task">
        <TemplateField
          doc={doc}
          nodeId={node.id}
          value={node.task}
          testId="node-task"
          ariaLabel="Task"
          placeholder="e.g. Outline an article on {{inputs.topic}}. {{feedback}}"
          onCommit={(task) => act.updateNode(node.id, { task })}
        />
      </Section>
      <Section title="Branches">
        <BranchesEditor branches={node.branches} onChange={(branches) => act.updateNode(node.id, { branches })} />
      </Section>
    </>
  );
}

/** Inspector of an orchestrator: its agent, task, workers and handoff budget. */
export function OrchestratorForm({
  node,
  doc,
  act,
}: {
  node: NodeOf<"orchestrator">;
  doc: Workflow;
  act: InspectorActions;
}) {
  const spec = doc.agents.find((a) => a.key === node.agent);
  return (
    <>
      <Row label="Agent">
        <AgentPicker doc={doc} value={node.agent} act={act} onChange={(agent) => act.updateNode(node.id, { agent })} />
      </Row>
      {spec && <AgentSpecFields spec={spec} act={act} />}
      <Section title="Task">
        <TemplateField
          doc={doc}
          nodeId={node.id}
          value={node.task}
          ariaLabel="Task"
          onCommit={(task) => act.updateNode(node.id, { task })}
        />
      </Section>
      <Section title="Workers">
        <Row label="Worker agent keys (comma separated)">
          <CommitInput
            value={node.workers.join(", ")}
            onCommit={(v) =>
              act.updateNode(node.id, {
                workers: v
                  .split(",")
                  .map((s) => s.trim())
                  .filter(Boolean),
              })
            }
          />
        </Row>
        <Row label="Max handoffs">
          <CommitInput
            type="number"
            value={String(node.maxHandoffs)}
            onCommit={(v) => act.updateNode(node.id, { maxHandoffs: Number(v) })}
          />
        </Row>
      </Section>
    </>
  );
}
