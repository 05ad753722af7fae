import * as z from "zod";
import { fix, type LocalFix } from "./fixes";
import { readOperation } from "./read-ops";
import {
  agentReader,
  edgeReader,
  fieldReader,
  isObj,
  list,
  nodeReader,
  pick,
  text,
  toolNeeded,
  toRecord,
  variableReader,
} from "./read-parts";
import type { DesignAnswer, EditAnswer, EditOperation } from "./schemas";

/**
 * Reads whatever a model answered into the design form, as leniently as the shapes allow: nulls
 * (strict mode's "absent") and unknown fields are dropped, numbers become text where text is
 * expected, a map may come as a {key, value} list (strict mode) or an object, a list item that is
 * not one is skipped, common aliases are read (`type` for `kind`, `source`/`target` for an edge's
 * ends, "a -> b" for an edge). The repairs then make the result valid; only an answer with no design
 * at all is refused here.
 */

/** A JSON string inside the answer (a tool's `arguments`, a wrapper's payload) parsed once. */
const parsedString = (v: unknown): unknown => {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
};

/** The object holding `keys`: the answer itself, or one wrapped in a single-key object or a one-item list. */
function unwrap(data: unknown, keys: string[], fixes: LocalFix[], depth = 0): Record<string, unknown> | undefined {
  const v = parsedString(data);
  if (isObj(v) && keys.some((k) => k in v)) return v;
  if (depth >= 3) return undefined;
  const inner =
    Array.isArray(v) && v.length === 1
      ? v[0]
      : isObj(v) && Object.keys(v).length === 1
        ? Object.values(v)[0]
        : undefined;
  if (inner === undefined) return undefined;
  const found = unwrap(inner, keys, fixes, depth + 1);
  if (found && depth === 0)
    fixes.push(fix("answer_unwrapped", "The answer was wrapped in another object: read the design inside it."));
  return found;
}

export type ReadResult<T> = { ok: true; answer: T; fixes: LocalFix[] } | { ok: false; error: string };

/** Reads a new-workflow answer: {profile, design}, or a bare design ({nodes, edges}) with the profile left empty. */
export function readDesignAnswer(data: unknown): ReadResult<DesignAnswer> {
  const fixes: LocalFix[] = [];
  const root = unwrap(data, ["profile", "design", "nodes"], fixes);
  if (!root)
    return {
      ok: false,
      error: "The answer holds no design: expected one JSON object {profile, design: {nodes, edges}}.",
    };
  const design = isObj(parsedString(root.design)) ? (parsedString(root.design) as Record<string, unknown>) : root;
  const profile = isObj(parsedString(root.profile)) ? (parsedString(root.profile) as Record<string, unknown>) : {};
  const nodes = list(nodeReader).parse(design.nodes);
  const summary = text.parse(pick(profile, "summary", "description")) ?? text.parse(design.description) ?? "";
  const vars = isObj(design.variables)
    ? Object.entries(design.variables).map(([key, value]) => ({ key, value }))
    : design.variables;
  const answer: DesignAnswer = {
    profile: {
      summary,
      inputs: list(fieldReader).parse(profile.inputs),
      outputs: list(fieldReader).parse(profile.outputs),
      patterns: list(text.pipe(z.string())).parse(profile.patterns),
      agents: list(agentReader).parse(pick(profile, "agents") ?? root.agents),
      toolsNeeded: list(toolNeeded).parse(pick(profile, "toolsNeeded", "tools_needed", "tools")),
      ...(toRecord(profile.sampleInputs) ? { sampleInputs: toRecord(profile.sampleInputs) } : {}),
    },
    design: {
      name: text.parse(design.name) ?? (summary.split(/[.:]/)[0]?.slice(0, 60) || "Designed workflow"),
      ...(text.parse(design.description) !== undefined ? { description: text.parse(design.description) } : {}),
      variables: list(variableReader).parse(vars),
      nodes,
      edges: list(edgeReader).parse(pick(design, "edges", "connections", "links")),
    },
  };
  if (nodes.length === 0 && answer.profile.agents.length === 0) {
    return {
      ok: false,
      error: "The answer's design has no nodes and its profile no agents: there is nothing to build.",
    };
  }
  return { ok: true, answer, fixes };
}

/** Reads an edit answer: {summary, operations}, or a bare list of operations. */
export function readEditAnswer(data: unknown): ReadResult<EditAnswer> {
  const fixes: LocalFix[] = [];
  const v = parsedString(data);
  const root =
    Array.isArray(v) && v.every(isObj) && v.some((x) => "op" in x)
      ? { operations: v }
      : unwrap(v, ["operations", "ops", "edits"], fixes);
  if (!root)
    return {
      ok: false,
      error: "The answer holds no operations: expected one JSON object {summary, operations: [...]}.",
    };
  const raw = list(z.unknown()).parse(pick(root, "operations", "ops", "edits"));
  const operations = raw.flatMap((op, i): EditOperation[] => {
    const read = readOperation(op, i, fixes);
    return read ? [read] : [];
  });
  const toolsNeeded = list(toolNeeded).parse(pick(root, "toolsNeeded", "tools_needed"));
  return {
    ok: true,
    answer: { summary: text.parse(root.summary) ?? "", operations, ...(toolsNeeded.length ? { toolsNeeded } : {}) },
    fixes,
  };
}
