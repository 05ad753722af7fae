"use client";
import { MAP_MAX_CONCURRENCY } from "@/lib/workflow/map";
import { staticItemsProblem } from "@/lib/workflow/validate-map";
import type { NodeOf, Workflow } from "@/lib/workflow/schema";
import { CommitInput, parsePositiveInt, Row, Section, SelectField } from "./fields";
import { TemplateField } from "./template-field";
import type { InspectorActions } from "./types";

type FormProps = { node: NodeOf<"map">; doc: Workflow; act: InspectorActions };

const ITEM_ERROR_OPTIONS = [
  { value: "fail", label: "Fail the map (its error policy decides)" },
  { value: "skip", label: "Skip the item (left out of the results)" },
  { value: "collect", label: "Collect the error in its place" },
] as const;

/**
 * A map's inspector: the items (a template that gives a list, with autocomplete and the static list
 * check), its body (an agent and its task reading {{item}}, or a tool and its arguments), how many
 * items at once and what a failed item does.
 */
export function MapForm({ node, doc, act }: FormProps) {
  const problem = node.items.trim() === "" ? null : staticItemsProblem(doc, node.items);
  const body = node.body;
  const agents = [...doc.agents.map((a) => ({ value: a.key, label: `${a.name} (${a.key})` }))];
  if (body.type === "agent" && !doc.agents.some((a) => a.key === body.agent))
    agents.unshift({ value: body.agent, label: `${body.agent || "none"} (missing)` });
  return (
    <>
      <Section title="Items">
        <TemplateField
          doc={doc}
          nodeId={node.id}
          value={node.items}
          rows={1}
          testId="map-items"
          ariaLabel="Items"
          placeholder="e.g. {{nodes.plan.output}} or {{inputs.questions}}"
          onCommit={(items) => act.updateNode(node.id, { items })}
        />
        {problem && problem !== "missing" && (
          <p className="text-xs text-danger" data-testid="map-items-problem">
            Its items {problem}, not a list.
          </p>
        )}
        <p className="text-[11px] text-muted">
          A list, a JSON list in text (an agent&apos;s answer) or an object with one list field.
        </p>
      </Section>
      <Section title="For each item">
        <Row label="Runs">
          <SelectField
            value={body.type}
            testId="map-body-kind"
            ariaLabel="Body kind"
            options={[
              { value: "agent", label: "An agent" },
              { value: "tool", label: "A tool" },
            ]}
            onChange={(kind) =>
              act.updateNode(node.id, {
                body:
                  kind === "agent"
                    ? { type: "agent", agent: doc.agents[0]?.key ?? "", task: "{{item}}" }
                    : {
                        type: "tool",
                        tool: { name: "new_tool", placeholder: true },
                        args: { input: "{{item}}" },
                        sideEffect: false,
                      },
              })
            }
          />
        </Row>
        {body.type === "agent" ? (
          <>
            <Row label="Agent">
              <SelectField
                value={body.agent}
                options={agents}
                testId="map-body-agent"
                ariaLabel="Agent"
                onChange={(agent) => act.updateNode(node.id, { body: { ...body, agent } })}
              />
            </Row>
            <Row label="Task">
              <TemplateField
                doc={doc}
                nodeId={node.id}
                value={body.task}
                itemScope
                testId="map-body-task"
                ariaLabel="Task"
                placeholder="e.g. Research {{item}}"
                onCommit={(task) => act.updateNode(node.id, { body: { ...body, task } })}
              />
            </Row>
          </>
        ) : (
          <>
            <Row label="Tool">
              <CommitInput
                value={body.tool.name}
                testId="map-body-tool"
                onCommit={(name) =>
                  name.trim() && act.updateNode(node.id, { body: { ...body, tool: { name: name.trim() } } })
                }
              />
            </Row>
            {Object.entries(body.args).map(([key, value]) => (
              <Row key={key} label={`Argument ${key}`}>
                <TemplateField
                  doc={doc}
                  nodeId={node.id}
                  value={typeof value === "string" ? value : JSON.stringify(value)}
                  itemScope
                  rows={1}
                  onCommit={(v) => act.updateNode(node.id, { body: { ...body, args: { ...body.args, [key]: v } } })}
                />
              </Row>
            ))}
          </>
        )}
      </Section>
      <Section title="Running">
        <Row label={`Items at once (1–${MAP_MAX_CONCURRENCY}; the run's limit may lower it)`}>
          <CommitInput
            type="number"
            value={String(node.concurrency)}
            testId="map-concurrency"
            ariaLabel="Items at once"
            onCommit={(text) =>
              act.updateNode(node.id, {
                concurrency: Math.min(MAP_MAX_CONCURRENCY, parsePositiveInt(text) ?? node.concurrency),
              })
            }
          />
        </Row>
        <Row label="When an item fails">
          <SelectField
            value={node.onItemError}
            options={[...ITEM_ERROR_OPTIONS]}
            testId="map-item-error"
            ariaLabel="When an item fails"
            onChange={(onItemError) => act.updateNode(node.id, { onItemError })}
          />
        </Row>
      </Section>
    </>
  );
}
