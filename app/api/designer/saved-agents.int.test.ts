import { describe, expect, it } from "vitest";
import { createAgent } from "@/lib/db/agents";
import { design } from "@/lib/designer/pipeline";
import { SCHEMA_NAMES } from "@/lib/designer/schemas";
import { DESIGNER_MARKER } from "@/lib/designer/prompts";
import { useWorkerRuntime } from "@/test/helpers/runtime";
import { designerOptions } from "./setup";

/**
 * A design that reuses a saved agent runs with that agent's saved instructions, tools and model —
 * not with the text the model wrote for it. The designer's context comes from the user's saved agents
 * (setup.ts, real PostgreSQL), the design is made over HTTP by the scripted model, and the proposal
 * runs on a real worker process (BullMQ, PostgreSQL); the scripted server's request log shows what
 * the agent was run with.
 */
const rt = useWorkerRuntime({ modelInProcess: true });

const SAVED = "SAVED-INSTRUCTIONS: check every claim against two independent sources.";
const MODEL_TEXT = "MODEL-TEXT: you are a checker the model described.";

describe("saved agents reused by the designer", () => {
  it("run with their saved instructions, tools and model on a real worker", { timeout: 120_000 }, async () => {
    const saved = await createAgent(rt.workspaceId, {
      name: "Fact checker",
      description: "checks claims",
      instructions: SAVED,
      tools: [{ name: "web_search" }],
      model: { model: "scripted-fact-model" },
    });
    const answer = {
      profile: {
        summary: "Check the facts of a text",
        inputs: [{ key: "text" }],
        outputs: [{ key: "report" }],
        patterns: ["sequential"],
        agents: [
          {
            key: "checker",
            role: "a checker",
            instructions: MODEL_TEXT,
            modelClass: "fast",
            tools: [],
            reuse: saved.id,
          },
        ],
      },
      design: {
        name: "Fact check",
        nodes: [
          { id: "start", kind: "start" },
          { id: "check", kind: "agent", agent: "checker", task: "Check: {{inputs.text}}" },
          { id: "end", kind: "end", outputs: { report: "{{nodes.check.output}}" } },
        ],
        edges: [
          { from: "start", to: "check" },
          { from: "check", to: "end" },
        ],
      },
    };
    rt.model.load(
      [
        {
          rules: [
            { id: "design", match: { system: DESIGNER_MARKER, schema: SCHEMA_NAMES.design }, reply: { json: answer } },
            {
              id: "saved-checker",
              match: { system: SAVED, model: "scripted-fact-model" },
              reply: { text: "Two sources agree: the claim holds." },
            },
          ],
        },
      ],
      "add",
    );

    const { options } = await designerOptions(rt.workspaceId, { message: "check the facts of a text" });
    expect(options.context?.savedAgents).toEqual([
      expect.objectContaining({ id: saved.id, instructions: SAVED, tools: [{ name: "web_search" }] }),
    ]);
    let last;
    for await (const e of design({ message: "check the facts of a text" }, { ...options, dryRun: undefined })) last = e;
    if (last?.type !== "done") throw new Error(`expected a proposal: ${JSON.stringify(last)}`);
    const checker = last.result.workflow.agents.find((a) => a.key === "checker")!;
    expect(checker).toMatchObject({
      savedAgentId: saved.id,
      instructions: SAVED,
      tools: [{ name: "web_search" }],
      model: { model: "scripted-fact-model" },
    });

    const { run } = await rt.run(last.result.workflow, { text: "Water boils at 100 °C at sea level." }, 60_000);
    expect(run.status, run.reason ?? "").toBe("succeeded");
    expect(JSON.stringify(run.outputs)).toContain("Two sources agree");
    const calls = rt.model.requests().filter((r) => r.rule === "saved-checker");
    expect(calls).toHaveLength(1);
    const body = calls[0]!.body as {
      model: string;
      messages: { role: string; content: string }[];
      tools?: { function: { name: string } }[];
    };
    expect(body.model).toBe("scripted-fact-model");
    expect(body.messages.find((m) => m.role === "system")!.content).toContain(SAVED);
    expect(body.tools?.map((t) => t.function.name)).toContain("web_search");
    expect(
      JSON.stringify(
        rt.model
          .requests()
          .filter((r) => r.rule !== "design")
          .map((r) => r.body),
      ),
    ).not.toContain("MODEL-TEXT");
  });
});
