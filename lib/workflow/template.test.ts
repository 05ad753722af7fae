import { describe, expect, it } from "vitest";
import { checkTemplate, renameNodeInTemplate, renderTemplate, renderTemplateValue, templateRefs } from "./template";

const ctx = {
  inputs: { topic: "Rust", doc: { title: "T" } },
  vars: { threshold: 0.8 },
  nodes: { outline: { output: "1. Intro" }, score: { output: { value: 7, tags: ["a", "b"] } } },
  feedback: "Too short",
};

describe("renderTemplate", () => {
  it("resolves inputs, vars, node outputs, deeper paths and feedback", () => {
    expect(renderTemplate("On {{inputs.topic}} ({{ vars.threshold }}): {{nodes.outline.output}}", ctx)).toBe(
      "On Rust (0.8): 1. Intro",
    );
    expect(renderTemplate("{{nodes.score.output.value}}/{{nodes.score.output.tags.1}}", ctx)).toBe("7/b");
    expect(renderTemplate("Fix: {{feedback}}", ctx)).toBe("Fix: Too short");
    expect(renderTemplate("{{inputs.doc.title}}", ctx)).toBe("T");
  });

  it("renders objects as JSON and missing values as empty strings", () => {
    expect(renderTemplate("{{nodes.score.output}}", ctx)).toBe(JSON.stringify({ value: 7, tags: ["a", "b"] }, null, 2));
    expect(renderTemplate("[{{inputs.nope}}][{{nodes.ghost.output.x}}][{{vars.none}}]", ctx)).toBe("[][][]");
    expect(renderTemplate("{{feedback}}", {})).toBe("");
  });

  it("never reaches prototypes or runs code", () => {
    expect(renderTemplate("{{inputs.constructor}}{{inputs.__proto__}}{{inputs.toString}}", ctx)).toBe(
      "{{inputs.constructor}}{{inputs.__proto__}}",
    );
    expect(renderTemplate("{{inputs.topic.length}}", ctx)).toBe("");
    expect(renderTemplate("{{ inputs.topic + 1 }}{{process.exit()}}", ctx)).toBe(
      "{{ inputs.topic + 1 }}{{process.exit()}}",
    );
  });

  it("leaves malformed tags and plain braces alone", () => {
    expect(renderTemplate('JSON {"a": {"b": 1}} and {{inputs.topic', ctx)).toBe(
      'JSON {"a": {"b": 1}} and {{inputs.topic',
    );
    expect(renderTemplate("{{}}", ctx)).toBe("{{}}");
  });

  it("keeps raw values for single-tag templates", () => {
    expect(renderTemplateValue("{{nodes.score.output}}", ctx)).toEqual({ value: 7, tags: ["a", "b"] });
    expect(renderTemplateValue(" {{vars.threshold}} ", ctx)).toBe(0.8);
    expect(renderTemplateValue("{{inputs.missing}}", ctx)).toBeNull();
    expect(renderTemplateValue("x {{vars.threshold}}", ctx)).toBe("x 0.8");
  });
});

describe("templateRefs", () => {
  it("lists every reference with its kind and path", () => {
    const refs = templateRefs("{{inputs.topic}} {{vars.t}} {{nodes.score.output.value}} {{feedback}} {{bad}}");
    expect(refs.map(({ start: _s, end: _e, ...r }) => r)).toEqual([
      { kind: "input", key: "topic", path: [] },
      { kind: "var", key: "t", path: [] },
      { kind: "node", nodeId: "score", path: ["value"] },
      { kind: "feedback", path: [] },
    ]);
  });
});

describe("checkTemplate", () => {
  it("accepts well-formed templates", () => {
    expect(checkTemplate("Write about {{inputs.topic}}.\n{{feedback}}")).toEqual([]);
  });

  it("reports unclosed braces with line and column", () => {
    expect(checkTemplate("line one\nabc {{inputs.topic")).toEqual([
      { code: "unclosed_tag", message: "Tag opened with {{ is never closed with }}.", offset: 13, line: 2, column: 5 },
    ]);
    expect(checkTemplate("{{inputs.a {{inputs.b}}").map((i) => i.code)).toEqual(["unclosed_tag"]);
  });

  it("reports empty tags, bad paths, unknown roots and missing keys", () => {
    const issues = checkTemplate("{{}} {{a b}} {{foo.bar}} {{inputs}} {{nodes.x}} {{nodes.x.__proto__}}");
    expect(issues.map((i) => i.code)).toEqual([
      "empty_tag",
      "invalid_path",
      "unknown_root",
      "missing_key",
      "unknown_node_field",
      "invalid_path",
    ]);
    expect(issues[2]?.message).toBe("Tag {{foo.bar}} must start with inputs, vars, nodes, feedback or item.");
  });
});

describe("renameNodeInTemplate", () => {
  it("rewrites only references to the renamed node", () => {
    expect(renameNodeInTemplate("{{nodes.a.output.x}} {{nodes.ab.output}} {{inputs.a}} nodes.a", "a", "b")).toBe(
      "{{nodes.b.output.x}} {{nodes.ab.output}} {{inputs.a}} nodes.a",
    );
  });
});
