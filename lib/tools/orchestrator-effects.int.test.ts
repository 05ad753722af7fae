import { expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { runJob } from "@/lib/engine/driver";
import type { ToolsPort } from "@/lib/engine/ports";
import { buildWorkflow, endNode, fwd, startNode } from "@/lib/engine/testing/build";
import { fakePorts, ScriptedModel, systemOf } from "@/lib/engine/testing/fakes";
import { handoffToolName } from "@/lib/engine/executors";
import { useTestDatabase } from "@/test/db";
import { ledgerTools } from "./ledger";

useTestDatabase();

/**
 * Regression (issue: an orchestrator drops a side effect): two workers of one orchestrator step send
 * a mail each on their first turn, through the real ToolEffect ledger. Both mails are sent, each
 * recorded under its own key.
 */
test("two orchestrator workers send two distinct side effects through the ledger", async () => {
  const sent: unknown[] = [];
  const sink: ToolsPort = {
    resolve: async (ref) =>
      ref.name === "send_email"
        ? { name: "send_email", description: "Sends a mail", parameters: { type: "object" }, sideEffect: true }
        : null,
    call: async (req) => (sent.push(req.args), { ok: true, output: "sent" }),
  };
  const workflow = buildWorkflow({
    agents: [
      { key: "lead", name: "Lead", instructions: "Coordinate." },
      { key: "sales", name: "Sales", instructions: "Sales team.", tools: [{ name: "send_email" }] },
      { key: "support", name: "Support", instructions: "Support team.", tools: [{ name: "send_email" }] },
    ],
    nodes: [
      startNode(),
      { id: "boss", type: "orchestrator", agent: "lead", task: "Mail both teams", workers: ["sales", "support"] },
      endNode(),
    ],
    edges: [fwd("start", "next", "boss"), fwd("boss", "done", "end")],
  });
  const model = new ScriptedModel((c) => {
    const sys = systemOf(c.messages);
    const done = c.messages.some((m) => m.role === "tool");
    if (sys.startsWith("Sales") || sys.startsWith("Support")) {
      return done
        ? { content: "mailed" }
        : {
            toolCalls: [
              {
                id: "m",
                name: "send_email",
                args: { to: sys.startsWith("Sales") ? "sales@x.test" : "support@x.test" },
              },
            ],
          };
    }
    if (done) return { content: "Both mailed" };
    return {
      toolCalls: [
        { id: "a", name: handoffToolName("sales"), args: { task: "mail" } },
        { id: "b", name: handoffToolName("support"), args: { task: "mail" } },
      ],
    };
  });
  const ports = { ...fakePorts({ model }), tools: ledgerTools(sink) };
  ports.store.create("orch-run", workflow, {});
  expect(await runJob(ports, "orch-run", { owner: "w1" })).toMatchObject({ kind: "terminal", status: "succeeded" });
  expect(sent).toEqual([{ to: "sales@x.test" }, { to: "support@x.test" }]);
  const keys = (await db().toolEffect.findMany({ where: { runId: "orch-run" }, orderBy: { key: "asc" } })).map(
    (e) => e.key,
  );
  expect(keys).toEqual(["orch-run:boss:1:h1.sales:1.1", "orch-run:boss:1:h2.support:1.1"]);
});
