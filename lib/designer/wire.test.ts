import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { SchemaSampler, prng } from "@/bench/designer/schema-instances";
import { strictSchemaProblems, type JsonSchema } from "@/lib/llm/strict-schema";
import {
  IDENTIFIER_PATTERN,
  MIN_BRANCHES,
  MIN_WORKERS,
  agentNodeSchema,
  edgeSchema,
  fieldTypes,
  identifier,
  nodeKinds,
  nodeSchema,
  workflowSchema,
  type NodeKind,
} from "@/lib/workflow/schema";
import { validate } from "@/lib/workflow/validate";
import { compileNode } from "./compile";
import { designSchemas, editSchemas } from "./json-schema";
import { modelClasses, patternNames } from "./schemas";
import { designFieldsOf } from "./wire";

/**
 * The answer schemas and lib/workflow's validator agree: what the schema states (kinds, patterns,
 * enums, required fields, minimum counts) is what the validator checks, and everything a schema
 * cannot state is left to the validator. Strict variants are in the strict subset; instances the
 * generator draws from a schema are valid against it (ajv) and representable in the document.
 */

const ajv = new Ajv2020({ strict: false, allErrors: true });
const WORKFLOWS = { savedAgentIds: ["sa_1"], workflowIds: ["wf_1", "wf_2"] };
const design = designSchemas(WORKFLOWS);
let defs = design.loose.$defs as Record<string, JsonSchema>;
const resolve = (s: JsonSchema): JsonSchema =>
  typeof s.$ref === "string" ? resolve(defs[s.$ref.replace("#/$defs/", "")]!) : s;
const prop = (s: JsonSchema, ...path: string[]): JsonSchema =>
  path.reduce((acc, k) => resolve((resolve(acc).properties as Record<string, JsonSchema>)[k]!), s);
const members = (root: JsonSchema = design.loose): JsonSchema[] => {
  defs = root.$defs as Record<string, JsonSchema>;
  return (resolve(prop(root, "design", "nodes").items as JsonSchema).anyOf as JsonSchema[]).map(resolve);
};
const member = (kind: NodeKind) =>
  members().find((m) => (prop(m, "kind").const ?? (prop(m, "kind").enum as string[])?.[0]) === kind)!;

describe("the designer's answer schema and lib/workflow's validator", () => {
  it("offer one union member per node kind, discriminated by kind, each with only that kind's fields", () => {
    expect(members(designSchemas({}).loose).map((m) => prop(m, "kind").const)).toEqual(
      nodeKinds.filter((k) => k !== "subflow"),
    );
    expect(members().map((m) => prop(m, "kind").const)).toEqual([...nodeKinds]);
    for (const kind of nodeKinds) {
      expect(Object.keys(member(kind).properties as object).sort()).toEqual(
        ["id", "kind", "name", ...designFieldsOf(kind)].sort(),
      );
    }
  });

  it("check ids and keys with the validator's identifier pattern, accepting exactly what it accepts", () => {
    const idSchema = prop(member("agent"), "id");
    expect(idSchema.pattern).toBe(IDENTIFIER_PATTERN.source);
    expect(prop(member("agent"), "agent").pattern).toBe(IDENTIFIER_PATTERN.source);
    const check = ajv.compile(idSchema);
    const rand = prng(5);
    const chars = "aZ09_-. é/";
    const samples = ["a", "A".repeat(64), "A".repeat(65), "1a", "_a", "a b", "", "a-b_c9"];
    for (let i = 0; i < 400; i++)
      samples.push(
        Array.from({ length: Math.floor(rand() * 70) }, () => chars[Math.floor(rand() * chars.length)]).join(""),
      );
    for (const s of samples) expect(check(s), s).toBe(identifier.safeParse(s).success);
  });

  it("state the validator's minimum counts and require what the validator requires", () => {
    expect(prop(member("router"), "branches").minItems).toBe(MIN_BRANCHES.router);
    expect(prop(member("agent"), "branches").minItems).toBe(MIN_BRANCHES.agent);
    expect(prop(member("human"), "branches").minItems).toBe(MIN_BRANCHES.human);
    expect(prop(member("orchestrator"), "workers").minItems).toBe(MIN_WORKERS);
    const base = { id: "n", name: "" };
    const errorsOf = (node: unknown) => {
      const parsed = nodeSchema.safeParse(node);
      if (!parsed.success) return ["schema"];
      const wf = workflowSchema.parse({ agents: [{ key: "a", name: "A" }], nodes: [parsed.data] });
      return validate(wf, { workflows: [] })
        .filter((i) => i.severity === "error" && i.nodeId === "n")
        .map((i) => i.code);
    };
    const required: Record<string, [unknown, string]> = {
      "agent.agent": [{ ...base, type: "agent", agent: "" }, "unknown_agent"],
      "router.branches": [{ ...base, type: "router", branches: [{ id: "x" }] }, "router_too_few_branches"],
      "tool.tool": [{ ...base, type: "tool", tool: { name: "" } }, "schema"],
      "orchestrator.workers": [{ ...base, type: "orchestrator", agent: "a", workers: [] }, "orchestrator_no_workers"],
      "subflow.workflowId": [{ ...base, type: "subflow", workflowId: "" }, "subflow_workflow_missing"],
    };
    for (const [path, [node, code]] of Object.entries(required)) {
      const [kind, field] = path.split(".") as [NodeKind, string];
      expect(member(kind).required, path).toContain(field);
      expect(errorsOf(node), path).toContain(code);
    }
  });

  it("take their enums from lib/workflow (join, field types, exhaustion) and the designer's own lists", () => {
    expect(prop(member("agent"), "join").enum).toEqual(bare(agentNodeSchema.shape.join));
    const field = resolve(prop(design.loose, "profile", "inputs").items as JsonSchema);
    expect(prop(field, "type").enum).toEqual([...fieldTypes]);
    expect(resolve(prop(design.loose, "profile", "patterns").items as JsonSchema).enum).toEqual([...patternNames]);
    const agent = resolve(prop(design.loose, "profile", "agents").items as JsonSchema);
    expect(prop(agent, "modelClass").enum).toEqual([...modelClasses]);
    expect(prop(agent, "reuse").enum).toEqual(["sa_1"]);
    expect(prop(member("subflow"), "workflowId").enum).toEqual(["wf_1", "wf_2"]);
    const loopEdge = (resolve(prop(design.loose, "design", "edges").items as JsonSchema).anyOf as JsonSchema[])
      .map(resolve)
      .find((e) => prop(e, "loop").const === true)!;
    expect(loopEdge.required).toEqual(expect.arrayContaining(["maxIterations", "onExhausted"]));
    expect(prop(loopEdge, "maxIterations").minimum).toBe(1);
    expect(prop(loopEdge, "onExhausted").enum).toEqual(bare(edgeSchema.shape.onExhausted));
  });

  it("have strict variants in the strict subset, for designs and for edits", () => {
    for (const s of [
      design,
      designSchemas({}),
      editSchemas(WORKFLOWS, { nodeIds: ["start", "a"], agentKeys: ["k"] }),
      editSchemas({}),
    ]) {
      expect(strictSchemaProblems(s.strict)).toEqual([]);
      expect(strictSchemaProblems(s.loose).length).toBeGreaterThan(0);
    }
  });

  it("give instances (loose and strict) that are valid against them and whose nodes lib/workflow can hold", () => {
    const rand = prng(9);
    for (const s of [design, editSchemas(WORKFLOWS, { nodeIds: ["start", "a"], agentKeys: ["k"] })]) {
      for (const variant of [s.loose, s.strict]) {
        const check = ajv.compile(variant);
        for (let i = 0; i < 40; i++) {
          const instance = new SchemaSampler(rand).sample(variant);
          expect(check(instance), JSON.stringify(check.errors)).toBe(true);
        }
      }
    }
    for (let i = 0; i < 60; i++) {
      const instance = new SchemaSampler(rand).sample(design.loose) as {
        design: { nodes: Parameters<typeof compileNode>[0][] };
      };
      for (const node of instance.design.nodes)
        expect(nodeSchema.safeParse(compileNode(node)).success, JSON.stringify(node)).toBe(true);
    }
  });
});

/** The options of a zod enum behind defaults/optionals. */
function bare(schema: { def: unknown }): string[] {
  let s = schema as unknown as { unwrap?: () => unknown; options?: string[] };
  while (!s.options && s.unwrap) s = s.unwrap() as typeof s;
  return s.options ?? [];
}
