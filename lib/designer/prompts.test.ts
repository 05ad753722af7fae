import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CORPUS_CONTEXT } from "./fixtures/corpus";
import { SAVED_WORKFLOWS } from "./fixtures/workflows";
import { kindCatalogue } from "./kinds";
import { designSystemPrompt, editSystemPrompt, repairMessage, type DesignContext } from "./prompts";

/** The prompts without saved workflows (B4 counts their tokens; its contexts have none). */
const BEFORE = fs.readFileSync(path.join(import.meta.dirname, "fixtures", "prompts-without-workflows.txt"), "utf8");

const context: DesignContext = {
  ...CORPUS_CONTEXT,
  savedAgents: [{ id: "agent-1", name: "Fact checker", description: "checks claims against sources" }],
};

function prompts(ctx: DesignContext): string {
  const kinds = kindCatalogue({ subflows: (ctx.workflows?.length ?? 0) > 0 });
  const repair = repairMessage([{ code: "unwired_branch", message: "Branch x of y has no edge." }], "edit");
  return [designSystemPrompt(kinds, ctx), editSystemPrompt(kinds, ctx), repair].join("\n\n=====\n\n");
}

describe("designer prompts and saved workflows", () => {
  it("are the stored prompts when the context has no workflows (subflows are not offered at all)", () => {
    expect(prompts(context)).toBe(BEFORE);
    expect(prompts({ ...context, workflows: [] })).toBe(BEFORE);
  });

  it("offer the subflow kind and list each saved workflow on one line when the context has some", () => {
    const text = designSystemPrompt(kindCatalogue({ subflows: true }), { ...context, workflows: SAVED_WORKFLOWS });
    expect(text).toContain(
      "- subflow: Runs another of your saved workflows as one step and waits for its end; its outputs are this step's output. Fields: id, name, workflowId, inputs, join (workflowId = an id from the saved workflows; inputs = {<its input key>: template}); later nodes read {{nodes.<id>.output.<output key>}}. Outcomes: done.",
    );
    expect(
      text.endsWith(
        [
          "Saved agents (reuse by id in agent.reuse: it runs as saved, with its own instructions, tools and model): agent-1: Fact checker (checks claims against sources)",
          "Saved workflows (only when the request asks to run one: a subflow node with workflowId = its id and inputs setting every required (*) input and no other key):",
          "- wf_article: Article writer (Researches a topic, outlines it, has a critic check the outline, then writes the article); inputs topic:string*, tone:string; outputs article",
          "- wf_triage: Support triage; inputs message:text*; outputs reply, route",
        ].join("\n"),
      ),
    ).toBe(true);
    expect(editSystemPrompt(kindCatalogue({ subflows: true }), { ...context, workflows: SAVED_WORKFLOWS })).toContain(
      "- wf_triage: Support triage;",
    );
  });

  it("add notes after the issues of a repair message, and nothing without notes", () => {
    const issues = [{ code: "subflow_input_missing", message: 'Subflow "a" leaves out "topic".' }];
    expect(repairMessage(issues, "design", ["note one"])).toBe(
      'The validator found these problems:\n- [subflow_input_missing] Subflow "a" leaves out "topic".\nnote one\nAnswer with the corrected complete JSON object {profile, design}.',
    );
    expect(repairMessage(issues, "design", [])).toBe(repairMessage(issues, "design"));
  });
});
