import { describe, expect, it } from "vitest";
import { validate } from "@/lib/workflow/validate";
import { workflowSchema } from "@/lib/workflow/schema";
import { addNode } from "./editor-ops";
import { parsePaletteItem, type PaletteItem } from "./palette-item";

const blank = () => workflowSchema.parse({ nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 } }] });

describe("palette items", () => {
  it("round-trips a saved agent with its fields and refuses foreign drags", () => {
    const item: PaletteItem = {
      type: "saved-agent",
      agentId: "ag_1",
      name: "Researcher",
      spec: {
        description: "finds sources",
        instructions: "Cite everything.",
        model: { model: "scripted-demo" },
        tools: [{ name: "web_search" }],
      },
    };
    expect(parsePaletteItem(JSON.stringify(item))).toEqual(item);
    expect(parsePaletteItem(JSON.stringify({ type: "saved-agent", name: "x" }))).toBeNull();
    expect(parsePaletteItem("plain text")).toBeNull();
  });

  it("dropping a saved agent makes an agent node whose spec copies the agent and refers to it", () => {
    const item = parsePaletteItem(
      JSON.stringify({
        type: "saved-agent",
        agentId: "ag_1",
        name: "Researcher",
        spec: {
          description: "finds sources",
          instructions: "Cite everything.",
          model: { provider: "p1", model: "gpt-x" },
          tools: [{ name: "math" }],
        },
      }),
    );
    if (item?.type !== "saved-agent") throw new Error("not parsed");
    const r = addNode("agent", { x: 10, y: 20 }, { id: item.agentId, name: item.name, spec: item.spec })(blank());
    if (!r.ok) throw new Error(r.error);
    const node = r.doc.nodes.find((n) => n.type === "agent");
    expect(node).toMatchObject({ name: "Researcher", position: { x: 10, y: 20 } });
    const spec = r.doc.agents.find((a) => node?.type === "agent" && a.key === node.agent);
    expect(spec).toEqual({
      key: node?.id,
      name: "Researcher",
      description: "finds sources",
      instructions: "Cite everything.",
      model: { provider: "p1", model: "gpt-x" },
      tools: [{ name: "math" }],
      savedAgentId: "ag_1",
    });
    // validate() checks the reference against the user's saved agents when told which exist.
    expect(validate(r.doc, { savedAgentIds: ["ag_1"] }).some((i) => i.code === "unknown_saved_agent")).toBe(false);
    expect(validate(r.doc, { savedAgentIds: [] }).some((i) => i.code === "unknown_saved_agent")).toBe(true);
  });
});
