"use client";
import { Button } from "@/components/ui/button";
import { SUBFLOW_MAX_DEPTH, type NodeOf, type Workflow } from "@/lib/workflow/schema";
import { findTarget, targetFields, type SubflowTarget, type SubflowTargets } from "../subflow-targets";
import { useSubflowTargets } from "../subflow-targets-context";
import { CommitInput, parsePositiveInt, Row, Section, SelectField } from "./fields";
import { minutesToMs } from "./human-form";
import { TemplateField } from "./template-field";
import type { InspectorActions } from "./types";

type FormProps = { node: NodeOf<"subflow">; doc: Workflow; act: InspectorActions };

/** Subflow: the editor's subflow targets (the owner's workflows) feed {@link SubflowFields}. */
export function SubflowForm(props: FormProps) {
  return <SubflowFields {...props} subflows={useSubflowTargets()} />;
}

/**
 * The options of the workflow picker: "Choose a workflow…", the owner's other workflows by name,
 * then the edited workflow itself, marked (a subflow may run its own workflow: runs nest until
 * SUBFLOW_MAX_DEPTH, so only a path that avoids the subflow ends it), and a chosen id the list does
 * not know (deleted, or not the owner's), so the select still shows what the node says.
 */
export function workflowOptions(
  subflows: SubflowTargets | undefined,
  chosen: string,
): { value: string; label: string }[] {
  const targets = subflows?.targets ?? [];
  const label = (t: SubflowTarget) => (t.version === null ? `${t.name} (nothing saved yet)` : t.name);
  const options = [
    { value: "", label: "Choose a workflow…" },
    ...targets.filter((t) => t.id !== subflows?.currentId).map((t) => ({ value: t.id, label: label(t) })),
  ];
  const self = targets.find((t) => t.id === subflows?.currentId);
  if (self)
    options.push({
      value: self.id,
      label: `${self.name} (this workflow — runs itself; nesting stops at ${SUBFLOW_MAX_DEPTH})`,
    });
  if (chosen !== "" && !targets.some((t) => t.id === chosen))
    options.push({ value: chosen, label: `Unknown workflow (${chosen})` });
  return options;
}

/** The node's inputs with `key` set to `template`, or left out when the template is empty. */
export function withInput(inputs: Record<string, string>, key: string, template: string): Record<string, string> {
  const { [key]: _old, ...rest } = inputs;
  return template === "" ? rest : { ...rest, [key]: template };
}

/**
 * The subflow form: the workflow picker (with a link to open it), an optional pinned version, one
 * templated row per input field of the chosen workflow (key, type, required, description), rows for
 * mapped keys it does not declare (flagged, removable), its outputs as later nodes refer to them,
 * and how long the step waits for the child run.
 */
export function SubflowFields({ node, doc, act, subflows }: FormProps & { subflows: SubflowTargets | undefined }) {
  const found = findTarget(subflows, node.workflowId);
  // the fields of the version it runs: a pinned older version's own (the newest's while the pinned one is not saved: the note says so)
  const target = found && { ...found, ...targetFields(found, node.version) };
  const declared = new Set(target?.inputs.map((f) => f.key));
  const extra = Object.keys(node.inputs).filter((k) => !declared.has(k));
  const setInputs = (inputs: Record<string, string>) => act.updateNode(node.id, { inputs });
  return (
    <>
      <Section
        title="Workflow to run"
        actions={
          target && (
            <a
              href={`/workflows/${target.id}/edit`}
              target="_blank"
              rel="noopener"
              className="text-xs text-primary underline"
              data-testid="subflow-open"
            >
              Open workflow
            </a>
          )
        }
      >
        <SelectField
          value={node.workflowId}
          options={workflowOptions(subflows, node.workflowId)}
          testId="subflow-workflow"
          ariaLabel="Workflow to run"
          onChange={(workflowId) => act.updateNode(node.id, { workflowId, version: undefined })}
        />
        <TargetNote node={node} target={target} known={subflows !== undefined} />
        <Row label="Version (empty: the newest saved one when the step starts)">
          <CommitInput
            type="number"
            value={node.version === undefined ? "" : String(node.version)}
            testId="subflow-version"
            ariaLabel="Pinned version"
            placeholder={target?.version ? `newest: v${target.version}` : "newest saved"}
            onCommit={(text) => act.updateNode(node.id, { version: parsePositiveInt(text) })}
          />
        </Row>
      </Section>
      <Section title="Inputs">
        {!target && extra.length === 0 && <p className="text-xs text-muted">Choose a workflow to map its inputs.</p>}
        {target && target.inputs.length === 0 && <p className="text-xs text-muted">{target.name} has no inputs.</p>}
        {target?.inputs.map((f) => (
          <div
            key={f.key}
            className="grid gap-1 rounded-md border border-border p-2"
            data-testid={`subflow-input-${f.key}`}
          >
            <div className="flex items-baseline gap-2 text-xs">
              <code className="font-medium">{f.key}</code>
              <span className="text-muted">{f.type}</span>
              {f.required && (
                <span className="text-danger" title="A run of it needs this input">
                  required
                </span>
              )}
            </div>
            {f.description && <p className="text-[11px] text-muted">{f.description}</p>}
            <TemplateField
              doc={doc}
              nodeId={node.id}
              value={node.inputs[f.key] ?? ""}
              rows={2}
              testId={`subflow-input-${f.key}-value`}
              ariaLabel={`Input ${f.key}`}
              placeholder="e.g. {{inputs.topic}}"
              onCommit={(v) => setInputs(withInput(node.inputs, f.key, v))}
            />
          </div>
        ))}
        {extra.map((key) => (
          <div
            key={key}
            className="grid gap-1 rounded-md border border-danger/40 p-2"
            data-testid={`subflow-extra-${key}`}
          >
            <div className="flex items-center justify-between gap-2 text-xs">
              <span>
                <code className="font-medium">{key}</code>{" "}
                <span className="text-danger">
                  {target ? `not an input of ${target.name}` : "its workflow is unknown"}
                </span>
              </span>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove ${key}`}
                data-testid={`subflow-extra-${key}-remove`}
                onClick={() => setInputs(withInput(node.inputs, key, ""))}
              >
                ✕
              </Button>
            </div>
            <TemplateField
              doc={doc}
              nodeId={node.id}
              value={node.inputs[key] ?? ""}
              rows={2}
              ariaLabel={`Input ${key}`}
              onCommit={(v) => setInputs(withInput(node.inputs, key, v))}
            />
          </div>
        ))}
      </Section>
      {target && (
        <Section title="Output">
          <p className="text-xs text-muted" data-testid="subflow-outputs">
            {target.outputs.length === 0 ? (
              `${target.name} declares no outputs; this step's output is its run's outputs object.`
            ) : (
              <>
                Later nodes read its outputs as{" "}
                {target.outputs.map((o, i) => (
                  <span key={o.key}>
                    {i > 0 && ", "}
                    <code>{`{{nodes.${node.id}.output.${o.key}}}`}</code>
                  </span>
                ))}
                .
              </>
            )}
          </p>
        </Section>
      )}
      <Section title="If it takes too long">
        <Row label="Wait at most (minutes; empty: until its run ends)">
          <CommitInput
            type="number"
            value={node.timeoutMs === undefined ? "" : String(node.timeoutMs / 60_000)}
            testId="subflow-timeout"
            ariaLabel="Minutes to wait for the subflow's run"
            onCommit={(text) => act.updateNode(node.id, { timeoutMs: minutesToMs(text) })}
          />
        </Row>
      </Section>
    </>
  );
}

/** What stops the chosen workflow from running as it is set: nothing saved, a pinned version not saved, or no such workflow. */
function TargetNote({
  node,
  target,
  known,
}: {
  node: NodeOf<"subflow">;
  target: SubflowTarget | undefined;
  known: boolean;
}) {
  const note = (text: string) => (
    <p className="text-xs text-danger" data-testid="subflow-note">
      {text}
    </p>
  );
  if (!target)
    return known && node.workflowId !== ""
      ? note("This workflow does not exist (or is not yours); choose another.")
      : null;
  if (target.version === null) return note("Save a version of it first: subflows run saved versions.");
  if (node.version !== undefined && node.version > target.version)
    return note(`Version ${node.version} is not saved; its newest is v${target.version}.`);
  return null;
}
