import { nodeKindRegistry, type NodeKindSpec } from "@/lib/workflow/registry";
import { nodeKinds, type NodeKind } from "@/lib/workflow/schema";
import type { KindInfo } from "./prompts";
import { designFieldsOf } from "./wire";

/**
 * The node-kind catalogue the model sees, generated from lib/workflow's registry (description,
 * outcomes, terminal) and the design-form fields of each kind from the wire schema (wire.ts), with a
 * note where a field needs one. Keyed by NodeKind like every other per-kind table, so a kind added to
 * lib/workflow without a designer entry fails to compile.
 */
const FIELD_NOTES: { [K in NodeKind]: string } = {
  start: "",
  agent: " (agent = an agent key; branches default to one, done)",
  router: " (at least 2 branches)",
  tool: " (tool = a tool name)",
  orchestrator: " (workers = agent keys)",
  human: " (prompt = what a person is asked; branches = the choices, default approve/reject)",
  subflow:
    " (workflowId = an id from the saved workflows; inputs = {<its input key>: template}); later nodes read {{nodes.<id>.output.<output key>}}",
  map: " (items = a template giving a list, e.g. {{nodes.plan.output}} of an agent asked for a JSON list; agent + task = what runs once per item, the task reads {{item}}; concurrency default 4; onItemError fail | skip | collect); later nodes read {{nodes.<id>.output.results}} (the results in item order)",
  end: " (outputs = {output key: template})",
  abort: "",
};

const fieldsLine = (kind: NodeKind) => [["id", "name", ...designFieldsOf(kind)].join(", "), FIELD_NOTES[kind]].join("");

/** What the catalogue offers beyond the kinds every design can fill in. Default: nothing more. */
export interface CatalogueOptions {
  /** The context lists saved workflows, so a design can name one: offer `subflow`. */
  subflows?: boolean;
}

/**
 * Kinds a design can only fill in from the context: a subflow names one of the user's saved
 * workflows by id, so it is offered only when the context lists some (without them the prompt is
 * exactly what it was before subflows existed). One already in an edited graph round-trips through
 * `args` either way (compile.ts).
 */
const OFFERED_WHEN: { [K in NodeKind]?: keyof CatalogueOptions } = { subflow: "subflows" };

function outcomes<K extends NodeKind>(spec: NodeKindSpec<K>): string {
  if (spec.terminal) return "none";
  if (spec.kind === "agent") return "its branches (default one branch done)";
  if (spec.kind === "router") return "its branches";
  if (spec.kind === "human") return "its branches (default approve, reject)";
  return spec.outcomes(spec.defaultConfig("x")).join(", ");
}

/** Catalogue entries for every node kind the model may design, in lib/workflow's order. */
export function kindCatalogue(options: CatalogueOptions = {}): KindInfo[] {
  return nodeKinds.flatMap((kind) => {
    const spec = nodeKindRegistry[kind] as NodeKindSpec<NodeKind>;
    const fields = fieldsLine(kind);
    const needs = OFFERED_WHEN[kind];
    if (needs && !options[needs]) return [];
    const once = spec.singleton ? " Exactly one per workflow." : "";
    return [{ kind, does: `${spec.description}${once}`, fields, outcomes: outcomes(spec) }];
  });
}

/** The real kind names (a design may hold any of them; the catalogue offers those a design can fill in). */
export const KIND_NAMES: readonly string[] = nodeKinds;
