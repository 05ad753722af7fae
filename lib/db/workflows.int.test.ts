import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { db } from "./client";
import { createUser } from "./users";
import {
  blankWorkflowDocument,
  createWorkflow,
  deleteWorkflow,
  getWorkflow,
  getWorkflowVersion,
  listWorkflows,
  listWorkflowVersions,
  saveWorkflowVersion,
  updateWorkflow,
} from "./workflows";

useTestDatabase();

const user = (tag: string) =>
  createUser({ email: `${tag}-${Date.now()}@example.com`, name: tag, password: "correct horse battery" });

describe("lib/db/workflows", () => {
  it("creates a blank workflow with a start and an end node, listed for its owner only", async () => {
    const [a, b] = await Promise.all([user("a"), user("b")]);
    const wf = await createWorkflow(a.id, blankWorkflowDocument("Research"));
    expect(wf).toMatchObject({ name: "Research", versionCount: 0, nodeCount: 2 });
    expect((await listWorkflows(a.id)).map((w) => w.id)).toEqual([wf.id]);
    expect(await listWorkflows(b.id)).toEqual([]);
    const detail = await getWorkflow(a.id, wf.id);
    expect(detail?.document?.nodes.map((n) => n.type)).toEqual(["start", "end"]);
  });

  it("the list counts each workflow's enabled schedules and webhooks (what starts runs without anyone)", async () => {
    const a = await user("auto");
    const wf = await createWorkflow(a.id, blankWorkflowDocument("Automated"));
    expect((await listWorkflows(a.id))[0]).toMatchObject({ schedules: 0, webhooks: 0 });
    await db().schedule.createMany({
      data: [
        { workspaceId: a.id, workflowId: wf.id, cron: "0 9 * * *", timezone: "UTC" },
        { workspaceId: a.id, workflowId: wf.id, cron: "0 10 * * *", timezone: "UTC", enabled: false },
      ],
    });
    await db().webhook.create({
      data: { workspaceId: a.id, workflowId: wf.id, name: "h", secretHash: `h-${wf.id}`, lastFour: "abcd" },
    });
    expect((await listWorkflows(a.id))[0]).toMatchObject({ id: wf.id, schedules: 1, webhooks: 1 });
  });

  it("another user's workflow is indistinguishable from a missing one", async () => {
    const [a, b] = await Promise.all([user("a2"), user("b2")]);
    const wf = await createWorkflow(a.id, blankWorkflowDocument("Secret"));
    expect(await getWorkflow(b.id, wf.id)).toBeNull();
    expect(await getWorkflow(b.id, "no-such-id")).toBeNull();
    expect(await updateWorkflow(b.id, wf.id, { name: "pwned" })).toBeNull();
    expect(await saveWorkflowVersion(b.id, wf.id)).toBeNull();
    expect(await listWorkflowVersions(b.id, wf.id)).toBeNull();
    expect(await deleteWorkflow(b.id, wf.id)).toBe(false);
    expect((await getWorkflow(a.id, wf.id))?.name).toBe("Secret");
  });

  it("saves immutable versions numbered 1, 2, … that later draft edits do not change", async () => {
    const a = await user("v");
    const wf = await createWorkflow(a.id, blankWorkflowDocument("Versioned"));
    const v1 = await saveWorkflowVersion(a.id, wf.id, "first");
    await updateWorkflow(a.id, wf.id, { name: "Renamed" });
    const v2 = await saveWorkflowVersion(a.id, wf.id, "second");
    expect([v1?.version, v2?.version]).toEqual([1, 2]);
    expect((await listWorkflowVersions(a.id, wf.id))?.map((v) => v.version)).toEqual([2, 1]);
    expect((await getWorkflowVersion(a.id, v1!.id))?.document.name).toBe("Versioned");
    expect((await getWorkflowVersion(a.id, v2!.id))?.document.name).toBe("Renamed");
    const detail = await getWorkflow(a.id, wf.id);
    expect(detail).toMatchObject({ name: "Renamed", versionCount: 2, latestVersion: 2 });
  });

  it("concurrent saves still get distinct consecutive numbers", async () => {
    const a = await user("c");
    const wf = await createWorkflow(a.id, blankWorkflowDocument("Busy"));
    const saved = await Promise.all([1, 2, 3].map(() => saveWorkflowVersion(a.id, wf.id)));
    expect(saved.map((v) => v?.version).sort()).toEqual([1, 2, 3]);
  });

  it("refuses to version a draft that is not a workflow document", async () => {
    const a = await user("bad");
    const wf = await createWorkflow(a.id, blankWorkflowDocument("Broken"));
    await updateWorkflow(a.id, wf.id, { draft: { nodes: [{ id: "x", type: "nonsense" }] } });
    await expect(saveWorkflowVersion(a.id, wf.id)).rejects.toMatchObject({ code: "invalid_workflow" });
    expect((await getWorkflow(a.id, wf.id))?.document).toBeNull();
  });

  it("deletes only the owner's workflow", async () => {
    const a = await user("d");
    const wf = await createWorkflow(a.id, blankWorkflowDocument("Gone"));
    expect(await deleteWorkflow(a.id, wf.id)).toBe(true);
    expect(await getWorkflow(a.id, wf.id)).toBeNull();
  });
});
