import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { useTestDatabase } from "@/test/db";
import { GET as DETAIL } from "./[id]/route";
import { GET as LIST } from "./route";

useTestDatabase();
let alice: Awaited<ReturnType<typeof createTestUser>>;
let bob: Awaited<ReturnType<typeof createTestUser>>;

const withInputs: WorkflowInput = {
  name: "Report",
  inputs: [
    { key: "topic", type: "string", description: "What to report on" },
    { key: "pages", type: "number", required: false },
  ],
  nodes: [
    { id: "start", type: "start" },
    { id: "end", type: "end" },
  ],
  edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "end" }],
};

const get = (url: string, headers: Record<string, string> = {}) => new Request(`http://localhost${url}`, { headers });
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

beforeAll(async () => {
  [alice, bob] = [await createTestUser(), await createTestUser()];
});

describe("REST: workflows for scripts", () => {
  it("lists the caller's workflows with their input fields and latest version, and nobody else's", async () => {
    // a user of its own: the list must hold exactly this one workflow, whatever the other tests made
    const carol = await createTestUser();
    const { workflowId } = await createTestWorkflow(carol.id, withInputs);
    await createTestWorkflow(bob.id, withInputs);
    const res = await LIST(get("/api/workflows", carol.auth));
    expect(res.status).toBe(200);
    const { workflows } = (await res.json()) as {
      workflows: { id: string; latestVersion: number | null; inputs: unknown }[];
    };
    expect(workflows).toEqual([
      expect.objectContaining({
        id: workflowId,
        latestVersion: 1,
        inputs: [
          { key: "topic", type: "string", description: "What to report on", required: true },
          { key: "pages", type: "number", description: "", required: false },
        ],
      }),
    ]);
  });

  it("answers one workflow to its owner, 404 to anyone else, 401 without credentials", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, withInputs);
    const mine = await DETAIL(get(`/api/workflows/${workflowId}`, alice.auth), ctx(workflowId));
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({
      id: workflowId,
      latestVersion: 1,
      inputs: [{ key: "topic" }, { key: "pages" }],
    });
    const theirs = await DETAIL(get(`/api/workflows/${workflowId}`, bob.auth), ctx(workflowId));
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toEqual({ error: { code: "not_found", message: "Workflow not found", details: null } });
    expect(
      (await DETAIL(get(`/api/workflows/${workflowId}`, { authorization: "Bearer weft_nope" }), ctx(workflowId)))
        .status,
    ).toBe(401);
  });

  it("says inputs: null for a draft that is not a workflow document, and latestVersion: null before a save", async () => {
    const broken = await db().workflow.create({
      data: { workspaceId: alice.id, name: "Half edited", draft: { nodes: "not a list" } },
    });
    const detail = await DETAIL(get(`/api/workflows/${broken.id}`, alice.auth), ctx(broken.id));
    expect(await detail.json()).toMatchObject({
      id: broken.id,
      name: "Half edited",
      latestVersion: null,
      inputs: null,
    });
    const { workflows } = (await (await LIST(get("/api/workflows", alice.auth))).json()) as {
      workflows: { id: string; inputs: unknown }[];
    };
    expect(workflows.find((w) => w.id === broken.id)).toMatchObject({ inputs: null, latestVersion: null });
  });
});
