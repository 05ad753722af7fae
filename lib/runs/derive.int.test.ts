import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { approveToolVersion, saveMcpServer } from "@/lib/db/tools";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { createTestWorkflow } from "@/test/fixtures";
import { useWorkerRuntime } from "@/test/helpers/runtime";
import { waitTerminal } from "@/test/helpers/worker";
import { forkRun, retryRun } from "./derive";
import { startRun } from "./service";

/**
 * Retry from the failed step and fork from a step, end to end: a real worker process, PostgreSQL,
 * Redis, the scripted model server over HTTP, and a side-effecting MCP tool (a process appending to
 * a sink file) behind the real ToolEffect ledger.
 */
const rt = useWorkerRuntime({
  fixtures: [
    {
      rules: [
        ...["s1", "s2", "s4", "s6"].map((id) => ({
          id,
          match: { system: `[[${id}]]` },
          reply: { text: `${id}<{{lastUser}}>` },
        })),
        // s5 fails on its first call (a 400: not retried by the client), answers after that
        {
          id: "s5",
          match: { system: "[[s5]]" },
          fault: { kind: "http", status: 400, message: "bad request" },
          times: 1,
          reply: { text: "s5<{{lastUser}}>" },
        },
      ],
    },
  ],
});

let sinkDir = "";
let workflowId = "";
const sinkLines = () =>
  existsSync(path.join(sinkDir, "effects.log"))
    ? readFileSync(path.join(sinkDir, "effects.log"), "utf8").split("\n").filter(Boolean)
    : [];
const calls = (rule: string, since = 0) => rt.model.requests().filter((r) => r.seq > since && r.rule === rule).length;
const lastSeq = () => rt.model.requests().at(-1)?.seq ?? 0;

const agent = (id: string, task: string) => ({ id, type: "agent" as const, agent: id, task });
/** Six steps: s1, s2, s3 (a side-effecting tool), s4, s5, s6; each agent writes `<id><its task>`. */
const sixSteps: WorkflowInput = {
  name: "Six steps",
  inputs: [{ key: "topic", type: "string" }],
  outputs: [{ key: "result" }],
  agents: ["s1", "s2", "s4", "s5", "s6"].map((id) => ({
    key: id,
    name: id,
    instructions: `[[${id}]] Work.`,
    model: { model: "scripted-demo" },
  })),
  nodes: [
    { id: "start", type: "start" },
    agent("s1", "{{inputs.topic}}"),
    agent("s2", "{{nodes.s1.output}}"),
    { id: "s3", type: "tool", tool: { name: "sink__record" }, args: { key: "{{nodes.s2.output}}" }, sideEffect: true },
    agent("s4", "{{nodes.s2.output}}"),
    agent("s5", "{{nodes.s4.output}}"),
    agent("s6", "{{nodes.s5.output}}"),
    { id: "end", type: "end", outputs: { result: "{{nodes.s6.output}}" } },
  ],
  edges: [
    ["start", "next", "s1"],
    ["s1", "done", "s2"],
    ["s2", "done", "s3"],
    ["s3", "done", "s4"],
    ["s4", "done", "s5"],
    ["s5", "done", "s6"],
    ["s6", "done", "end"],
  ].map(([source, sourceHandle, target], i) => ({
    id: `e${i}`,
    source: source!,
    sourceHandle: sourceHandle!,
    target: target!,
  })),
};

beforeAll(async () => {
  sinkDir = mkdtempSync(path.join(tmpdir(), "weft-derive-"));
  const fixture = path.resolve(process.cwd(), "test/fault/fixtures/effect-sink-mcp.mjs");
  const v = await saveMcpServer(rt.workspaceId, "sink", {
    transport: "stdio",
    command: process.execPath,
    args: [fixture, path.join(sinkDir, "effects.log")],
  });
  await approveToolVersion(rt.workspaceId, v.id, v.codeHash!);
  ({ workflowId } = await createTestWorkflow(rt.workspaceId, sixSteps));
});
afterAll(() => {
  if (sinkDir) rmSync(sinkDir, { recursive: true, force: true });
});

describe("retry from the failed step", () => {
  it(
    "a 6-step run failing at step 5 is finished by its retry: no model request for steps 1–4, the side effect of step 3 made once in all",
    { timeout: 180_000 },
    async () => {
      const { run } = await startRun(rt.workspaceId, workflowId, { inputs: { topic: "owls" } });
      const failed = await waitTerminal(run.id, 90_000);
      expect(failed.run.status).toBe("failed");
      expect(failed.run.reason).toContain('Step "s5"');
      expect(sinkLines()).toEqual(["s2<s1<owls>>"]);
      const before = lastSeq();

      const retry = await retryRun(rt.workspaceId, run.id);
      expect(retry.reuse).toEqual({ reusable: 5, changedNodes: [], runsFrom: ["s5"] });
      const done = await waitTerminal(retry.run.id, 90_000);
      expect(done.run.status).toBe("succeeded");
      expect(done.run.outputs).toEqual({ result: "s6<s5<s4<s2<s1<owls>>>>>" });
      // the model server heard only from steps 5 and 6; the sink saw the effect of step 3 once
      for (const rule of ["s1", "s2", "s4"]) expect(calls(rule, before), rule).toBe(0);
      expect(calls("s5", before)).toBe(1);
      expect(calls("s6", before)).toBe(1);
      expect(sinkLines()).toEqual(["s2<s1<owls>>"]);
      // the ledger proves it: the only recorded effect is the first run's
      const effects = await db().toolEffect.findMany({ where: { runId: { in: [run.id, retry.run.id] } } });
      expect(effects.map((e) => e.runId)).toEqual([run.id]);
      // linked, and every step before the failed one was reused (no tokens spent on it)
      const row = await db().run.findUniqueOrThrow({
        where: { id: retry.run.id },
        select: { sourceRunId: true, trigger: true, triggerLabel: true },
      });
      expect(row).toEqual({ sourceRunId: run.id, trigger: "retry", triggerLabel: run.id });
      const reused = done.events
        .filter((e) => e.type === "step_started" && (e.payload as { reused?: unknown }).reused)
        .map((e) => (e.payload as { nodeId: string }).nodeId);
      expect(reused).toEqual(["start", "s1", "s2", "s3", "s4"]);
      expect(
        done.steps
          .filter((s) => reused.includes(s.nodeId))
          .every((s) => s.status === "succeeded" && s.promptTokens === 0),
      ).toBe(true);
    },
  );

  it("refuses to retry a run that succeeded (409)", async () => {
    const { run } = await startRun(rt.workspaceId, workflowId, { inputs: { topic: "larks" } });
    const ended = await waitTerminal(run.id, 90_000);
    expect(ended.run.status).toBe("succeeded");
    await expect(retryRun(rt.workspaceId, run.id)).rejects.toMatchObject({ code: "conflict" });
  }, 120_000);
});

describe("fork from a step", () => {
  it("a fork at step 2 with an edited output runs steps 3–6 with the edited value", { timeout: 180_000 }, async () => {
    const { run } = await startRun(rt.workspaceId, workflowId, { inputs: { topic: "bats" } });
    expect((await waitTerminal(run.id, 90_000)).run.status).toBe("succeeded");
    const sinkBefore = sinkLines().length;
    const before = lastSeq();

    const fork = await forkRun(rt.workspaceId, run.id, { nodeId: "s2", output: "EDITED" });
    const done = await waitTerminal(fork.run.id, 90_000);
    expect(done.run.status).toBe("succeeded");
    expect(done.run.outputs).toEqual({ result: "s6<s5<s4<EDITED>>>" });
    expect(calls("s1", before)).toBe(0);
    expect(calls("s2", before)).toBe(0);
    for (const rule of ["s4", "s5", "s6"]) expect(calls(rule, before), rule).toBe(1);
    const s4 = rt.model.requests().find((r) => r.seq > before && r.rule === "s4");
    expect(s4?.lastUser).toBe("EDITED");
    // step 3 ran with the edited value: one new effect, keyed by the fork's run
    expect(sinkLines().slice(sinkBefore)).toEqual(["EDITED"]);
    const row = await db().run.findUniqueOrThrow({
      where: { id: fork.run.id },
      select: { sourceRunId: true, sourceNodeId: true, sourceIteration: true, trigger: true },
    });
    expect(row).toEqual({ sourceRunId: run.id, sourceNodeId: "s2", sourceIteration: 1, trigger: "fork" });
  });

  it("refuses an edited output past the run value limits and a fork at a start step with inputs that do not fit, storing nothing", async () => {
    const { run } = await startRun(rt.workspaceId, workflowId, { inputs: { topic: "cats" } });
    await waitTerminal(run.id, 90_000);
    const count = () => db().run.count({ where: { sourceRunId: run.id } });
    const deep = JSON.parse(`${"[".repeat(100)}1${"]".repeat(100)}`) as unknown;
    await expect(forkRun(rt.workspaceId, run.id, { nodeId: "s2", output: deep })).rejects.toMatchObject({
      code: "bad_request",
      details: { limit: "maxDepth" },
    });
    await expect(
      forkRun(rt.workspaceId, run.id, { nodeId: "start", output: { topic: 7, extra: true } }),
    ).rejects.toMatchObject({ code: "bad_request" });
    await expect(forkRun(rt.workspaceId, run.id, { nodeId: "nope" })).rejects.toMatchObject({ code: "not_found" });
    expect(await count()).toBe(0);
  }, 120_000);
});
