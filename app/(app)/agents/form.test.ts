import { describe, expect, it } from "vitest";
import { parseAgentForm } from "./form";

const providers = [{ id: "prov_1", defaultModel: "gpt-4o-mini" }];

function form(fields: Record<string, string | string[]>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) f.append(k, x);
  return f;
}

describe("parseAgentForm", () => {
  it("reads name, instructions, tools (deduplicated) and the workflow-default model", () => {
    const r = parseAgentForm(
      form({
        name: "  Analyst ",
        description: "d",
        instructions: "Be brief.",
        modelChoice: "",
        tools: ["math", "word_count", "math"],
      }),
      providers,
    );
    expect(r).toEqual({
      ok: true,
      input: {
        name: "Analyst",
        description: "d",
        instructions: "Be brief.",
        model: null,
        tools: [{ name: "math" }, { name: "word_count" }],
      },
    });
  });

  it("maps a provider choice to its id with the typed model, or its default model, and a temperature", () => {
    const typed = parseAgentForm(
      form({ name: "a", modelChoice: "provider:prov_1", modelName: "gpt-4.1", temperature: "0.3" }),
      providers,
    );
    expect(typed.ok && typed.input.model).toEqual({ provider: "prov_1", model: "gpt-4.1", temperature: 0.3 });
    const fallback = parseAgentForm(form({ name: "a", modelChoice: "provider:prov_1" }), providers);
    expect(fallback.ok && fallback.input.model).toEqual({ provider: "prov_1", model: "gpt-4o-mini" });
    const scripted = parseAgentForm(form({ name: "a", modelChoice: "scripted", modelName: "" }), providers);
    expect(scripted.ok && scripted.input.model).toEqual({ model: "scripted-demo" });
  });

  it("names the field of each error: empty name, someone else's provider, bad temperature", () => {
    expect(parseAgentForm(form({ name: "  " }), providers)).toEqual({
      ok: false,
      fieldErrors: { name: "Enter a name" },
    });
    expect(parseAgentForm(form({ name: "a", modelChoice: "provider:other" }), providers)).toMatchObject({
      ok: false,
      fieldErrors: { modelChoice: expect.stringContaining("no longer exists") },
    });
    expect(parseAgentForm(form({ name: "a", modelChoice: "scripted", temperature: "5" }), providers)).toMatchObject({
      ok: false,
      fieldErrors: { temperature: "A number from 0 to 2" },
    });
    expect(parseAgentForm(form({ name: "a", modelChoice: "bogus" }), providers)).toMatchObject({
      ok: false,
      fieldErrors: { modelChoice: "Pick a model from the list." },
    });
  });
});
