import { describe, expect, it } from "vitest";
import { modelChoiceOf, modelText } from "./types";

const providers = [{ id: "p1", name: "OpenAI", defaultModel: "gpt-4o-mini" }];

describe("agent model display", () => {
  it("encodes the stored model as the form's choice (provider by id or name, scripted, default)", () => {
    expect(modelChoiceOf(null, providers)).toBe("");
    expect(modelChoiceOf({ provider: "p1", model: "gpt-4.1" }, providers)).toBe("provider:p1");
    expect(modelChoiceOf({ provider: "OpenAI", model: "gpt-4.1" }, providers)).toBe("provider:p1");
    expect(modelChoiceOf({ provider: "gone", model: "x" }, providers)).toBe("");
    expect(modelChoiceOf({ model: "scripted-demo" }, providers)).toBe("scripted");
  });

  it("labels it for the library cards", () => {
    expect(modelText(null, providers)).toBe("Workflow default");
    expect(modelText({ provider: "p1", model: "gpt-4.1" }, providers)).toBe("OpenAI · gpt-4.1");
    expect(modelText({ model: "scripted-demo" }, providers)).toBe("Scripted demo model");
    expect(modelText({ model: "llama3" }, providers)).toBe("llama3");
  });
});
