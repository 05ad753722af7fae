import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { workflowTemplates } from "@/lib/workflow/templates";
import { hasErrors, validate } from "@/lib/workflow/validate";
import { listAgents, updateAgent } from "./agents";
import { TWO_ARTICLES_NAME } from "@/lib/workflow/subflow-example";
import { DEMO_AGENTS, seedDemoAccount } from "./demo-seed";
import { getWorkflow, listWorkflows } from "./workflows";

useTestDatabase();

describe("the demo account's seed", () => {
  it("creates a saved workflow per template, the subflow example and the demo agents once, and leaves the user's edits alone when run again", async () => {
    const first = await seedDemoAccount();
    expect(first).toMatchObject({ workflowsCreated: workflowTemplates.length + 1, agentsCreated: DEMO_AGENTS.length });
    const workflows = await listWorkflows(first.userId);
    expect(workflows.map((w) => w.name).sort()).toEqual(
      [...workflowTemplates.map((t) => t.workflow.name), TWO_ARTICLES_NAME].sort(),
    );
    const targets = workflows.map((w) => ({ id: w.id, name: w.name, inputs: [{ key: "topic", required: true }] }));
    for (const w of workflows) {
      const full = await getWorkflow(first.userId, w.id);
      expect(full?.document, w.name).toBeTruthy();
      expect(hasErrors(validate(full!.document!, { workflows: targets })), w.name).toBe(false);
      expect(full?.latestVersion, w.name).toBe(1);
    }
    // the example runs the seeded Article writer
    const example = await getWorkflow(first.userId, workflows.find((w) => w.name === TWO_ARTICLES_NAME)!.id);
    const writerId = workflows.find((w) => w.name === "Article writer")!.id;
    expect(
      example!.document!.nodes.filter((n) => n.type === "subflow").map((n) => n.type === "subflow" && n.workflowId),
    ).toEqual([writerId, writerId]);
    const agents = await listAgents(first.userId);
    expect(agents.map((a) => a.name).sort()).toEqual(DEMO_AGENTS.map((a) => a.name).sort());

    const writer = agents.find((a) => a.name === "Writer")!;
    await updateAgent(first.userId, writer.id, { name: "Writer", instructions: "Mine now." });
    expect(await seedDemoAccount()).toEqual({ userId: first.userId, workflowsCreated: 0, agentsCreated: 0 });
    expect((await listAgents(first.userId)).find((a) => a.id === writer.id)?.instructions).toBe("Mine now.");
  });
});
