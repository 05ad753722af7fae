import { describe, expect, it } from "vitest";
import { exportWorkflow, formatImportErrors, importWorkflow, parseWorkflow } from "./io";
import { workflowTemplates } from "./templates";

describe("exportWorkflow / importWorkflow", () => {
  it("round-trips every template", () => {
    for (const t of workflowTemplates) {
      const text = exportWorkflow(t.workflow);
      expect(text.startsWith('{\n  "schemaVersion": 1,\n  "name"')).toBe(true);
      expect(text.endsWith("}\n")).toBe(true);
      expect(importWorkflow(text)).toEqual({ ok: true, workflow: t.workflow });
    }
  });

  it("fills defaults for a minimal document without schemaVersion", () => {
    const r = importWorkflow('{"nodes": [{"id": "start", "type": "start"}]}');
    expect(r.ok && r.workflow).toMatchObject({
      schemaVersion: 1,
      name: "Untitled workflow",
      nodes: [{ id: "start", type: "start", join: "all" }],
      limits: { maxSteps: 100 },
    });
  });

  it("reports precise zod paths", () => {
    const r = importWorkflow(
      JSON.stringify({
        nodes: [
          { id: "start", type: "start" },
          { id: "a", type: "agent", agent: "x", branches: [{ id: "9bad" }] },
          { id: "b", type: "teleport" },
        ],
      }),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.path)).toEqual([
      ["nodes", 1, "branches", 0, "id"],
      ["nodes", 2, "type"],
    ]);
    expect(formatImportErrors(r.errors).split("\n")[0]).toBe(
      "nodes.1.branches.0.id: must start with a letter and use only letters, digits, _ or - (max 64)",
    );
  });

  it("refuses non-JSON, non-objects and future versions", () => {
    expect(importWorkflow("{nope")).toMatchObject({
      ok: false,
      errors: [{ path: [], message: expect.stringMatching(/^Not valid JSON: /) }],
    });
    expect(parseWorkflow([1, 2])).toEqual({
      ok: false,
      errors: [{ path: [], message: "A workflow must be a JSON object." }],
    });
    expect(parseWorkflow({ schemaVersion: 2 })).toEqual({
      ok: false,
      errors: [
        {
          path: ["schemaVersion"],
          message: "This workflow uses schema version 2, newer than the supported version 1.",
        },
      ],
    });
    expect(parseWorkflow({ schemaVersion: "1" })).toEqual({
      ok: false,
      errors: [{ path: ["schemaVersion"], message: "schemaVersion must be a positive integer." }],
    });
  });

  it("does not let __proto__ keys in JSON pollute prototypes", () => {
    const r = importWorkflow('{"__proto__": {"polluted": true}, "name": "x"}');
    expect(r.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
