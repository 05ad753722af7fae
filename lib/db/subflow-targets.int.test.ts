import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { listSubflowTargets } from "./subflow-targets";
import { createUser } from "./users";
import { blankWorkflowDocument, createWorkflow, saveWorkflowVersion, updateWorkflow } from "./workflows";

useTestDatabase();

const user = (tag: string) =>
  createUser({ email: `${tag}-${Date.now()}@example.com`, name: tag, password: "correct horse battery" });

const withFields = (name: string, inputs: string[], outputs: string[]) => ({
  ...blankWorkflowDocument(name),
  inputs: inputs.map((key, i) => ({ key, type: "string" as const, description: `${key} to use`, required: i === 0 })),
  outputs: outputs.map((key) => ({ key, type: "string" as const, description: "", required: true })),
});

describe("lib/db/subflow-targets", () => {
  it("lists the owner's workflows only, by name, with the newest saved version's fields (the draft's before any save)", async () => {
    const [a, b] = await Promise.all([user("sub-a"), user("sub-b")]);
    const summarise = await createWorkflow(a.id, withFields("Summarise", ["topic", "tone"], ["summary"]));
    await saveWorkflowVersion(a.id, summarise.id);
    // a later draft changes the fields; a subflow runs the saved version, so the saved fields count
    await updateWorkflow(a.id, summarise.id, { draft: withFields("Summarise", ["subject"], ["text"]) });
    await saveWorkflowVersion(a.id, summarise.id);
    await updateWorkflow(a.id, summarise.id, { draft: withFields("Summarise", ["unsaved"], []) });
    const draftOnly = await createWorkflow(a.id, withFields("Alpha draft", ["q"], ["a"]));
    await createWorkflow(b.id, withFields("Not yours", ["x"], ["y"]));

    const targets = await listSubflowTargets(a.id);
    expect(targets).toEqual([
      {
        id: draftOnly.id,
        name: "Alpha draft",
        version: null,
        inputs: [{ key: "q", type: "string", required: true, description: "q to use" }],
        outputs: [{ key: "a" }],
        history: [],
        description: "",
        updatedAt: expect.any(String),
      },
      {
        id: summarise.id,
        name: "Summarise",
        version: 2,
        inputs: [{ key: "subject", type: "string", required: true, description: "subject to use" }],
        outputs: [{ key: "text" }],
        history: [
          {
            from: 1,
            inputs: [
              { key: "topic", type: "string", required: true, description: "topic to use" },
              { key: "tone", type: "string", required: false, description: "tone to use" },
            ],
            outputs: [{ key: "summary" }],
          },
          {
            from: 2,
            inputs: [{ key: "subject", type: "string", required: true, description: "subject to use" }],
            outputs: [{ key: "text" }],
          },
        ],
        description: "",
        updatedAt: expect.any(String),
      },
    ]);
    expect(Date.parse(targets[0]!.updatedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await listSubflowTargets(b.id)).map((t) => t.name)).toEqual(["Not yours"]);
  });

  it("lists in a workflow's history only the versions where its inputs or outputs changed", async () => {
    const a = await user("sub-h");
    const wf = await createWorkflow(a.id, withFields("Steady", ["topic"], ["summary"]));
    await saveWorkflowVersion(a.id, wf.id);
    await updateWorkflow(a.id, wf.id, {
      draft: { ...withFields("Steady", ["topic"], ["summary"]), description: "same fields" },
    });
    await saveWorkflowVersion(a.id, wf.id);
    await updateWorkflow(a.id, wf.id, { draft: withFields("Steady", ["topic"], ["summary", "sources"]) });
    await saveWorkflowVersion(a.id, wf.id);
    const [target] = await listSubflowTargets(a.id);
    expect(target?.version).toBe(3);
    expect(target?.history.map((h) => [h.from, h.outputs.map((o) => o.key)])).toEqual([
      [1, ["summary"]],
      [3, ["summary", "sources"]],
    ]);
  });
});
