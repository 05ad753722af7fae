"use client";
import type { ReactNode } from "react";
import type { NodeKind, NodeOf, Workflow } from "@/lib/workflow/schema";
import { AgentForm, OrchestratorForm } from "./agent-form";
import { EdgeInspector } from "./edge-inspector";
import { ErrorPolicyForm } from "./error-policy-form";
import { CommitInput, Row, SelectField } from "./fields";
import { HumanForm } from "./human-form";
import { MapForm } from "./map-form";
import { AbortForm, EndForm, RouterForm, StartForm, ToolForm } from "./other-forms";
import { SubflowForm } from "./subflow-form";
import type { InspectorActions } from "./types";
import { WorkflowInspector } from "./workflow-inspector";

/** Kinds whose steps cannot fail: no error policy to edit. */
const NEVER_FAIL = new Set<NodeKind>(["start", "end", "abort"]);

type KindForm<K extends NodeKind> = (p: { node: NodeOf<K>; doc: Workflow; act: InspectorActions }) => ReactNode;

/** One inspector form per node kind (a Record, so a new kind without a form fails to compile). */
const FORMS: { [K in NodeKind]: KindForm<K> } = {
  start: StartForm,
  agent: AgentForm,
  router: RouterForm,
  tool: ToolForm,
  orchestrator: OrchestratorForm,
  human: HumanForm,
  subflow: SubflowForm,
  map: MapForm,
  end: EndForm,
  abort: AbortForm,
};

function NodeInspector<K extends NodeKind>({
  node,
  doc,
  act,
}: {
  node: NodeOf<K>;
  doc: Workflow;
  act: InspectorActions;
}) {
  const Form = FORMS[node.type as K] as KindForm<K>;
  const incoming = doc.edges.filter((e) => e.kind === "forward" && e.target === node.id).length;
  return (
    <div className="grid gap-3" data-testid="node-inspector" data-node-id={node.id}>
      <p className="text-xs text-muted">
        {node.type} · <code>{node.id}</code>
      </p>
      <Row label="Name">
        <CommitInput value={node.name} testId="node-name" onCommit={(name) => act.updateNode(node.id, { name })} />
      </Row>
      {incoming > 1 && (
        <Row label={`Join (${incoming} inputs)`}>
          <SelectField
            value={node.join}
            options={[
              { value: "all", label: "Wait for all" },
              { value: "any", label: "Run on the first" },
            ]}
            onChange={(join) => act.updateNode(node.id, { join })}
          />
        </Row>
      )}
      <Form node={node} doc={doc} act={act} />
      {!NEVER_FAIL.has(node.type) && <ErrorPolicyForm node={node} act={act} />}
    </div>
  );
}

/**
 * The side panel's inspector: the selected node's form, the selected edge's form, or (nothing
 * selected) the workflow's settings.
 */
export function Inspector({
  doc,
  nodeId,
  edgeId,
  act,
}: {
  doc: Workflow;
  nodeId?: string;
  edgeId?: string;
  act: InspectorActions;
}) {
  const node = nodeId ? doc.nodes.find((n) => n.id === nodeId) : undefined;
  if (node) return <NodeInspector key={node.id} node={node} doc={doc} act={act} />;
  const edge = edgeId ? doc.edges.find((e) => e.id === edgeId) : undefined;
  if (edge) return <EdgeInspector key={edge.id} edge={edge} doc={doc} act={act} />;
  return <WorkflowInspector doc={doc} act={act} />;
}
