import { describe, expect, it } from "vitest";
import { stepDetail } from "./step-detail";

const at = "2026-01-01T00:00:00.000Z";

describe("stepDetail", () => {
  it("reads the rendered prompt, pairs tool calls with their results, and keeps repairs and the branch reason", () => {
    const d = stepDetail({
      progress: [
        {
          at,
          message: "Writer: prompt rendered (2 messages, tools: search)",
          detail: {
            messages: [
              { role: "system", content: "You write." },
              { role: "user", content: "Write about owls" },
            ],
          },
        },
        {
          at,
          message:
            "Writer made an invalid call to search (invalid_json); repaired invalid tool call: asked the model to call it again (repair 1 of 2)",
          detail: { tool: "search", reason: "invalid_json", error: "bad", repair: 1 },
        },
        { at, message: "Writer called search", detail: { tool: "search", callId: "c1", args: { q: "owls" } } },
        {
          at,
          message: "search returned 10 characters",
          detail: { tool: "search", callId: "c1", result: "found owls" },
        },
        { at, message: 'chose branch "done"', detail: { branch: "done", reason: "it is complete" } },
      ],
    });
    expect(d.prompt).toEqual([
      { role: "system", content: "You write." },
      { role: "user", content: "Write about owls" },
    ]);
    expect(d.toolCalls).toEqual([{ at, tool: "search", callId: "c1", args: { q: "owls" }, result: "found owls" }]);
    expect(d.repairs).toHaveLength(1);
    expect(d.branchReason).toBe("it is complete");
  });

  it("without details (a share link without content) only the messages remain", () => {
    const d = stepDetail({
      progress: [
        { at, message: "Writer called search" },
        { at, message: "x; repaired invalid tool call" },
      ],
    });
    expect(d).toEqual({
      prompt: null,
      toolCalls: [],
      repairs: [{ at, message: "x; repaired invalid tool call" }],
      branchReason: null,
    });
  });
});
