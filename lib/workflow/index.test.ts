import { describe, expect, it } from "vitest";
import * as api from "./index";

describe("lib/workflow public API", () => {
  it("exposes the main entry points", () => {
    for (const name of [
      "workflowSchema",
      "validate",
      "renderTemplate",
      "evaluateCondition",
      "buildGraph",
      "applyOperations",
      "diffDocuments",
      "nodeKindRegistry",
      "workflowTemplates",
      "importAutoAgentXml",
      "importMetaAgentFsm",
      "exportWorkflow",
      "importWorkflow",
    ]) {
      expect(typeof (api as Record<string, unknown>)[name], name).not.toBe("undefined");
    }
  });

  it("composes: import a template's JSON, edit it, validate and diff it", () => {
    const template = api.workflowTemplates[0];
    if (!template) throw new Error("no templates");
    const imported = api.importWorkflow(api.exportWorkflow(template.workflow));
    if (!imported.ok) throw new Error(api.formatImportErrors(imported.errors));
    const edited = api.applyOperations(imported.workflow, [{ type: "renameNode", id: "outline", newId: "plan" }]);
    expect(api.validate(edited)).toEqual([]);
    expect(api.applyOperations(template.workflow, api.diffDocuments(template.workflow, edited))).toEqual(edited);
  });
});
