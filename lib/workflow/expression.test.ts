import { describe, expect, it } from "vitest";
import {
  compileExpression,
  evaluateCondition,
  evaluateExpression,
  ExpressionError,
  expressionRefs,
  parseExpression,
  renameNodeInExpression,
} from "./expression";

const ctx = {
  inputs: { amount: 120, text: "Please refund my order", tags: ["vip", "eu"], nested: { a: [1, 2, { b: "deep" }] } },
  vars: { threshold: 100, mode: "strict" },
  nodes: { classify: { output: { category: "refund", score: "0.9" } }, "doc-manager": { output: "ok" } },
  feedback: { reason: "too long" },
};
const ev = (src: string) => evaluateExpression(src, ctx);

describe("evaluateExpression", () => {
  it("compares paths and literals", () => {
    expect(ev('nodes.classify.output.category == "refund"')).toBe(true);
    expect(ev("inputs.amount >= vars.threshold")).toBe(true);
    expect(ev("inputs.amount < 100")).toBe(false);
    expect(ev("inputs.amount != 120")).toBe(false);
    expect(ev("nodes.classify.output.score > 0.8")).toBe(true);
    expect(ev("-1 < 0 && 2.5e1 == 25")).toBe(true);
    expect(ev("null == inputs.missing")).toBe(true);
    expect(ev("true")).toBe(true);
  });

  it("supports boolean logic with precedence and grouping", () => {
    expect(ev("inputs.amount > 1000 || vars.mode == 'strict' && !false")).toBe(true);
    expect(ev("(inputs.amount > 1000 || vars.mode == 'strict') and not (inputs.amount == 120)")).toBe(false);
    expect(ev("!inputs.missing")).toBe(true);
  });

  it("supports contains, startsWith, endsWith, in, not in and built-ins", () => {
    expect(ev('inputs.text contains "refund"')).toBe(true);
    expect(ev('inputs.tags contains "vip"')).toBe(true);
    expect(ev('inputs.text startsWith "Please" && inputs.text endsWith "order"')).toBe(true);
    expect(ev('vars.mode in ["strict", "lax"]')).toBe(true);
    expect(ev('vars.mode not in ["lax"]')).toBe(true);
    expect(ev("len(inputs.tags) == 2 && len(inputs.text) > 5")).toBe(true);
    expect(ev('lower(nodes.classify.output.category) == "refund" && upper("a") == "A" && trim(" x ") == "x"')).toBe(
      true,
    );
    expect(ev('number("42") == 42 && exists(inputs.amount) && !exists(inputs.nope)')).toBe(true);
  });

  it("reads deep paths, indexes and quoted segments", () => {
    expect(ev("inputs.nested.a.2.b")).toBe("deep");
    expect(ev('inputs.nested["a"][0] == 1')).toBe(true);
    expect(ev('nodes["doc-manager"].output == "ok" && nodes.doc-manager.output == "ok"')).toBe(true);
    expect(ev("feedback.reason")).toBe("too long");
  });

  it("treats type mismatches as false, never as an exception", () => {
    expect(ev('inputs.tags > "a"')).toBe(false);
    expect(ev("inputs.missing.deeper.still < 3")).toBe(false);
    expect(ev("inputs.amount startsWith 1")).toBe(false);
  });
});

describe("hostile inputs", () => {
  it("refuses prototype-reaching properties at parse time", () => {
    for (const src of [
      "inputs.__proto__",
      "inputs.constructor",
      'inputs["__proto__"]',
      "inputs.x.prototype",
      'vars["constructor"].name',
    ]) {
      expect(() => parseExpression(src), src).toThrow(ExpressionError);
    }
  });

  it("never reaches inherited members", () => {
    expect(ev("inputs.toString")).toBeNull();
    expect(ev("inputs.text.length")).toBeNull();
    expect(ev("len(inputs.hasOwnProperty)")).toBe(0);
  });

  it("rejects code-like input with positions", () => {
    const cases: [string, string, number][] = [
      ["process.exit()", "Unknown name 'process': paths start with inputs, vars, nodes or feedback", 0],
      ["inputs.a = 1", "Unexpected '=' (use '==' to compare)", 9],
      ["eval('1')", "Unknown function 'eval' (available: len, lower, upper, trim, number, exists)", 0],
      ["inputs.a; inputs.b", "Unexpected character ';'", 8],
      ["`x`", "Unexpected character '`'", 0],
      ['"unterminated', "Unterminated string", 0],
      ["(inputs.a == 1", "Expected ')' but found 'end of expression'", 14],
      ["1 < 2 < 3", "Comparisons cannot be chained; combine them with && or ||", 6],
      ["inputs.a ==", "Unexpected end of expression", 11],
      ["nodes.classify.category", "Read a node's output, e.g. nodes.classify.output", 0],
      ["", "Empty expression", 0],
    ];
    for (const [src, message, position] of cases) {
      const compiled = compileExpression(src);
      expect(compiled, src).toEqual({
        ok: false,
        error: { message: `${message} (at column ${position + 1})`, position },
      });
    }
  });

  it("bounds nesting depth and length instead of overflowing the stack", () => {
    expect(compileExpression("(".repeat(5000) + "1" + ")".repeat(5000)).ok).toBe(false);
    expect(compileExpression("!".repeat(3000) + "true").ok).toBe(false);
    expect(compileExpression("(".repeat(20) + "true" + ")".repeat(20)).ok).toBe(true);
  });

  it("does not pollute Object.prototype through evaluation", () => {
    evaluateExpression('inputs.a == "x"', JSON.parse('{"inputs": {"__proto__": {"polluted": true}}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("expressionRefs and rename", () => {
  it("lists inputs, vars and node references", () => {
    const src = 'nodes.classify.output.category == "x" && inputs.amount > vars.threshold || feedback';
    const refs = expressionRefs(parseExpression(src));
    expect(refs).toEqual([
      { kind: "node", nodeId: "classify", path: ["category"], position: 0 },
      { kind: "input", key: "amount", path: [], position: src.indexOf("inputs") },
      { kind: "var", key: "threshold", path: [], position: src.indexOf("vars") },
      { kind: "feedback", path: [], position: src.indexOf("feedback") },
    ]);
  });

  it("renames node ids in place", () => {
    expect(renameNodeInExpression('nodes.a.output == 1 && nodes["a"].output.x && nodes.ab.output', "a", "b")).toBe(
      'nodes.b.output == 1 && nodes["b"].output.x && nodes.ab.output',
    );
  });

  it("evaluates conditions by truthiness", () => {
    expect(evaluateCondition("inputs.tags", ctx)).toBe(true);
    expect(evaluateCondition("inputs.empty", { inputs: { empty: [] } })).toBe(false);
  });
});
