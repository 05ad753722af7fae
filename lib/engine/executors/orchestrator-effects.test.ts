import { describe, expect, it } from "vitest";
import { runJob } from "../driver";
import { buildWorkflow, endNode, fwd, startNode } from "../testing/build";
import { fakePorts, FakeTools, ScriptedModel, systemOf, type RecordedCall } from "../testing/fakes";
import { stepContext } from "../testing/step-context";
import type { ModelToolCall } from "../ports";
import { handoffToolName, orchestratorExecutor } from "./orchestrator";

/**
 * Bug: an orchestrator's workers each count their turns from 1, so their side-effecting calls on the
 * same turn shared the idempotency key `run:node:iteration:turn.index`, and the second effect was
 * answered from the ledger instead of being made. The keys are now scoped by handoff and worker.
 */

const workflow = () =>
  buildWorkflow({
    name: "Mailer",
    agents: [
      { key: "lead", name: "Lead", instructions: "Coordinate." },
      { key: "sales", name: "Sales", instructions: "Sales: send the mail.", tools: [{ name: "send_email" }] },
      { key: "support", name: "Support", instructions: "Support: send the mail.", tools: [{ name: "send_email" }] },
    ],
    nodes: [
      startNode(),
      { id: "boss", type: "orchestrator", agent: "lead", task: "Mail both teams", workers: ["sales", "support"] },
      endNode(),
    ],
    edges: [fwd("start", "next", "boss"), fwd("boss", "done", "end")],
  });

/** The side-effecting tool: every execution is one sent mail (the ledger contract is FakeTools'). */
function mailTools() {
  const sent: unknown[] = [];
  const tools = new FakeTools({
    send_email: {
      descriptor: { name: "send_email", description: "Sends a mail", parameters: { type: "object" }, sideEffect: true },
      run: (args) => (sent.push(args), `sent to ${String(args.to)}`),
    },
  });
  return { tools, sent };
}

/** The lead hands off `handoffs` (in one turn), each worker mails its own address on its first turn. */
const script = (handoffs: [string, string][]) => (c: RecordedCall) => {
  const sys = systemOf(c.messages);
  for (const worker of ["Sales", "Support"]) {
    if (!sys.startsWith(worker)) continue;
    if (c.messages.some((m) => m.role === "tool")) return { content: `${worker} done` };
    const task = c.messages.find((m) => m.role === "user")?.content ?? "";
    const call: ModelToolCall = { id: "m1", name: "send_email", args: { to: `${task}@example.com` } };
    return { toolCalls: [call] };
  }
  if (c.messages.some((m) => m.role === "tool")) return { content: "All mailed" };
  return {
    toolCalls: handoffs.map(([worker, task], i) => ({ id: `h${i}`, name: handoffToolName(worker), args: { task } })),
  };
};

describe("side effects of an orchestrator's workers", () => {
  it("two workers calling the same side-effecting tool on the same turn send two distinct effects", async () => {
    const { tools, sent } = mailTools();
    const ports = fakePorts({
      model: new ScriptedModel(
        script([
          ["sales", "alice"],
          ["support", "bob"],
        ]),
      ),
      tools,
    });
    ports.store.create("r1", workflow(), {});
    expect(await runJob(ports, "r1", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
    expect(sent).toEqual([{ to: "alice@example.com" }, { to: "bob@example.com" }]);
    expect([...tools.effects.keys()]).toEqual(["r1:boss:1:h1.sales:1.1", "r1:boss:1:h2.support:1.1"]);
  });

  it("the same worker handed work twice sends both effects", async () => {
    const { tools, sent } = mailTools();
    const ports = fakePorts({
      model: new ScriptedModel(
        script([
          ["sales", "alice"],
          ["sales", "carol"],
        ]),
      ),
      tools,
    });
    ports.store.create("r2", workflow(), {});
    await runJob(ports, "r2", { owner: "w1" });
    expect(sent).toEqual([{ to: "alice@example.com" }, { to: "carol@example.com" }]);
  });

  it("a re-dispatched step (same try) finds its effects in the ledger: nothing is sent twice", async () => {
    const { tools, sent } = mailTools();
    const model = new ScriptedModel(
      script([
        ["sales", "alice"],
        ["support", "bob"],
      ]),
    );
    const first = stepContext<"orchestrator">(workflow(), "boss", { model, tools, input: { via: [], effectKeys: 2 } });
    await orchestratorExecutor(first.ctx);
    const again = stepContext<"orchestrator">(workflow(), "boss", { model, tools, input: { via: [], effectKeys: 2 } });
    expect(await orchestratorExecutor(again.ctx)).toMatchObject({ status: "succeeded" });
    expect(sent).toHaveLength(2);
  });

  it("an error-policy retry is a new try: its effects get keys of their own", async () => {
    const { tools } = mailTools();
    const model = new ScriptedModel(script([["sales", "alice"]]));
    const retried = stepContext<"orchestrator">(workflow(), "boss", {
      model,
      tools,
      retry: 2,
      input: { via: [], effectKeys: 2 },
    });
    await orchestratorExecutor(retried.ctx);
    expect([...tools.effects.keys()]).toEqual(["run-1:boss:1:r2:h1.sales:1.1"]);
  });

  it("a step started before scoped keys (no effectKeys in its input) keeps the keys it recorded effects under", async () => {
    const { tools } = mailTools();
    const model = new ScriptedModel(script([["sales", "alice"]]));
    const legacy = stepContext<"orchestrator">(workflow(), "boss", { model, tools });
    await orchestratorExecutor(legacy.ctx);
    expect([...tools.effects.keys()]).toEqual(["run-1:boss:1:1.1"]);
  });
});
