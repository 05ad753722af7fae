import { describe, expect, it } from "vitest";
import { closestChoice } from "./judge";
import { requestFacts, type ChatRequest } from "./request";

/** A router's structured call as the engine sends it (lib/engine/executors/branch.ts), by tool calling. */
const routerRequest = (routed: string, schema: Record<string, unknown>): ChatRequest => ({
  model: "scripted-demo",
  messages: [
    { role: "system", content: "You triage customer messages." },
    { role: "user", content: `Route this message: ${routed}` },
    {
      role: "user",
      content:
        'Choose exactly one outcome by its id:\n- "purchase" (Purchase): The customer wants to buy something or asks about products.\n- "refund" (Refund): The customer wants money back or to return an order.\nAnswer with the chosen id in "branch".',
    },
  ],
  tools: [{ type: "function", function: { name: "choose_branch", parameters: schema } }],
  tool_choice: { type: "function", function: { name: "choose_branch" } },
});
const branchSchema = {
  type: "object",
  properties: { branch: { type: "string", enum: ["purchase", "refund"] }, reason: { type: "string" } },
};

describe("closestChoice (the demo's judge)", () => {
  it("picks the option whose condition shares the most words with the routed message", () => {
    expect(
      closestChoice(requestFacts(routerRequest("I want my money back for order 42, it arrived broken", branchSchema))),
    ).toMatchObject({ branch: "refund" });
    expect(
      closestChoice(
        requestFacts(routerRequest("Which products do you have? I would like to buy a kettle", branchSchema)),
      ),
    ).toMatchObject({ branch: "purchase" });
  });

  it("says why, only when the schema has a reason, and takes the first declared option on a tie", () => {
    const tie = closestChoice(requestFacts(routerRequest("zzz qqq", branchSchema)));
    expect(tie).toEqual({ branch: "purchase", reason: expect.stringContaining('"purchase" (Purchase)') });
    const noReason = { type: "object", properties: { branch: { type: "string", enum: ["purchase", "refund"] } } };
    expect(closestChoice(requestFacts(routerRequest("refund please, money back", noReason)))).toEqual({
      branch: "refund",
    });
  });

  it("reads the schema from response_format too, and answers nothing when it has no enum", () => {
    const viaFormat: ChatRequest = {
      ...routerRequest("return my order for money back", branchSchema),
      tools: undefined,
      tool_choice: undefined,
      response_format: { type: "json_schema", json_schema: { name: "choose_branch", schema: branchSchema } },
    };
    expect(closestChoice(requestFacts(viaFormat))).toMatchObject({ branch: "refund" });
    expect(
      closestChoice(
        requestFacts(routerRequest("anything", { type: "object", properties: { text: { type: "string" } } })),
      ),
    ).toBeUndefined();
  });
});
