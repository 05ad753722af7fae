import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validate } from "../validate";
import { importAutoAgentXml, normalizeAction } from "./autoagent-xml";

const fixture = readFileSync(path.join(import.meta.dirname, "fixtures/article-writer.autoagent.xml"), "utf8");

const imported = (xml: string) => {
  const r = importAutoAgentXml(xml);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.workflow;
};

describe("importAutoAgentXml: the article writer form", () => {
  const w = imported(fixture);

  it("imports to a valid workflow", () => {
    expect(validate(w)).toEqual([]);
    expect(w.name).toBe("wiki_article_workflow");
    expect(w.inputs.map((i) => i.key)).toEqual(["user_topic"]);
    expect(w.outputs.map((o) => o.key)).toEqual(["article"]);
  });

  it("maps events to start, agents and one end", () => {
    expect(w.nodes.map((n) => `${n.id}:${n.type}`)).toEqual([
      "start:start",
      "on_search:agent",
      "on_outline:agent",
      "on_evaluate:agent",
      "on_write:agent",
      "end:end",
    ]);
    expect(w.agents.map((a) => a.key)).toEqual([
      "web_surfer_agent",
      "outline_agent",
      "evaluator_agent",
      "article_writer_agent",
    ]);
    expect(w.agents[0]?.model).toEqual({ model: "gpt-4o-mini" });
    const end = w.nodes.find((n) => n.id === "end");
    expect(end?.type === "end" && end.outputs).toEqual({ article: "{{nodes.on_write.output}}" });
  });

  it("turns the evaluator's GOTO into a loop edge capped by max_iterations", () => {
    const loops = w.edges.filter((e) => e.kind === "loop");
    expect(loops).toEqual([
      {
        id: "on_evaluate-revision_notes-on_outline",
        source: "on_evaluate",
        sourceHandle: "revision_notes",
        target: "on_outline",
        kind: "loop",
        maxIterations: 3,
        onExhausted: "continue",
      },
    ]);
    expect(w.edges.filter((e) => e.kind === "forward").map((e) => `${e.source}.${e.sourceHandle}>${e.target}`)).toEqual(
      [
        "start.next>on_search",
        "on_search.search_result>on_outline",
        "on_outline.outline>on_evaluate",
        "on_evaluate.approved_outline>on_write",
        "on_write.article>end",
      ],
    );
  });

  it("wires inputs into tasks from the events listened to, and feedback into the re-entered event", () => {
    const task = (id: string) => {
      const n = w.nodes.find((x) => x.id === id);
      return n?.type === "agent" ? n.task : "";
    };
    expect(task("on_search")).toBe(
      "Search the information about the topic and return the result.\n\nuser_topic: {{inputs.user_topic}}",
    );
    expect(task("on_outline")).toContain("search_result: {{nodes.on_search.output}}");
    expect(task("on_outline")).toContain("{{feedback}}");
    expect(task("on_write")).toContain("approved_outline: {{nodes.on_evaluate.output}}");
    const evaluate = w.nodes.find((n) => n.id === "on_evaluate");
    expect(evaluate?.type === "agent" && evaluate.branches.map((b) => [b.id, b.condition])).toEqual([
      ["approved_outline", "If the outline scores >= 7 out of 10"],
      ["revision_notes", "If the outline scores < 7 out of 10"],
    ]);
  });

  it("lays the nodes out left to right", () => {
    const x = (id: string) => w.nodes.find((n) => n.id === id)?.position?.x ?? -1;
    expect(x("start")).toBeLessThan(x("on_search"));
    expect(x("on_evaluate")).toBeLessThan(x("on_write"));
  });
});

describe("importAutoAgentXml: defects of the reference implementation are not reproduced", () => {
  it("accepts both spellings of GOTO and still loops back", () => {
    expect(normalizeAction("GO_TO")).toBe("GOTO");
    expect(normalizeAction("goto")).toBe("GOTO");
    expect(normalizeAction("Result")).toBe("RESULT");
    expect(normalizeAction("JUMP")).toBeUndefined();
    const w = imported(fixture.replace("<type>GOTO</type>", "<type>GO_TO</type>"));
    expect(w.edges.filter((e) => e.kind === "loop").map((e) => e.target)).toEqual(["on_outline"]);
  });

  it("reports input keys that no listened event produces", () => {
    const broken = fixture.replace("<input><key>approved_outline</key>", "<input><key>outline</key>");
    const r = importAutoAgentXml(broken);
    expect(r.ok).toBe(false);
    expect(r.issues).toEqual([
      {
        code: "input_not_produced",
        severity: "error",
        line: expect.any(Number),
        message: 'Event "on_write" expects input "outline", which no event it listens to (on_evaluate) produces.',
      },
    ]);
  });

  it("uses the default cap without max_iterations", () => {
    const w = imported(fixture.replace(/<global_variables>[\s\S]*<\/global_variables>/, ""));
    expect(w.edges.find((e) => e.kind === "loop")?.maxIterations).toBe(3);
    const five = imported(fixture.replace("<value>3</value>", "<value>5</value>"));
    expect(five.edges.find((e) => e.kind === "loop")?.maxIterations).toBe(5);
  });
});

describe("importAutoAgentXml: routing, abort and errors", () => {
  const form = (outputs: string, extra = "") => `<workflow><name>w</name>
  <system_input><key>q</key><description>question</description></system_input>
  <system_output><key>answer</key><description>answer</description></system_output>
  <agents><agent category="new"><name>A</name><description>d</description>
    <tools category="new"><tool><name>calc</name><description>adds numbers</description></tool></tools></agent></agents>
  <events>
    <event><name>on_start</name><inputs><input><key>q</key><description/></input></inputs>
      <outputs><output><key>q</key><description/><action><type>RESULT</type></action></output></outputs></event>
    <event><name>route</name><inputs><input><key>q</key><description/></input></inputs><task>Route</task>
      <outputs>${outputs}</outputs><listen><event>on_start</event></listen><agent><name>A</name><model>m</model></agent></event>
    <event><name>math</name><inputs><input><key>is_math</key><description/></input></inputs><task>Math</task>
      <outputs><output><key>answer</key><description/><action><type>RESULT</type></action></output></outputs>
      <agent><name>A</name><model>m</model></agent></event>${extra}
  </events></workflow>`;

  it("maps a GOTO to a non-upstream event to a branch edge, and ABORT to an abort node", () => {
    const r = importAutoAgentXml(
      form(`
      <output><key>is_math</key><description/><condition>math question</condition><action><type>GOTO</type><value>math</value></action></output>
      <output><key>other</key><description>Not supported</description><condition>anything else</condition><action><type>ABORT</type></action></output>`),
    );
    expect(r.issues).toEqual([]);
    if (!r.ok) return;
    expect(r.workflow.edges.map((e) => `${e.source}.${e.sourceHandle}>${e.target}:${e.kind}`)).toEqual([
      "start.next>route:forward",
      "math.answer>end:forward",
      "route.is_math>math:forward",
      "route.other>abort_route_other:forward",
    ]);
    expect(r.workflow.nodes.find((n) => n.type === "abort")).toMatchObject({ reason: "Not supported" });
    expect(r.workflow.nodes.find((n) => n.id === "math")).toMatchObject({
      task: "Math\n\nis_math: {{nodes.route.output}}",
    });
    expect(r.workflow.agents[0]?.tools).toEqual([{ name: "calc", placeholder: true, description: "adds numbers" }]);
    expect(validate(r.workflow).map((i) => i.code)).toEqual(["tool_placeholder"]);
  });

  it("reports XML syntax errors with their line", () => {
    expect(importAutoAgentXml("<workflow>\n<name>x</nam>\n</workflow>")).toEqual({
      ok: false,
      issues: [
        {
          code: "xml_syntax",
          severity: "error",
          line: 2,
          message: "Closing tag </nam> does not match <name> opened on line 2 (line 2, column 8)",
        },
      ],
    });
    expect(importAutoAgentXml("<agent/>").issues[0]?.code).toBe("not_a_workflow");
  });

  it("reports unknown actions, GOTO targets, listens and a missing on_start", () => {
    const r = importAutoAgentXml(
      form(
        `<output><key>x</key><action><type>JUMP</type></action></output>
      <output><key>y</key><action><type>GOTO</type><value>nowhere</value></action></output>`,
        `<event><name>late</name><listen><event>ghost</event></listen><agent><name>A</name></agent></event>`,
      ),
    );
    expect(r.issues.map((i) => i.code).sort()).toEqual([
      "input_not_produced",
      "unknown_action",
      "unknown_goto_target",
      "unknown_listen",
    ]);
    const noStart = importAutoAgentXml(form("").replace("<name>on_start</name>", "<name>begin</name>"));
    expect(noStart.issues.map((i) => i.code)).toContain("missing_on_start");
  });
});

describe("importAutoAgentXml: listen order", () => {
  const events = (...defs: Array<[name: string, listen: string[]]>) => `<workflow><name>w</name>
  <system_input><key>q</key><description>question</description></system_input>
  <system_output><key>answer</key><description>answer</description></system_output>
  <agents><agent><name>A</name><description>d</description></agent></agents>
  <events>
    <event><name>on_start</name><inputs><input><key>q</key><description/></input></inputs>
      <outputs><output><key>q</key><description/><action><type>RESULT</type></action></output></outputs></event>
    ${defs
      .map(
        ([name, listen]) => `<event><name>${name}</name><task>${name}</task>
      <outputs><output><key>${name}_out</key><description/><action><type>RESULT</type></action></output></outputs>
      <listen>${listen.map((l) => `<event>${l}</event>`).join("")}</listen><agent><name>A</name><model>m</model></agent></event>`,
      )
      .join("\n")}
  </events></workflow>`;

  it("finding 12: an event that listens to an event declared after it is refused, and every such event is reported", () => {
    expect(importAutoAgentXml(events(["draft", ["on_start"]], ["review", ["draft"]])).issues).toEqual([]);
    const one = importAutoAgentXml(events(["review", ["draft"]], ["draft", ["on_start"]]));
    expect(one.ok).toBe(false);
    expect(one.issues).toEqual([
      {
        code: "listens_to_later_event",
        severity: "error",
        line: expect.any(Number),
        message:
          'Event "review" listens to "draft", which is declared after it; an event may only listen to events declared before it.',
      },
    ]);
    const two = importAutoAgentXml(events(["a", ["b"]], ["b", ["c"]], ["c", ["on_start", "c"]]));
    expect(two.issues.filter((i) => i.code === "listens_to_later_event").map((i) => i.message)).toEqual([
      'Event "a" listens to "b", which is declared after it; an event may only listen to events declared before it.',
      'Event "b" listens to "c", which is declared after it; an event may only listen to events declared before it.',
      'Event "c" listens to itself; an event may only listen to events declared before it.',
    ]);
  });
});
