import { describe, expect, it } from "vitest";
import type { DesignResult } from "@/lib/designer/events";
import { workflowSchema } from "@/lib/workflow/schema";
import { describeEvent } from "./describe-event";

const result = (dryRun?: DesignResult["dryRun"]): DesignResult =>
  ({
    workflow: workflowSchema.parse({}),
    diff: { added: ["a"], changed: [], removed: [] },
    changes: [],
    summary: "Two articles",
    toCreate: [],
    pendingIssues: [],
    fixes: [],
    merged: [],
    usage: { calls: 1, promptTokens: 1, completionTokens: 1 },
    ...(dryRun ? { dryRun } : {}),
  }) as DesignResult;

describe("the designer's done line", () => {
  it("says whether the dry run passed, failed or was skipped (a proposal with subflows), with its trace", () => {
    expect(describeEvent({ type: "done", result: result({ ok: true, trace: "ran" }) }).details).toEqual([
      "dry run passed:",
      "ran",
    ]);
    const skipped = describeEvent({
      type: "done",
      result: result({ ok: true, skipped: true, trace: "The proposal runs saved workflows as subflows." }),
    });
    expect(skipped.details).toEqual(["dry run skipped:", "The proposal runs saved workflows as subflows."]);
    expect(describeEvent({ type: "done", result: result() }).details).toEqual([]);
  });
});

describe("the designer's repaired line", () => {
  it("counts local repairs by kind and lists each one", () => {
    const fixes = [
      {
        repair: "id_renamed" as const,
        code: "invalid_id",
        message: 'Node id "a b" is not an identifier: renamed to "a_b".',
      },
      {
        repair: "agent_created" as const,
        code: "unknown_agent",
        message: 'Agent "critic" used by node "review" was not declared: created "critic".',
      },
    ];
    const line = describeEvent({
      type: "repaired",
      attempt: 0,
      by: "local",
      fixes,
      summary: "1 id renamed, 1 agent created",
    });
    expect(line.text).toBe("Repaired without asking the model: 1 id renamed, 1 agent created");
    expect(line.details).toEqual(fixes.map((f) => f.message));
  });
});

describe("the designer's drafting line", () => {
  it("shows the summary the model is writing, as it is", () => {
    expect(describeEvent({ type: "drafting", attempt: 0, summary: "Researches a topic, then" })).toEqual({
      type: "drafting",
      tone: "info",
      text: "Drafting: Researches a topic, then",
      details: [],
    });
  });
});
