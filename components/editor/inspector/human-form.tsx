"use client";
import type { NodeOf, Workflow } from "@/lib/workflow/schema";
import { BranchesEditor } from "./branches-editor";
import { FieldList } from "./field-list";
import { CommitInput, Row, Section, SelectField } from "./fields";
import { TemplateField } from "./template-field";
import type { InspectorActions } from "./types";

/** Human review: what the person is asked, the choices offered (branches), the fields they fill in, and what happens when nobody answers. */
export function HumanForm({ node, doc, act }: { node: NodeOf<"human">; doc: Workflow; act: InspectorActions }) {
  return (
    <>
      <Section title="What the person is asked">
        <TemplateField
          doc={doc}
          nodeId={node.id}
          value={node.prompt}
          testId="human-prompt"
          ariaLabel="Human review prompt"
          placeholder="e.g. Publish this draft? {{nodes.write.output}}"
          onCommit={(prompt) => act.updateNode(node.id, { prompt })}
        />
      </Section>
      <Section title="Choices (branches)">
        <BranchesEditor branches={node.branches} onChange={(branches) => act.updateNode(node.id, { branches })} />
      </Section>
      <Section title="Fields to fill in">
        <FieldList
          label="field"
          descriptions
          fields={node.fields}
          onChange={(fields) => act.updateNode(node.id, { fields })}
        />
      </Section>
      <Section title="If nobody answers">
        <Row label="Wait at most (minutes; empty: until someone answers)">
          <CommitInput
            type="number"
            value={node.timeoutMs === undefined ? "" : String(node.timeoutMs / 60_000)}
            testId="human-timeout"
            ariaLabel="Minutes to wait for an answer"
            onCommit={(text) => act.updateNode(node.id, { timeoutMs: minutesToMs(text) })}
          />
        </Row>
        {node.timeoutMs !== undefined && (
          <Row label="Then">
            <SelectField
              value={node.timeoutChoice ?? ""}
              testId="human-timeout-choice"
              ariaLabel="Choice taken when nobody answers"
              options={[
                { value: "", label: "time out (the run fails)" },
                ...node.branches.map((b) => ({ value: b.id, label: `take “${b.label || b.id}”` })),
              ]}
              onChange={(v) => act.updateNode(node.id, { timeoutChoice: v === "" ? undefined : v })}
            />
          </Row>
        )}
      </Section>
    </>
  );
}

/** Minutes typed in the inspector as a node timeout in ms (whole ms, > 0), or undefined when empty or not a positive number. */
export function minutesToMs(text: string): number | undefined {
  const minutes = Number(text.trim());
  return text.trim() !== "" && Number.isFinite(minutes) && minutes > 0
    ? Math.max(1, Math.round(minutes * 60_000))
    : undefined;
}
