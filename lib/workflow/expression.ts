import { ExpressionError, parseExpression, type ComparisonOp, type Expr, type FunctionName } from "./expression-parser";
import { getOwn, getPath } from "./path";
import type { TemplateContext } from "./template";

/**
 * Safe expressions for routers in expression mode, e.g.
 * `nodes.classify.output.category == "refund" && inputs.amount >= vars.threshold`.
 * Evaluation walks the AST over plain data: own properties only, no prototypes, no calls other than
 * the built-ins (len, lower, upper, trim, number, exists). Type mismatches compare as false rather
 * than throwing; a numeric string compares as a number (models often answer "0.9").
 */
export { ExpressionError, parseExpression, type Expr } from "./expression-parser";

/** A data reference read by an expression (for validation: which inputs/vars/nodes it needs). */
export type ExpressionRef =
  | { kind: "input"; key: string; path: (string | number)[]; position: number }
  | { kind: "var"; key: string; path: (string | number)[]; position: number }
  | { kind: "node"; nodeId: string; path: (string | number)[]; position: number }
  | { kind: "feedback"; path: (string | number)[]; position: number };

/** Parse result without exceptions, for editors and validation. */
export type CompiledExpression = { ok: true; ast: Expr } | { ok: false; error: { message: string; position: number } };

/** Parses without throwing: `{ok:false}` carries the message and 0-based position. */
export function compileExpression(source: string): CompiledExpression {
  try {
    return { ok: true, ast: parseExpression(source) };
  } catch (e) {
    if (e instanceof ExpressionError) return { ok: false, error: { message: e.message, position: e.position } };
    throw e;
  }
}

/** The data references of an expression, in source order. */
export function expressionRefs(ast: Expr): ExpressionRef[] {
  switch (ast.type) {
    case "literal":
      return [];
    case "path": {
      const [first, second, ...rest] = ast.segments.map((s) => s.value);
      const position = ast.pos;
      if (ast.root === "feedback") return [{ kind: "feedback", path: ast.segments.map((s) => s.value), position }];
      const key = String(first);
      if (ast.root === "nodes") return [{ kind: "node", nodeId: key, path: rest, position }];
      const path = second === undefined ? rest : [second, ...rest];
      return [{ kind: ast.root === "inputs" ? "input" : "var", key, path, position }];
    }
    case "list":
      return ast.items.flatMap(expressionRefs);
    case "not":
      return expressionRefs(ast.operand);
    case "logical":
    case "compare":
      return [...expressionRefs(ast.left), ...expressionRefs(ast.right)];
    case "call":
      return ast.args.flatMap(expressionRefs);
  }
}

/** Truthiness: null, false, 0, NaN, "" and [] are false; everything else true. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

const asNumber = (v: unknown): number | undefined => {
  if (typeof v === "number") return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return undefined;
};

function equal(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (typeof a === "number" || typeof b === "number") {
    const [x, y] = [asNumber(a), asNumber(b)];
    return x !== undefined && y !== undefined && x === y;
  }
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return keysA.length === keysB.length && keysA.every((k) => equal(getOwn(a, k), getOwn(b, k)));
}

function order(op: "<" | "<=" | ">" | ">=", a: unknown, b: unknown): boolean {
  const [x, y] = [asNumber(a), asNumber(b)];
  const pair: [number, number] | [string, string] | undefined =
    x !== undefined && y !== undefined ? [x, y] : typeof a === "string" && typeof b === "string" ? [a, b] : undefined;
  if (!pair) return false;
  const [l, r] = pair;
  return op === "<" ? l < r : op === "<=" ? l <= r : op === ">" ? l > r : l >= r;
}

function member(item: unknown, collection: unknown): boolean {
  if (Array.isArray(collection)) return collection.some((x) => equal(x, item));
  if (typeof collection === "string") return typeof item === "string" && collection.includes(item);
  if (collection !== null && typeof collection === "object" && typeof item === "string")
    return getOwn(collection, item) !== undefined;
  return false;
}

function compare(op: ComparisonOp, a: unknown, b: unknown): boolean {
  switch (op) {
    case "==":
      return equal(a, b);
    case "!=":
      return !equal(a, b);
    case "<":
    case "<=":
    case ">":
    case ">=":
      return order(op, a, b);
    case "contains":
      return member(b, a);
    case "startsWith":
      return typeof a === "string" && typeof b === "string" && a.startsWith(b);
    case "endsWith":
      return typeof a === "string" && typeof b === "string" && a.endsWith(b);
    case "in":
      return member(a, b);
    case "not in":
      return !member(a, b);
  }
}

function call(fn: FunctionName, arg: unknown): unknown {
  switch (fn) {
    case "len":
      if (typeof arg === "string" || Array.isArray(arg)) return arg.length;
      return arg !== null && typeof arg === "object" ? Object.keys(arg).length : 0;
    case "lower":
      return typeof arg === "string" ? arg.toLowerCase() : "";
    case "upper":
      return typeof arg === "string" ? arg.toUpperCase() : "";
    case "trim":
      return typeof arg === "string" ? arg.trim() : "";
    case "number":
      return asNumber(arg) ?? null;
    case "exists":
      return arg !== undefined && arg !== null;
  }
}

function rootValue(ast: Extract<Expr, { type: "path" }>, ctx: TemplateContext): unknown {
  const segments = ast.segments.map((s) => s.value);
  switch (ast.root) {
    case "inputs":
      return getPath(ctx.inputs, segments);
    case "vars":
      return getPath(ctx.vars, segments);
    case "nodes":
      return getPath(ctx.nodes, segments);
    case "feedback":
      return getPath(ctx.feedback, segments);
  }
}

function evaluate(ast: Expr, ctx: TemplateContext): unknown {
  switch (ast.type) {
    case "literal":
      return ast.value;
    case "path":
      return rootValue(ast, ctx) ?? null;
    case "list":
      return ast.items.map((item) => evaluate(item, ctx));
    case "not":
      return !truthy(evaluate(ast.operand, ctx));
    case "logical": {
      const left = truthy(evaluate(ast.left, ctx));
      if (ast.op === "&&") return left && truthy(evaluate(ast.right, ctx));
      return left || truthy(evaluate(ast.right, ctx));
    }
    case "compare":
      return compare(ast.op, evaluate(ast.left, ctx), evaluate(ast.right, ctx));
    case "call":
      return call(ast.fn, evaluate(ast.args[0] as Expr, ctx));
  }
}

/** Evaluates an expression (source or parsed AST) over run data; throws ExpressionError on bad syntax. */
export function evaluateExpression(expression: string | Expr, ctx: TemplateContext): unknown {
  return evaluate(typeof expression === "string" ? parseExpression(expression) : expression, ctx);
}

/** A router branch condition: the expression's truthiness (see {@link truthy}). */
export function evaluateCondition(expression: string | Expr, ctx: TemplateContext): boolean {
  return truthy(evaluateExpression(expression, ctx));
}

/** Rewrites `nodes.<from>` paths to `nodes.<to>`, keeping the rest of the source byte-identical. */
export function renameNodeInExpression(source: string, from: string, to: string): string {
  const compiled = compileExpression(source);
  if (!compiled.ok) return source;
  const spans: { start: number; end: number; text: string }[] = [];
  const visit = (ast: Expr): void => {
    if (ast.type === "path" && ast.root === "nodes" && ast.segments[0]?.value === from) {
      const seg = ast.segments[0];
      spans.push({ start: seg.start, end: seg.end, text: seg.quoted ? JSON.stringify(to) : to });
    }
    if (ast.type === "list") ast.items.forEach(visit);
    if (ast.type === "not") visit(ast.operand);
    if (ast.type === "logical" || ast.type === "compare") [ast.left, ast.right].forEach(visit);
    if (ast.type === "call") ast.args.forEach(visit);
  };
  visit(compiled.ast);
  return spans
    .sort((a, b) => b.start - a.start)
    .reduce((text, span) => text.slice(0, span.start) + span.text + text.slice(span.end), source);
}
