import path from "node:path";
import { expect, test } from "vitest";
import { approveToolVersion, saveMcpServer } from "@/lib/db/tools";
import { runJob } from "@/lib/engine/driver";
import { agentNode, buildWorkflow, endNode, fwd, startNode } from "@/lib/engine/testing/build";
import { fakePorts, ScriptedModel } from "@/lib/engine/testing/fakes";
import { createTestUser } from "@/test/fixtures";
import { ledgerTools } from "@/lib/tools/ledger";
import { useTestDatabase } from "@/test/db";
import { registryToolsPort } from "./registry";

useTestDatabase();

test("an agent step calls an external MCP server's tool through the registry (and the ledger)", async () => {
  const owner = await createTestUser();
  const fixture = path.resolve(process.cwd(), "lib/tools/fixtures/mcp-stdio-server.mjs");
  const v = await saveMcpServer(owner.id, "calc", { transport: "stdio", command: process.execPath, args: [fixture] });
  await approveToolVersion(owner.id, v.id, v.codeHash!);
  const workflow = buildWorkflow({
    name: "MCP step",
    outputs: [{ key: "answer" }],
    agents: [{ key: "a", name: "Calculator", instructions: "Use tools.", tools: [{ name: "calc__add" }] }],
    nodes: [
      startNode(),
      agentNode("calc", ["done"], { task: "Add 2 and 40" }),
      endNode("end", { answer: "{{nodes.calc.output}}" }),
    ],
    edges: [fwd("start", "next", "calc"), fwd("calc", "done", "end")],
  });
  const model = new ScriptedModel((c) => {
    const toolResult = c.messages.find((m) => m.role === "tool");
    if (toolResult) return { content: `The sum is ${toolResult.content}` };
    expect(c.tools).toContain("calc__add");
    return { toolCalls: [{ id: "t1", name: "calc__add", args: { a: 2, b: 40 } }] };
  });
  const ports = { ...fakePorts({ model }), tools: ledgerTools(registryToolsPort(owner.id)) };
  ports.store.create("r1", workflow, {});
  const outcome = await runJob(ports, "r1", { owner: "w1" });
  expect(outcome).toMatchObject({ kind: "terminal", status: "succeeded" });
  expect(ports.store.run("r1").outputs).toEqual({ answer: "The sum is 42" });
}, 180_000);
