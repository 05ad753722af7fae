import { buildGraph, forwardAncestors, type Graph } from "../graph";
import { workflowSchema, type Edge, type WorkflowInput } from "../schema";
import { layout, positiveInt, result, uniqueId, type ImportIssue, type ImportResult } from "./common";
import { child, children, childText, parseXml, textOf, XmlError, type XmlElement } from "./xml";

/**
 * Imports an AutoAgent workflow form (docs/workflow-model.md, "Seed formats"): `on_start` → start; every other
 * event → an agent node whose branches are its outputs; RESULT → forward edges to the listeners (or
 * to the end when nobody listens); GOTO → a loop edge when the target is upstream (cap from the
 * `max_iterations` global variable, else the default), otherwise an ordinary branch edge; ABORT → an
 * abort node. Unlike the reference implementation, GOTO really loops back (both spellings of the
 * action are accepted) and every event's input keys must be produced by the events it listens to.
 */
type Action = "RESULT" | "GOTO" | "ABORT";
type Output = {
  key: string;
  description: string;
  condition: string;
  action: Action;
  value: string;
  branch: string;
  line: number;
};
type Event = {
  name: string;
  id: string;
  line: number;
  inputs: string[];
  task: string;
  outputs: Output[];
  listen: string[];
  agent: string;
  model: string;
};
type Ctx = { issues: ImportIssue[]; events: Map<string, Event>; systemInputs: string[] };

const DEFAULT_MAX_ITERATIONS = 3;

/** RESULT / GOTO / ABORT, whatever the spelling ("GO_TO", "goto", "Go To"). */
export function normalizeAction(type: string): Action | undefined {
  const squashed = type.toUpperCase().replace(/[^A-Z]/g, "");
  return squashed === "RESULT" || squashed === "GOTO" || squashed === "ABORT" ? squashed : undefined;
}

const keysOf = (el: XmlElement | undefined, item: string): string[] =>
  el
    ? [...children(el, "key"), ...children(el, item).map((i) => child(i, "key"))]
        .map((k) => textOf(k))
        .filter((k) => k !== "")
    : [];

function readEvent(el: XmlElement, ids: Set<string>, issues: ImportIssue[]): Event {
  const name = childText(el, "name");
  const branches = new Set<string>();
  const outputs = children(child(el, "outputs") ?? el, "output").map((o): Output => {
    const actionEl = child(o, "action");
    const raw = childText(actionEl ?? o, "type") || textOf(actionEl);
    const action = normalizeAction(raw);
    if (!action)
      issues.push({
        code: "unknown_action",
        severity: "error",
        line: o.line,
        message: `Event "${name}": output action "${raw}" is not RESULT, GOTO or ABORT.`,
      });
    const key = childText(o, "key") || "result";
    return {
      key,
      description: childText(o, "description"),
      condition: childText(o, "condition"),
      action: action ?? "RESULT",
      value: actionEl ? childText(actionEl, "value") : "",
      branch: uniqueId(key, branches, "branch"),
      line: o.line,
    };
  });
  const agentEl = child(el, "agent");
  return {
    name,
    id: name === "on_start" ? "start" : uniqueId(name, ids, "event"),
    line: el.line,
    inputs: keysOf(child(el, "inputs"), "input"),
    task: childText(el, "task"),
    outputs,
    listen: children(child(el, "listen") ?? el, "event")
      .map(textOf)
      .filter((l) => l !== ""),
    agent: agentEl ? childText(agentEl, "name") : "",
    model: agentEl ? childText(agentEl, "model") : "",
  };
}

function readAgents(root: XmlElement, doc: WorkflowInput, events: Event[]): Map<string, string> {
  const keys = new Set<string>();
  const byNameModel = new Map<string, string>();
  const specs = children(child(root, "agents") ?? root, "agent").map((a) => ({ name: childText(a, "name"), el: a }));
  for (const ev of events) {
    if (ev.id === "start" || byNameModel.has(`${ev.agent}\u0000${ev.model}`)) continue;
    const spec = specs.find((s) => s.name === ev.agent)?.el;
    const tools = spec
      ? children(spec, "tools").flatMap((group) => children(group, "tool").map((t) => ({ group, t })))
      : [];
    const key = uniqueId(ev.agent || ev.name, keys, "agent");
    byNameModel.set(`${ev.agent}\u0000${ev.model}`, key);
    doc.agents?.push({
      key,
      name: ev.agent || key,
      description: spec ? childText(spec, "description") : "",
      instructions: spec ? childText(spec, "instructions") || childText(spec, "description") : "",
      ...(ev.model ? { model: { model: ev.model } } : {}),
      tools: tools.map(({ group, t }) => ({
        name: childText(t, "name"),
        ...(group.attributes.category === "new" ? { placeholder: true, description: childText(t, "description") } : {}),
      })),
    });
  }
  return byNameModel;
}

/** A GOTO into `ev`: from `source`, a loop when `ev` is the source or upstream of it. */
type Jump = { source: Event; back: boolean };

function producerRef(ev: Event, key: string, ctx: Ctx, jumps: Jump[]): string | undefined {
  for (const name of ev.listen) {
    const source = ctx.events.get(name);
    if (!source) continue;
    if (source.id === "start" && (ctx.systemInputs.includes(key) || source.outputs.some((o) => o.key === key)))
      return `{{inputs.${key}}}`;
    if (source.id !== "start" && source.outputs.some((o) => o.key === key)) return `{{nodes.${source.id}.output}}`;
  }
  const jump = jumps.find((j) => j.source.outputs.some((o) => o.key === key));
  if (!jump) return undefined;
  return jump.back ? "{{feedback}}" : `{{nodes.${jump.source.id}.output}}`;
}

function taskOf(ev: Event, ctx: Ctx, jumps: Jump[]): string {
  const lines = ev.inputs.flatMap((key) => {
    const ref = producerRef(ev, key, ctx, jumps);
    if (ref) return [`${key}: ${ref}`];
    const heard = [...ev.listen, ...jumps.map((j) => j.source.name)];
    ctx.issues.push({
      code: "input_not_produced",
      severity: "error",
      line: ev.line,
      message: `Event "${ev.name}" expects input "${key}", which no event it listens to (${heard.length > 0 ? heard.join(", ") : "none"}) produces.`,
    });
    return [];
  });
  const loops = jumps.some((j) => j.back) && !lines.some((l) => l.endsWith("{{feedback}}"));
  const feedback = loops ? ["Feedback from the previous attempt (if any): {{feedback}}"] : [];
  return [ev.task, lines.join("\n"), ...feedback].filter((s) => s !== "").join("\n\n");
}

function wireResults(ev: Event, ctx: Ctx, edges: Edge[], finals: Event[]): void {
  const handles = ev.id === "start" ? ["next"] : ev.outputs.filter((o) => o.action === "RESULT").map((o) => o.branch);
  const listeners = [...ctx.events.values()].filter((l) => l.listen.includes(ev.name));
  if (listeners.length === 0) {
    if (ev.id !== "start" && handles.length > 0) finals.push(ev);
    for (const h of handles)
      edges.push({ id: `${ev.id}-${h}-end`, source: ev.id, sourceHandle: h, target: "end", kind: "forward" });
    return;
  }
  if (handles.length === 0) {
    for (const l of listeners)
      ctx.issues.push({
        code: "listens_to_no_result",
        severity: "error",
        line: l.line,
        message: `Event "${l.name}" listens to "${ev.name}", which has no RESULT output.`,
      });
  }
  for (const h of handles)
    for (const l of listeners)
      edges.push({ id: `${ev.id}-${h}-${l.id}`, source: ev.id, sourceHandle: h, target: l.id, kind: "forward" });
}

/** GOTO and ABORT outputs; `graph` holds the RESULT (listen) edges that decide what is upstream. */
function wireJumps(ev: Event, ctx: Ctx, doc: WorkflowInput, graph: Graph, maxIterations: number): void {
  const edges = doc.edges as Edge[];
  for (const out of ev.outputs) {
    if (out.action === "ABORT") {
      const id = uniqueId(`abort_${ev.id}_${out.branch}`, new Set((doc.nodes ?? []).map((n) => n.id)));
      doc.nodes?.push({
        id,
        type: "abort",
        name: `Abort (${ev.name})`,
        reason: out.description || out.condition || `Aborted by ${ev.name}`,
      });
      edges.push({
        id: `${ev.id}-${out.branch}-${id}`,
        source: ev.id,
        sourceHandle: out.branch,
        target: id,
        kind: "forward",
      });
    }
    if (out.action !== "GOTO") continue;
    const target = ctx.events.get(out.value);
    if (!target || target.id === "start") {
      ctx.issues.push({
        code: "unknown_goto_target",
        severity: "error",
        line: out.line,
        message: `Event "${ev.name}": GOTO target "${out.value}" is not an event that can be re-entered.`,
      });
      continue;
    }
    const back = target.id === ev.id || forwardAncestors(graph, ev.id).has(target.id);
    const base = {
      id: `${ev.id}-${out.branch}-${target.id}`,
      source: ev.id,
      sourceHandle: out.branch,
      target: target.id,
    };
    const others = ev.outputs.some((o) => o !== out && o.action !== "GOTO");
    edges.push(
      back
        ? { ...base, kind: "loop", maxIterations, onExhausted: others ? "continue" : "abort" }
        : { ...base, kind: "forward" },
    );
  }
}

function readFields(el: XmlElement | undefined): { key: string; description: string }[] {
  if (!el) return [];
  const keys = children(el, "key").map(textOf);
  const descriptions = children(el, "description").map(textOf);
  return keys.map((key, i) => ({ key, description: descriptions[i] ?? "" }));
}

/**
 * What an event's `listen` list may name: events declared BEFORE it (as the reference
 * implementation requires: a form is read top to bottom). Every violation is reported, not the first.
 */
function listenIssues(ev: Event, index: number, events: Event[]): ImportIssue[] {
  const rule = "an event may only listen to events declared before it.";
  return ev.listen.flatMap((l): ImportIssue[] => {
    const at = events.findIndex((e) => e.name === l);
    if (at === -1)
      return [
        {
          code: "unknown_listen",
          severity: "error",
          line: ev.line,
          message: `Event "${ev.name}" listens to unknown event "${l}".`,
        },
      ];
    if (at === index)
      return [
        {
          code: "listens_to_later_event",
          severity: "error",
          line: ev.line,
          message: `Event "${ev.name}" listens to itself; ${rule}`,
        },
      ];
    if (at > index)
      return [
        {
          code: "listens_to_later_event",
          severity: "error",
          line: ev.line,
          message: `Event "${ev.name}" listens to "${l}", which is declared after it; ${rule}`,
        },
      ];
    return [];
  });
}

function build(root: XmlElement, issues: ImportIssue[]): WorkflowInput {
  const ids = new Set(["start", "end"]);
  const eventEls = children(child(root, "events") ?? root, "event");
  const events = eventEls.map((e) => readEvent(e, ids, issues));
  const ctx: Ctx = {
    issues,
    events: new Map(),
    systemInputs: readFields(child(root, "system_input")).map((f) => f.key),
  };
  for (const ev of events) {
    if (ctx.events.has(ev.name))
      issues.push({
        code: "duplicate_event",
        severity: "error",
        line: ev.line,
        message: `Event "${ev.name}" is defined more than once.`,
      });
    else ctx.events.set(ev.name, ev);
  }
  events.forEach((ev, i) => issues.push(...listenIssues(ev, i, events)));
  if (!ctx.events.has("on_start"))
    issues.push({ code: "missing_on_start", severity: "error", message: "The workflow has no on_start event." });
  const variables = children(child(root, "global_variables") ?? root, "variable").map((v) => {
    const value = childText(v, "value");
    const key = uniqueId(childText(v, "key"), new Set(), "var");
    return {
      key,
      description: childText(v, "description"),
      value: value !== "" && Number.isFinite(Number(value)) ? Number(value) : value,
    };
  });
  const maxIterations = positiveInt(variables.find((v) => v.key === "max_iterations")?.value) ?? DEFAULT_MAX_ITERATIONS;
  const doc: WorkflowInput = {
    name: childText(root, "name") || "Imported AutoAgent workflow",
    description: "Imported from an AutoAgent workflow form.",
    inputs: readFields(child(root, "system_input")).map((f) => ({ ...f, type: "text" as const })),
    outputs: readFields(child(root, "system_output")).map((f) => ({ ...f, type: "text" as const })),
    variables,
    limits: { maxIterationsPerLoop: maxIterations },
    agents: [],
    nodes: [],
    edges: [],
  };
  const agentKeys = readAgents(root, doc, events);
  return wire(doc, events, ctx, agentKeys, maxIterations);
}

function wire(
  doc: WorkflowInput,
  events: Event[],
  ctx: Ctx,
  agentKeys: Map<string, string>,
  maxIterations: number,
): WorkflowInput {
  for (const ev of ctx.events.values()) {
    if (ev.id === "start") {
      doc.nodes?.push({ id: "start", type: "start", name: "Start" });
      continue;
    }
    if (!ev.agent)
      ctx.issues.push({
        code: "missing_agent",
        severity: "error",
        line: ev.line,
        message: `Event "${ev.name}" names no agent.`,
      });
    const branches =
      ev.outputs.length > 0
        ? ev.outputs.map((o) => ({ id: o.branch, label: o.key, condition: o.condition || o.description }))
        : undefined;
    doc.nodes?.push({
      id: ev.id,
      type: "agent",
      name: ev.name,
      agent: agentKeys.get(`${ev.agent}\u0000${ev.model}`) ?? "",
      ...(branches ? { branches } : {}),
    });
  }
  const finals: Event[] = [];
  for (const ev of ctx.events.values()) wireResults(ev, ctx, doc.edges as Edge[], finals);
  const graph = buildGraph({ nodes: workflowSchema.shape.nodes.parse(doc.nodes), edges: [...(doc.edges as Edge[])] });
  const isBack = (source: Event, target: Event) =>
    target.id === source.id || forwardAncestors(graph, source.id).has(target.id);
  for (const node of doc.nodes ?? []) {
    const ev = events.find((e) => e.id === node.id);
    if (!ev || node.type !== "agent") continue;
    const jumps = events
      .filter((s) => s.outputs.some((o) => o.action === "GOTO" && o.value === ev.name))
      .map((source) => ({ source, back: isBack(source, ev) }));
    node.task = taskOf(ev, ctx, jumps);
  }
  for (const ev of ctx.events.values()) wireJumps(ev, ctx, doc, graph, maxIterations);
  if (finals.length === 0)
    ctx.issues.push({
      code: "no_final_event",
      severity: "error",
      message: "No event produces the final result (a RESULT output that no event listens to).",
    });
  const value = finals.map((f) => `{{nodes.${f.id}.output}}`).join("\n\n");
  doc.nodes?.push({
    id: "end",
    type: "end",
    name: "End",
    outputs: Object.fromEntries((doc.outputs ?? []).map((o) => [o.key, value])),
  });
  return doc;
}

/** Parses and imports an AutoAgent workflow form (XML text). */
export function importAutoAgentXml(text: string): ImportResult {
  let root: XmlElement;
  try {
    root = parseXml(text);
  } catch (e) {
    if (e instanceof XmlError)
      return { ok: false, issues: [{ code: "xml_syntax", severity: "error", message: e.message, line: e.line }] };
    throw e;
  }
  if (root.name !== "workflow")
    return {
      ok: false,
      issues: [
        {
          code: "not_a_workflow",
          severity: "error",
          line: root.line,
          message: `Expected a <workflow> root element, found <${root.name}>.`,
        },
      ],
    };
  const issues: ImportIssue[] = [];
  const parsed = workflowSchema.safeParse(build(root, issues));
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    return {
      ok: false,
      issues: [
        ...issues,
        {
          code: "invalid_document",
          severity: "error",
          message: `The imported workflow is not a valid document: ${detail}`,
        },
      ],
    };
  }
  return result(layout(parsed.data), issues);
}
