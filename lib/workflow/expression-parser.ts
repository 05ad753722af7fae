import { isSafeSegment } from "./path";

/**
 * Tokenizer and recursive-descent parser of the router expression language (no eval, no Function).
 * Grammar, lowest precedence first:
 *   or      := and (("||" | "or") and)*
 *   and     := not (("&&" | "and") not)*
 *   not     := "not" not | compare
 *   compare := unary (op unary)?      op: == != < <= > >= contains startsWith endsWith in "not in"
 *   unary   := "!" unary | "-" number | primary
 *   primary := literal | path | list | call | "(" or ")"
 *   path    := ("inputs" | "vars" | "nodes" | "feedback") ("." segment | "[" string|int "]")*
 */

/** A parse or evaluation error; `position` is the 0-based offset in the source. */
export class ExpressionError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} (at column ${position + 1})`);
    this.name = "ExpressionError";
  }
}

/** Binary comparison operators, symbolic and word forms. */
export const comparisonOps = [
  "==",
  "!=",
  "<",
  "<=",
  ">",
  ">=",
  "contains",
  "startsWith",
  "endsWith",
  "in",
  "not in",
] as const;
export type ComparisonOp = (typeof comparisonOps)[number];
/** Built-in functions and their argument counts (the only callables). */
export const functionArity = { len: 1, lower: 1, upper: 1, trim: 1, number: 1, exists: 1 } as const;
export type FunctionName = keyof typeof functionArity;
/** Where a data path may start: the run's inputs, variables, node outputs, loop feedback. */
export const pathRoots = ["inputs", "vars", "nodes", "feedback"] as const;
export type PathRoot = (typeof pathRoots)[number];

/** One path step with the source span of its token (used to rename node ids in place). */
export type Segment = { value: string | number; start: number; end: number; quoted: boolean };

/** The expression AST; `pos` is the 0-based source offset of each node. */
export type Expr =
  | { type: "literal"; value: string | number | boolean | null; pos: number }
  | { type: "path"; root: PathRoot; segments: Segment[]; pos: number }
  | { type: "list"; items: Expr[]; pos: number }
  | { type: "not"; operand: Expr; pos: number }
  | { type: "logical"; op: "&&" | "||"; left: Expr; right: Expr; pos: number }
  | { type: "compare"; op: ComparisonOp; left: Expr; right: Expr; pos: number }
  | { type: "call"; fn: FunctionName; args: Expr[]; pos: number };

type Token = {
  kind: "num" | "str" | "ident" | "punct" | "eof";
  text: string;
  value?: string | number;
  pos: number;
  end: number;
};

/** Longest limits accepted: hostile inputs fail fast instead of exhausting the stack. */
export const MAX_EXPRESSION_LENGTH = 4000;
const MAX_DEPTH = 64;
const PUNCT = ["==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "(", ")", "[", "]", ",", ".", "-"];

function readString(src: string, start: number): Token {
  const quote = src[start];
  let out = "";
  let i = start + 1;
  while (i < src.length && src[i] !== quote) {
    if (src[i] === "\\") {
      const next = src[i + 1];
      if (next === undefined) break;
      out += next === "n" ? "\n" : next === "t" ? "\t" : next;
      i += 2;
    } else {
      out += src[i];
      i += 1;
    }
  }
  if (i >= src.length) throw new ExpressionError("Unterminated string", start);
  return { kind: "str", text: src.slice(start, i + 1), value: out, pos: start, end: i + 1 };
}

/** Splits `src` into tokens; after a "." only an integer is read, so `a.0.1` is a path. */
export function tokenize(src: string): Token[] {
  if (src.length > MAX_EXPRESSION_LENGTH)
    throw new ExpressionError(`Expression longer than ${MAX_EXPRESSION_LENGTH} characters`, 0);
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (/\s/.test(c)) {
      i += 1;
      continue;
    }
    const afterDot = tokens.at(-1)?.text === ".";
    const rest = src.slice(i);
    const num = afterDot ? /^\d+/.exec(rest) : /^\d+(\.\d+)?([eE][+-]?\d+)?/.exec(rest);
    if (num) {
      tokens.push({ kind: "num", text: num[0], value: Number(num[0]), pos: i, end: i + num[0].length });
    } else if (c === '"' || c === "'") {
      tokens.push(readString(src, i));
    } else if (/[A-Za-z_]/.test(c)) {
      const word = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(rest)?.[0] ?? c;
      tokens.push({ kind: "ident", text: word, value: word, pos: i, end: i + word.length });
    } else {
      const p = PUNCT.find((x) => rest.startsWith(x));
      if (!p)
        throw new ExpressionError(
          c === "=" ? "Unexpected '=' (use '==' to compare)" : `Unexpected character '${c}'`,
          i,
        );
      tokens.push({ kind: "punct", text: p, pos: i, end: i + p.length });
    }
    i = tokens.at(-1)?.end ?? i + 1;
  }
  tokens.push({ kind: "eof", text: "end of expression", pos: src.length, end: src.length });
  return tokens;
}

const WORD_OPS: Record<string, ComparisonOp> = {
  contains: "contains",
  startsWith: "startsWith",
  endsWith: "endsWith",
  in: "in",
};

class Parser {
  private index = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)] as Token;
  }
  private next(): Token {
    const t = this.peek();
    this.index = Math.min(this.index + 1, this.tokens.length - 1);
    return t;
  }
  private is(text: string): boolean {
    const t = this.peek();
    return (t.kind === "punct" || t.kind === "ident") && t.text === text;
  }
  private expect(text: string): Token {
    const t = this.peek();
    if (!this.is(text)) throw new ExpressionError(`Expected '${text}' but found '${t.text}'`, t.pos);
    return this.next();
  }
  private nest<T>(pos: number, fn: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new ExpressionError("Expression nests too deeply", pos);
    try {
      return fn();
    } finally {
      this.depth -= 1;
    }
  }

  parse(): Expr {
    const expr = this.or();
    const t = this.peek();
    if (t.kind !== "eof") throw new ExpressionError(`Unexpected '${t.text}'`, t.pos);
    return expr;
  }

  private or(): Expr {
    let left = this.and();
    while (this.is("||") || this.is("or")) {
      const pos = this.next().pos;
      left = { type: "logical", op: "||", left, right: this.and(), pos };
    }
    return left;
  }
  private and(): Expr {
    let left = this.not();
    while (this.is("&&") || this.is("and")) {
      const pos = this.next().pos;
      left = { type: "logical", op: "&&", left, right: this.not(), pos };
    }
    return left;
  }
  private not(): Expr {
    if (this.is("not") && !(this.peek(1).kind === "ident" && this.peek(1).text === "in")) {
      const pos = this.next().pos;
      return this.nest(pos, () => ({ type: "not", operand: this.not(), pos }));
    }
    return this.compare();
  }
  private compareOp(): ComparisonOp | undefined {
    const t = this.peek();
    if (t.kind === "punct" && (comparisonOps as readonly string[]).includes(t.text)) return t.text as ComparisonOp;
    if (t.kind === "ident" && t.text in WORD_OPS) return WORD_OPS[t.text];
    if (t.kind === "ident" && t.text === "not" && this.peek(1).text === "in") return "not in";
    return undefined;
  }
  private compare(): Expr {
    const left = this.unary();
    const op = this.compareOp();
    if (!op) return left;
    const pos = this.next().pos;
    if (op === "not in") this.next();
    const right = this.unary();
    const again = this.compareOp();
    if (again) throw new ExpressionError("Comparisons cannot be chained; combine them with && or ||", this.peek().pos);
    return { type: "compare", op, left, right, pos };
  }
  private unary(): Expr {
    if (this.is("!")) {
      const pos = this.next().pos;
      return this.nest(pos, () => ({ type: "not", operand: this.unary(), pos }));
    }
    if (this.is("-")) {
      const minus = this.next();
      const t = this.next();
      if (t.kind !== "num") throw new ExpressionError("'-' must be followed by a number", minus.pos);
      return { type: "literal", value: -(t.value as number), pos: minus.pos };
    }
    return this.primary();
  }
  private primary(): Expr {
    const t = this.next();
    switch (t.kind) {
      case "num":
      case "str":
        return { type: "literal", value: t.value as string | number, pos: t.pos };
      case "eof":
        throw new ExpressionError("Unexpected end of expression", t.pos);
      case "punct":
        if (t.text === "(") return this.nest(t.pos, () => this.group());
        if (t.text === "[") return this.nest(t.pos, () => this.list(t.pos));
        throw new ExpressionError(`Unexpected '${t.text}'`, t.pos);
      case "ident":
        return this.word(t);
    }
  }
  private group(): Expr {
    const inner = this.or();
    this.expect(")");
    return inner;
  }
  private list(pos: number): Expr {
    const items: Expr[] = [];
    while (!this.is("]")) {
      items.push(this.or());
      if (!this.is("]")) this.expect(",");
    }
    this.expect("]");
    return { type: "list", items, pos };
  }
  private word(t: Token): Expr {
    if (t.text === "true" || t.text === "false") return { type: "literal", value: t.text === "true", pos: t.pos };
    if (t.text === "null") return { type: "literal", value: null, pos: t.pos };
    if (this.is("(")) return this.call(t);
    if ((pathRoots as readonly string[]).includes(t.text)) return this.path(t);
    throw new ExpressionError(`Unknown name '${t.text}': paths start with inputs, vars, nodes or feedback`, t.pos);
  }
  private call(t: Token): Expr {
    if (!Object.prototype.hasOwnProperty.call(functionArity, t.text)) {
      throw new ExpressionError(
        `Unknown function '${t.text}' (available: ${Object.keys(functionArity).join(", ")})`,
        t.pos,
      );
    }
    const fn = t.text as FunctionName;
    this.expect("(");
    const args: Expr[] = [];
    while (!this.is(")")) {
      args.push(this.nest(t.pos, () => this.or()));
      if (!this.is(")")) this.expect(",");
    }
    this.expect(")");
    if (args.length !== functionArity[fn])
      throw new ExpressionError(`${fn}() takes ${functionArity[fn]} argument`, t.pos);
    return { type: "call", fn, args, pos: t.pos };
  }
  private segment(t: Token, quoted: boolean): Segment {
    const value = t.value as string | number;
    if (typeof value === "string" && !isSafeSegment(value))
      throw new ExpressionError(`Property '${value}' is not allowed`, t.pos);
    return { value, start: t.pos, end: t.end, quoted };
  }
  private path(root: Token): Expr {
    const segments: Segment[] = [];
    for (;;) {
      if (this.is(".")) {
        this.next();
        const t = this.next();
        if (t.kind !== "ident" && t.kind !== "num")
          throw new ExpressionError(`Expected a property name after '.'`, t.pos);
        segments.push(this.segment(t, false));
      } else if (this.is("[")) {
        this.next();
        const t = this.next();
        if (t.kind !== "str" && !(t.kind === "num" && Number.isInteger(t.value))) {
          throw new ExpressionError("Expected a string or integer index inside [ ]", t.pos);
        }
        segments.push(this.segment(t, t.kind === "str"));
        this.expect("]");
      } else break;
    }
    const pathRoot = root.text as PathRoot;
    if (pathRoot !== "feedback" && segments.length === 0)
      throw new ExpressionError(`'${pathRoot}' needs a key, e.g. ${pathRoot}.name`, root.pos);
    if (pathRoot === "nodes" && segments[1]?.value !== "output") {
      throw new ExpressionError(`Read a node's output, e.g. nodes.${String(segments[0]?.value)}.output`, root.pos);
    }
    return { type: "path", root: pathRoot, segments, pos: root.pos };
  }
}

/** Parses `source` into an AST; throws {@link ExpressionError} with the position of the problem. */
export function parseExpression(source: string): Expr {
  if (source.trim() === "") throw new ExpressionError("Empty expression", 0);
  return new Parser(tokenize(source)).parse();
}
