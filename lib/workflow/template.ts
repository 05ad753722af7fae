import { getPath, isSafeSegment } from "./path";

/**
 * Mustache-like templates resolved by the engine (docs/workflow-model.md, "Templates"): `{{inputs.topic}}`,
 * `{{nodes.outline.output}}`, `{{nodes.score.output.value}}`, `{{vars.threshold}}`, `{{feedback}}`.
 * No code runs: a tag is a dotted path over the run's data, nothing else. Values are inserted raw
 * (no HTML escaping), objects as pretty JSON, missing values as "". A tag that does not parse is
 * left in the text verbatim and reported by {@link checkTemplate}.
 */

/** A reference read by one `{{…}}` tag; `start`/`end` are offsets of the whole tag in the template. */
export type TemplateRef =
  | { kind: "input"; key: string; path: string[]; start: number; end: number }
  | { kind: "var"; key: string; path: string[]; start: number; end: number }
  | { kind: "node"; nodeId: string; path: string[]; start: number; end: number }
  | { kind: "feedback"; path: string[]; start: number; end: number }
  /** The current item of a map's body step (only inside a map node's body). */
  | { kind: "item"; path: string[]; start: number; end: number };

/** Kinds of template syntax problems reported by checkTemplate. */
export type TemplateIssueCode =
  "unclosed_tag" | "empty_tag" | "invalid_path" | "unknown_root" | "missing_key" | "unknown_node_field";

/** A syntax problem with its position (offset, 1-based line and column). */
export type TemplateIssue = { code: TemplateIssueCode; message: string; offset: number; line: number; column: number };

/** What a template can read at run time; every part optional (missing → ""). */
export type TemplateContext = {
  inputs?: Record<string, unknown>;
  vars?: Record<string, unknown>;
  /** Per node id, its latest output (of the current iteration). */
  nodes?: Record<string, { output?: unknown }>;
  /** Payload of the loop edge that re-entered the node. */
  feedback?: unknown;
  /** A map's item, in the step its body runs for it. */
  item?: unknown;
};

type Part =
  | { text: string }
  | { tag: string; start: number; end: number; ref?: TemplateRef; issue?: Omit<TemplateIssue, "line" | "column"> };

const SEGMENT = /^[A-Za-z0-9_-]+$/;

function parseTag(
  inner: string,
  start: number,
  end: number,
): { ref?: TemplateRef; issue?: Omit<TemplateIssue, "line" | "column"> } {
  const body = inner.trim();
  const at = (code: TemplateIssueCode, message: string) => ({ issue: { code, message, offset: start } });
  if (body === "") return at("empty_tag", "Empty tag {{}}.");
  const segments = body.split(".");
  if (segments.some((s) => !SEGMENT.test(s) || !isSafeSegment(s))) {
    return at("invalid_path", `Tag {{${body}}} is not a dotted path of letters, digits, _ or -.`);
  }
  const [root, first, ...rest] = segments as [string, ...string[]];
  switch (root) {
    case "inputs":
    case "vars":
      if (first === undefined) return at("missing_key", `Tag {{${body}}} needs a key, e.g. {{${root}.name}}.`);
      return { ref: { kind: root === "inputs" ? "input" : "var", key: first, path: rest, start, end } };
    case "nodes":
      if (first === undefined)
        return at("missing_key", `Tag {{${body}}} needs a node id, e.g. {{nodes.outline.output}}.`);
      if (rest[0] !== "output") {
        return at("unknown_node_field", `Tag {{${body}}} must read a node's output, e.g. {{nodes.${first}.output}}.`);
      }
      return { ref: { kind: "node", nodeId: first, path: rest.slice(1), start, end } };
    case "feedback":
      return { ref: { kind: "feedback", path: first === undefined ? [] : [first, ...rest], start, end } };
    case "item":
      return { ref: { kind: "item", path: first === undefined ? [] : [first, ...rest], start, end } };
    default:
      return at("unknown_root", `Tag {{${body}}} must start with inputs, vars, nodes, feedback or item.`);
  }
}

function parse(template: string): { parts: Part[]; unclosed?: number } {
  const parts: Part[] = [];
  let index = 0;
  while (index < template.length) {
    const open = template.indexOf("{{", index);
    if (open < 0) break;
    const close = template.indexOf("}}", open + 2);
    const nextOpen = template.indexOf("{{", open + 2);
    if (close < 0 || (nextOpen >= 0 && nextOpen < close)) {
      parts.push({ text: template.slice(index) });
      return { parts, unclosed: open };
    }
    if (open > index) parts.push({ text: template.slice(index, open) });
    const end = close + 2;
    parts.push({
      tag: template.slice(open, end),
      start: open,
      end,
      ...parseTag(template.slice(open + 2, close), open, end),
    });
    index = end;
  }
  if (index < template.length) parts.push({ text: template.slice(index) });
  return { parts };
}

function position(template: string, offset: number): { line: number; column: number } {
  const before = template.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

/** The references a template reads, in order (tags that do not parse are left out). */
export function templateRefs(template: string): TemplateRef[] {
  return parse(template).parts.flatMap((p) => ("ref" in p && p.ref ? [p.ref] : []));
}

/** Syntax problems: unclosed `{{`, empty tags, bad paths, unknown roots. Empty list = well formed. */
export function checkTemplate(template: string): TemplateIssue[] {
  const { parts, unclosed } = parse(template);
  const issues = parts.flatMap((p) => ("issue" in p && p.issue ? [p.issue] : []));
  if (unclosed !== undefined)
    issues.push({ code: "unclosed_tag", message: "Tag opened with {{ is never closed with }}.", offset: unclosed });
  return issues.map((i) => ({ ...i, ...position(template, i.offset) }));
}

/** The raw value a reference points at in `ctx` (undefined when missing). */
export function resolveRef(ref: TemplateRef, ctx: TemplateContext): unknown {
  switch (ref.kind) {
    case "input":
      return getPath(ctx.inputs, [ref.key, ...ref.path]);
    case "var":
      return getPath(ctx.vars, [ref.key, ...ref.path]);
    case "node":
      return getPath(ctx.nodes, [ref.nodeId, "output", ...ref.path]);
    case "feedback":
      return ref.path.length === 0 ? ctx.feedback : getPath(ctx.feedback, ref.path);
    case "item":
      return ref.path.length === 0 ? ctx.item : getPath(ctx.item, ref.path);
  }
}

/** How a value appears in text: strings raw, null/undefined empty, objects as pretty JSON. */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (typeof value === "object") {
    try {
      return JSON.stringify(value, null, 2) ?? "";
    } catch {
      return "";
    }
  }
  return "";
}

/** Renders `template` against `ctx`. Missing values → "", malformed tags stay verbatim. */
export function renderTemplate(template: string, ctx: TemplateContext): string {
  return parse(template)
    .parts.map((p) => ("text" in p ? p.text : p.ref ? formatValue(resolveRef(p.ref, ctx)) : p.tag))
    .join("");
}

/**
 * Like {@link renderTemplate}, but a template that is exactly one tag (e.g. a tool argument
 * "{{nodes.fetch.output}}") yields the raw value, so objects and numbers keep their type.
 */
export function renderTemplateValue(template: string, ctx: TemplateContext): unknown {
  const { parts } = parse(template.trim());
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only && "ref" in only && only.ref) return resolveRef(only.ref, ctx) ?? null;
  return renderTemplate(template, ctx);
}

/** Rewrites `{{nodes.<from>.…}}` tags to `{{nodes.<to>.…}}`, leaving everything else byte-identical. */
export function renameNodeInTemplate(template: string, from: string, to: string): string {
  return parse(template)
    .parts.map((p) => {
      if ("text" in p) return p.text;
      if (p.ref?.kind !== "node" || p.ref.nodeId !== from) return p.tag;
      return `{{nodes.${to}.output${p.ref.path.map((s) => `.${s}`).join("")}}}`;
    })
    .join("");
}
