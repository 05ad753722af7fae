import { describe, expect, it } from "vitest";
import type { PendingTool, ToolCreation, ToolCreationPort, ToolCreationRequest } from "../ports";
import { agentNode, buildWorkflow, endNode, fwd, startNode } from "../testing/build";
import { FakeTools, fakePorts, ScriptedModel, type FakeTool } from "../testing/fakes";
import { runJob } from "./index";

const slugTool: FakeTool = {
  descriptor: {
    name: "slugify",
    description: "URL slug of a title",
    parameters: { type: "object" },
    sideEffect: false,
  },
  run: (args) => ({ slug: String(args.text).toLowerCase().replace(/\W+/g, "-") }),
};

const pending = (allowedDomains: string[] = []): PendingTool => ({
  name: "slugify",
  description: "URL slug of a title",
  toolId: "t1",
  versionId: "v1",
  version: 1,
  codeHash: "h1",
  code: "function run(i){return {slug: i.text}}",
  argsSchema: { type: "object" },
  tests: [{ input: { text: "A B" }, expected: { slug: "a-b" }, passed: true, actual: { slug: "a-b" } }],
  allowedDomains,
  nearDuplicates: [],
});

/** A creator that writes `slugify`; under `auto` a pure tool is approved (joins the tools) at once. */
class FakeCreator implements ToolCreationPort {
  readonly requests: ToolCreationRequest[] = [];
  constructor(
    private readonly tools: FakeTools,
    private readonly domains: string[] = [],
  ) {}
  async create(r: ToolCreationRequest): Promise<ToolCreation> {
    this.requests.push(r);
    const tool = pending(this.domains);
    if (r.policy === "auto" && this.domains.length === 0) {
      this.tools.add("slugify", slugTool);
      return { status: "approved", ref: { name: "slugify", version: 1 }, tool, rounds: 1 };
    }
    return { status: "pending", tool, rounds: 2 };
  }
}

const workflow = (toolCreation?: "ask" | "auto") =>
  buildWorkflow({
    nodes: [startNode(), agentNode("write"), endNode("end", { answer: "{{nodes.write.output}}" })],
    edges: [fwd("start", "next", "write"), fwd("write", "done", "end")],
    agents: [{ key: "a", name: "Writer", instructions: "You write.", createTools: toolCreation === undefined }],
    ...(toolCreation ? { toolCreation } : {}),
  });

/** The agent asks for a tool, calls it once it is offered, then answers with what the last tool said. */
function agentModel() {
  return new ScriptedModel((c) => {
    const last = c.messages.at(-1)!;
    if (last.role === "user")
      return { toolCalls: [{ id: "c1", name: "create_tool", args: { request: "slugify a title" } }] };
    if (last.role === "tool" && last.name === "create_tool" && c.tools.includes("slugify"))
      return { toolCalls: [{ id: "c2", name: "slugify", args: { text: "Hello World" } }] };
    return { content: `final: ${last.content}` };
  });
}

function setup(policy: "ask" | "auto" | undefined, domains: string[] = []) {
  const tools = new FakeTools({});
  const creator = new FakeCreator(tools, domains);
  Object.assign(tools, { creator });
  const model = agentModel();
  const ports = fakePorts({ model, tools });
  ports.store.create("r1", workflow(policy));
  return { ports, store: ports.store, tools, creator, model };
}

const answer = (choice: string, comment?: string) => ({
  choice,
  values: {},
  ...(comment ? { comment } : {}),
  answeredBy: "Ada",
  answeredAt: new Date().toISOString(),
});

describe("driver: tools created during a run", () => {
  it("ask: the step waits with the tool's code and tests; once approved it continues, replaying its first turn, and uses the tool", async () => {
    const { ports, store, tools, creator, model } = setup(undefined);
    expect(await runJob(ports, "r1", { owner: "w1" })).toEqual({ kind: "waiting", steps: 1 });
    const asked = store.run("r1").events.find((e) => e.event.type === "input_requested")!.event;
    expect(asked).toMatchObject({
      nodeId: "write",
      choices: [{ id: "approve" }, { id: "reject" }],
      tool: { name: "slugify", codeHash: "h1", versionId: "v1", rounds: 2, tests: [{ passed: true }] },
    });
    expect(model.calls).toHaveLength(1);
    // the waiting row holds the review, tool included (what the answer route checks the hash against)
    expect(store.steps("r1").find((s) => s.nodeId === "write")).toMatchObject({
      status: "waiting",
      output: { request: { tool: { name: "slugify", codeHash: "h1" } } },
    });

    tools.add("slugify", slugTool); // what approving the hash does
    expect(store.answer("r1", "write", 1, answer("approve"))).toEqual({ ok: true, woke: true });
    expect(await runJob(ports, "r1", { owner: "w2" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    // turn 1 was replayed from the memo, the tool was not created twice: two more calls, not three
    expect(model.calls).toHaveLength(3);
    expect(creator.requests).toHaveLength(1);
    expect(store.run("r1").outputs).toEqual({ answer: 'final: {"slug":"hello-world"}' });
    const step = store.steps("r1").find((s) => s.nodeId === "write")!;
    expect(step).toMatchObject({ status: "succeeded", attempt: 2, input: { approval: { choice: "approve" } } });
    expect(store.run("r1").stepCount).toBe(3); // the continuation is no new step
  });

  it("ask: a rejection is the create_tool call's answer and the agent goes on without the tool", async () => {
    const { ports, store, model } = setup("ask");
    expect(await runJob(ports, "r1", { owner: "w1" })).toEqual({ kind: "waiting", steps: 1 });
    store.answer("r1", "write", 1, answer("reject", "no regexes please"));
    expect(await runJob(ports, "r1", { owner: "w2" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(store.run("r1").outputs).toEqual({
      answer: 'final: The owner rejected tool "slugify": no regexes please. Do the task without it.',
    });
    expect(model.calls.some((c) => c.tools.includes("slugify"))).toBe(false);
  });

  it("auto: a pure tool is approved at once and used in the same step", async () => {
    const { ports, store, model } = setup("auto");
    expect(await runJob(ports, "r1", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(store.run("r1").events.some((e) => e.event.type === "input_requested")).toBe(false);
    expect(model.calls).toHaveLength(3);
    expect(store.run("r1").outputs).toEqual({ answer: 'final: {"slug":"hello-world"}' });
  });

  it("auto: a tool asking for network still waits for its owner", async () => {
    const { ports, store } = setup("auto", ["api.example.com"]);
    expect(await runJob(ports, "r1", { owner: "w1" })).toEqual({ kind: "waiting", steps: 1 });
    const asked = store.run("r1").events.find((e) => e.event.type === "input_requested")!.event;
    expect(asked).toMatchObject({ tool: { allowedDomains: ["api.example.com"] } });
    expect(JSON.stringify(asked)).toContain("network access to api.example.com");
  });

  it("an agent not allowed to create tools is not offered create_tool", async () => {
    const tools = new FakeTools({});
    const model = agentModel();
    const ports = fakePorts({ model, tools });
    ports.store.create(
      "r1",
      buildWorkflow({
        nodes: [startNode(), agentNode("write"), endNode("end")],
        edges: [fwd("start", "next", "write"), fwd("write", "done", "end")],
      }),
    );
    await runJob(ports, "r1", { owner: "w1" });
    expect(model.calls[0]!.tools).toEqual([]);
  });
});
