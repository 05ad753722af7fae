import { expect, test } from "vitest";
import { createTestUser } from "@/test/fixtures";
import { agentSpecSchema } from "@/lib/workflow/schema";
import { useTestDatabase } from "@/test/db";
import { agentSpecFrom, createAgent, deleteAgent, duplicateAgent, getAgent, listAgents, updateAgent } from "./agents";

useTestDatabase();

test("create, edit, duplicate, delete — owner-scoped", async () => {
  const owner = await createTestUser();
  const other = await createTestUser();
  const a = await createAgent(owner.id, {
    name: "Researcher",
    description: "Finds facts",
    instructions: "Search, then cite.",
    model: { model: "scripted-demo" },
    tools: [{ name: "web_search" }],
  });
  expect(a).toMatchObject({ name: "Researcher", model: { model: "scripted-demo" }, tools: [{ name: "web_search" }] });
  await expect(createAgent(owner.id, { name: "  " })).rejects.toThrow();

  const edited = await updateAgent(owner.id, a.id, {
    name: "Researcher",
    instructions: "Cite sources.",
    tools: [{ name: "web_search" }, { name: "web_page_markdown" }],
  });
  expect(edited).toMatchObject({
    instructions: "Cite sources.",
    model: null,
    tools: [{ name: "web_search" }, { name: "web_page_markdown" }],
  });
  expect(await updateAgent(other.id, a.id, { name: "hijack" })).toBeNull();
  expect(await getAgent(other.id, a.id)).toBeNull();

  const copy = await duplicateAgent(owner.id, a.id);
  expect(copy).toMatchObject({ name: "Researcher (copy)", instructions: "Cite sources." });
  expect(copy!.id).not.toBe(a.id);
  expect(await duplicateAgent(other.id, a.id)).toBeNull();
  expect((await listAgents(owner.id)).map((x) => x.name).sort()).toEqual(["Researcher", "Researcher (copy)"]);

  const spec = agentSpecSchema.parse(agentSpecFrom(copy!, "researcher"));
  expect(spec).toMatchObject({
    key: "researcher",
    savedAgentId: copy!.id,
    tools: [{ name: "web_search" }, { name: "web_page_markdown" }],
  });

  expect(await deleteAgent(other.id, a.id)).toBe(false);
  expect(await deleteAgent(owner.id, a.id)).toBe(true);
  expect((await listAgents(owner.id)).length).toBe(1);
});
