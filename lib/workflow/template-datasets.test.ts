import { describe, expect, it } from "vitest";
import { inputsSchema } from "./inputs";
import { templateDatasets } from "./template-datasets";
import { instantiateTemplate, workflowTemplates } from "./templates";

describe("templates' datasets", () => {
  it("every template that runs without a person has one, and every case fits the template's input fields", () => {
    const unattended = workflowTemplates
      .filter((t) => !t.workflow.nodes.some((n) => n.type === "human"))
      .map((t) => t.id);
    expect(Object.keys(templateDatasets).sort()).toEqual([...unattended].sort());
    for (const [id, set] of Object.entries(templateDatasets)) {
      const fields = instantiateTemplate(id)!.inputs;
      expect(set.cases.length).toBeGreaterThanOrEqual(3);
      for (const c of set.cases)
        expect(inputsSchema(fields).safeParse(c.inputs).success, `${id}: ${JSON.stringify(c.inputs)}`).toBe(true);
    }
  });
});
