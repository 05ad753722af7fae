import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AgentForm } from "./agent-form";
import { AgentLibrary } from "./agent-library";
import type { AgentFormResult, AgentRow } from "./types";

const providers = [{ id: "p1", name: "OpenAI", defaultModel: "gpt-4o-mini" }];
const tools = [
  { name: "word_count", description: "Counts words", kind: "builtin" as const },
  { name: "pct_change", description: "Percentage change", kind: "code" as const },
];
const agent: AgentRow = {
  id: "a1",
  name: "Analyst",
  description: "Reads filings",
  instructions: "Be precise.",
  model: { provider: "p1", model: "gpt-4.1" },
  tools: [{ name: "word_count" }, { name: "retired_tool" }],
  updatedAt: new Date(0).toISOString(),
};
const noop = async (): Promise<AgentFormResult> => ({ status: "idle" });

describe("agent library rendering (server markup)", () => {
  it("lists each agent with its model label and tools, with edit/duplicate/delete controls", () => {
    const html = renderToStaticMarkup(
      <AgentLibrary agents={[agent]} providers={providers} tools={tools} save={noop} duplicate={noop} remove={noop} />,
    );
    expect(html).toContain('data-agent-id="a1"');
    expect(html).toContain("OpenAI · gpt-4.1");
    expect(html).toContain("retired_tool");
    for (const label of ["Edit Analyst", "Duplicate Analyst", "Delete Analyst"])
      expect(html).toContain(`aria-label="${label}"`);
  });

  it("shows the empty state without agents", () => {
    expect(
      renderToStaticMarkup(
        <AgentLibrary agents={[]} providers={providers} tools={tools} save={noop} duplicate={noop} remove={noop} />,
      ),
    ).toContain("No saved agents");
  });

  it("the edit form starts from the agent: provider choice, model name, checked tools, and keeps a tool the registry no longer offers", () => {
    const html = renderToStaticMarkup(
      <AgentForm agent={agent} providers={providers} tools={tools} action={noop} onDone={() => undefined} />,
    );
    expect(html).toMatch(/<option value="provider:p1" selected="">OpenAI<\/option>/);
    expect(html).toMatch(/name="modelName"[^>]*value="gpt-4.1"/);
    expect(html).toMatch(/checked="" value="word_count"/);
    expect(html).not.toMatch(/checked="" value="pct_change"/);
    expect(html).toMatch(/checked="" value="retired_tool"/);
    expect(html).toContain("Not runnable now");
    expect(html).toContain('name="id" value="a1"');
  });
});
