import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validate } from "../validate";
import { importMetaAgentFsm } from "./metaagent-fsm";

const fixture = readFileSync(path.join(import.meta.dirname, "fixtures/article-writer.metaagent.json"), "utf8");

describe("importMetaAgentFsm: the article writer FSM", () => {
  const r = importMetaAgentFsm(fixture);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  const w = r.workflow;

  it("imports to a valid workflow", () => {
    expect(r.issues).toEqual([]);
    expect(validate(w)).toEqual([]);
  });

  it("maps states to agent nodes between start and end", () => {
    expect(w.nodes.map((n) => `${n.id}:${n.type}`)).toEqual([
      "start:start",
      "research:agent",
      "outline:agent",
      "evaluate:agent",
      "write:agent",
      "end:end",
    ]);
    expect(w.agents.map((a) => [a.key, a.tools.map((t) => t.name)])).toEqual([
      ["researcher", ["web_search"]],
      ["outliner", []],
      ["evaluator", []],
      ["writer", []],
    ]);
  });

  it("turns the backward transition into a loop edge, adds stay self loops and a finish to end", () => {
    const loops = w.edges
      .filter((e) => e.kind === "loop")
      .map(
        (e) =>
          `${e.source}.${e.sourceHandle}>${e.target} x${e.maxIterations} ${e.onExhausted}/${e.continueWith ?? "-"}`,
      );
    expect(loops).toEqual([
      "research.stay>research x3 continue/to_outline",
      "outline.stay>outline x3 continue/to_evaluate",
      "evaluate.to_outline>outline x3 continue/to_write",
      "evaluate.stay>evaluate x3 continue/to_write",
    ]);
    expect(w.edges.filter((e) => e.kind === "forward").map((e) => `${e.source}.${e.sourceHandle}>${e.target}`)).toEqual(
      [
        "start.next>research",
        "research.to_outline>outline",
        "outline.to_evaluate>evaluate",
        "evaluate.to_write>write",
        "write.finish>end",
      ],
    );
  });

  it("feeds each state's output to its listeners downstream, and feedback to re-entered states", () => {
    const task = (id: string) => {
      const n = w.nodes.find((x) => x.id === id);
      return n?.type === "agent" ? n.task : "";
    };
    expect(task("write")).toBe(
      "Write the article following the approved outline.\n\nOverall task: {{inputs.task}}\n\nOutput of research: {{nodes.research.output}}\nOutput of outline: {{nodes.outline.output}}",
    );
    expect(task("outline")).toContain("Output of research: {{nodes.research.output}}");
    expect(task("outline")).toContain("{{feedback}}");
    expect(task("evaluate")).toContain("Output of outline: {{nodes.outline.output}}");
    const end = w.nodes.find((n) => n.id === "end");
    expect(end?.type === "end" && end.outputs).toEqual({ result: "{{nodes.write.output}}" });
  });
});

describe("importMetaAgentFsm: errors", () => {
  const fsm = () =>
    JSON.parse(fixture) as { states: { states: Record<string, unknown>[]; transitions: Record<string, unknown>[] } };

  it("reports JSON and shape errors", () => {
    expect(importMetaAgentFsm("{").issues[0]?.code).toBe("json_syntax");
    expect(importMetaAgentFsm({ agents: [], states: { states: [] } }).issues).toEqual([
      { code: "invalid_fsm", severity: "error", message: "states.states: Too small: expected array to have >=1 items" },
    ]);
  });

  it("reports initial/final states, unknown agents and unknown states", () => {
    const f = fsm();
    f.states.states[0]!.is_initial = false;
    f.states.states[3]!.is_final = false;
    f.states.states[1]!.agent_id = "ghost";
    f.states.transitions.push({ from_state: "write", to_state: "publish" });
    const r = importMetaAgentFsm(f);
    expect(r.ok).toBe(false);
    expect(r.issues.map((i) => i.message)).toEqual([
      "The FSM needs exactly one initial state; it has 0.",
      "The FSM has no final state, so no run can finish.",
      'State "outline" uses unknown agent "ghost".',
      'A transition refers to unknown state "publish".',
    ]);
  });

  it("warns about listeners that never run after the state", () => {
    const f = fsm();
    f.states.states[3]!.listener = ["researcher"];
    const r = importMetaAgentFsm(f);
    expect(r.ok).toBe(true);
    expect(r.issues).toEqual([]);
    f.states.states.push({
      state_id: "publish",
      agent_id: "writer",
      instruction: "Publish.",
      is_final: true,
      listener: [],
    });
    f.states.states[3]!.listener = ["writer"];
    f.states.transitions.push({ from_state: "evaluate", to_state: "publish", condition: "Publish directly." });
    const r2 = importMetaAgentFsm(f);
    expect(r2.issues).toEqual([
      {
        code: "listener_not_upstream",
        severity: "warning",
        message:
          'State "write" lists "writer" as a listener, but state "publish" (node "publish") never runs after it.',
      },
    ]);
  });
});
