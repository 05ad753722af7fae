"use client";
import type { NodeOf, Workflow } from "@/lib/workflow/schema";
import { BranchesEditor } from "./branches-editor";
import { FieldList } from "./field-list";
import { Section } from "./fields";
import { TemplateField } from "./template-field";
import type { InspectorActions } from "./types";

/** Human review: what the person is asked, the choices offered (branches) and the fields they fill in. */
export function HumanForm({ node, doc, act }: { node: NodeOf<"human">; doc: Workflow; act: InspectorActions }) {
  return (
    <>
      <Section title="What the person is asked">
        <TemplateField doc={doc} nodeId={node.id} value={node.prompt} testId="human-prompt" ariaLabel="Human review prompt"
          placeholder="e.g. Publish this draft? {{nodes.write.output}}" onCommit={(prompt) => act.updateNode(node.id, { prompt })} />
      </Section>
      <Section title="Choices (branches)">
        <BranchesEditor branches={node.branches} onChange={(branches) => act.updateNode(node.id, { branches })} />
      </Section>
      <Section title="Fields to fill in">
        <FieldList label="field" descriptions fields={node.fields} onChange={(fields) => act.updateNode(node.id, { fields })} />
      </Section>
    </>
  );
}
