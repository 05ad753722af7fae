import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelPort, ToolsPort } from "@/lib/engine/ports";
import { createLogger } from "@/lib/logger";
import { closeApiRedis, EXPERIMENT_RUN_PRIORITY, runDedupId, runsQueue } from "@/lib/queue";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { enginePorts } from "./engine-ports";
import { createTestRun, createTestUser } from "@/test/fixtures";

useTestDatabase();
let alice = "";
let bob = "";

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  alice = (await createTestUser()).id;
  bob = (await createTestUser()).id;
});
afterAll(async () => {
  await closeApiRedis();
});

/** Overrides that record which owner each owner-scoped port was built for. */
function recording() {
  const built: { model: string[]; tools: string[] } = { model: [], tools: [] };
  const model = (workspaceId: string): ModelPort => {
    built.model.push(workspaceId);
    return {
      chat: async () => ({
        content: workspaceId,
        toolCalls: [],
        usage: { promptTokens: 0, completionTokens: 0 },
        latencyMs: 0,
        finishReason: "stop",
        model: "m",
      }),
      structured: async () => ({
        ok: false,
        error: "none",
        raw: "",
        usage: { promptTokens: 0, completionTokens: 0 },
        latencyMs: 0,
        model: "m",
      }),
    };
  };
  const tools = (workspaceId: string): ToolsPort => {
    built.tools.push(workspaceId);
    return { resolve: async () => null, call: async () => ({ ok: true, output: workspaceId }) };
  };
  return { built, overrides: { model, tools } };
}

const chat = (ports: ReturnType<typeof enginePorts>) =>
  ports.model.chat({ model: null, messages: [{ role: "user", content: "hi" }], signal: new AbortController().signal });

describe("enginePorts", () => {
  it("with no owner given, binds the model and tools to the owner the claim read from the Run row", async () => {
    const runId = await createTestRun(bob, "queued");
    const { built, overrides } = recording();
    const ports = enginePorts(null, createLogger({ component: "test" }), overrides);
    await expect(chat(ports)).rejects.toThrow(/before the run was claimed/);
    expect(built.model).toEqual([]);

    const claim = await ports.store.claimRun(runId, "worker-x");
    expect(claim.ok).toBe(true);
    expect((await chat(ports)).content).toBe(bob);
    await chat(ports);
    expect(
      await ports.tools.call({
        ref: { name: "t" },
        args: {},
        runId,
        nodeId: "n",
        signal: new AbortController().signal,
      }),
    ).toMatchObject({ ok: true, output: bob });
    // each port built once, for the run's owner
    expect(built).toEqual({ model: [bob], tools: [bob] });
  });

  it("a claim that fails binds no owner; an owner given up front is used as is", async () => {
    const { built, overrides } = recording();
    const ports = enginePorts(null, createLogger({ component: "test" }), overrides);
    expect(await ports.store.claimRun("no-such-run", "worker-x")).toEqual({ ok: false, reason: "not_found" });
    await expect(chat(ports)).rejects.toThrow(/before the run was claimed/);

    const given = recording();
    const fixed = enginePorts(alice, createLogger({ component: "test" }), given.overrides);
    expect((await chat(fixed)).content).toBe(alice);
    expect(given.built.model).toEqual([alice]);
    expect(built.model).toEqual([]);
  });

  it("re-enqueues a run (resume now or later) at the priority of the job that runs it", async () => {
    const queue = runsQueue();
    const jobOf = async (runId: string) => queue.getJob((await queue.getDeduplicationJobId(runDedupId(runId)))!);
    const low = enginePorts(alice, createLogger({ component: "test" }), {}, { priority: EXPERIMENT_RUN_PRIORITY });
    const later = await createTestRun(alice, "running");
    await low.queue!.enqueueRunLater!(later, "resume", 60_000);
    expect((await jobOf(later))?.opts.priority).toBe(EXPERIMENT_RUN_PRIORITY);
    const now = await createTestRun(alice, "running");
    await low.queue!.enqueueRun(now, "resume");
    expect((await jobOf(now))?.opts.priority).toBe(EXPERIMENT_RUN_PRIORITY);
    const plain = await createTestRun(alice, "running");
    await enginePorts(alice, createLogger({ component: "test" })).queue!.enqueueRun(plain, "resume");
    expect((await jobOf(plain))?.opts.priority ?? 0).toBe(0);
  });
});
