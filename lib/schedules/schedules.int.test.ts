import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import {
  closeApiRedis,
  closeRunsQueue,
  closeSchedulesQueue,
  listScheduleTimers,
  removeScheduleTimer,
  runsQueue,
  schedulesQueue,
  upsertScheduleTimer,
} from "@/lib/queue";
import { closeRunLimiter } from "@/lib/limits/run-start-limit";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { startRun } from "@/lib/runs/service";
import { fireSchedule, NO_SAVED_VERSION, reconcileSchedules } from "./fire";
import { createSchedule, deleteSchedule, pauseSchedule, schedulesOf, updateSchedule } from "./service";
import { startScheduleWorker } from "@/workers/schedule-worker";

useTestDatabase();
let alice: Awaited<ReturnType<typeof createTestUser>>;
let bob: Awaited<ReturnType<typeof createTestUser>>;

const report: WorkflowInput = {
  name: "Report",
  inputs: [{ key: "topic", type: "string" }],
  nodes: [
    { id: "start", type: "start" },
    { id: "end", type: "end" },
  ],
  edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "end" }],
};
const timerOf = async (id: string) => (await listScheduleTimers()).find((t) => t.id === id);
const runOf = (id: string) =>
  db().run.findUniqueOrThrow({ where: { id }, include: { workflowVersion: { select: { version: true } } } });

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  [alice, bob] = [await createTestUser(), await createTestUser()];
});
afterAll(async () => {
  await schedulesQueue()
    .obliterate({ force: true })
    .catch(() => undefined);
  await runsQueue()
    .obliterate({ force: true })
    .catch(() => undefined);
  await closeSchedulesQueue();
  await closeRunsQueue();
  await closeApiRedis();
  await closeRunLimiter();
});

describe("schedules", () => {
  it("saves a schedule with its timer in Redis and its next fire times", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, report);
    const { schedule, timerSet } = await createSchedule(alice.id, workflowId, {
      cron: " 0  9 * * 1-5",
      timezone: "Europe/Berlin",
      inputs: { topic: "owls" },
    });
    expect(timerSet).toBe(true);
    expect(schedule).toMatchObject({
      workflowId,
      cron: "0 9 * * 1-5",
      timezone: "Europe/Berlin",
      inputs: { topic: "owls" },
      enabled: true,
      lastRunId: null,
    });
    expect(schedule.next).toHaveLength(3);
    expect(schedule.next[0]!.getTime()).toBeGreaterThan(Date.now());
    expect(await timerOf(schedule.id)).toEqual({ id: schedule.id, cron: "0 9 * * 1-5", timezone: "Europe/Berlin" });
    expect((await schedulesOf(alice.id, workflowId)).map((s) => s.id)).toEqual([schedule.id]);
    expect(await schedulesOf(bob.id, workflowId)).toEqual([]);
  });

  it("refuses a bad pattern, zone or inputs, and another user's workflow, saving nothing", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, report);
    await expect(
      createSchedule(alice.id, workflowId, { cron: "* * * * * *", timezone: "UTC", inputs: { topic: "x" } }),
    ).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringMatching(/five cron fields/),
      details: { field: "cron" },
    });
    await expect(
      createSchedule(alice.id, workflowId, { cron: "0 9 * * *", timezone: "Nowhere/Else", inputs: { topic: "x" } }),
    ).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringMatching(/Unknown time zone/),
      details: { field: "timezone" },
    });
    await expect(
      createSchedule(alice.id, workflowId, { cron: "0 9 * * *", timezone: "UTC", inputs: {} }),
    ).rejects.toMatchObject({
      code: "bad_request",
      message: "The inputs do not match the input fields of the newest saved version (v1).",
      details: { field: "inputs" },
    });
    await expect(
      createSchedule(bob.id, workflowId, { cron: "0 9 * * *", timezone: "UTC", inputs: { topic: "x" } }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await db().schedule.count({ where: { workflowId } })).toBe(0);
  });

  it("fires a tick once: a run of the newest saved version with the schedule's inputs; the same tick again starts nothing", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, report);
    await db().workflowVersion.create({
      data: {
        workflowId,
        version: 2,
        document: (await db().workflowVersion.findFirstOrThrow({ where: { workflowId } })).document as object,
      },
    });
    const { schedule } = await createSchedule(alice.id, workflowId, {
      cron: "@hourly",
      timezone: "UTC",
      inputs: { topic: "owls" },
    });
    const tick = new Date("2026-12-02T10:00:00Z");
    const first = await fireSchedule(schedule.id, tick);
    expect(first.kind).toBe("started");
    const runId = first.kind === "started" ? first.runId : "";
    const run = await runOf(runId);
    expect(run).toMatchObject({
      workspaceId: alice.id,
      inputs: { topic: "owls" },
      workflowVersion: { version: 2 },
      trigger: "schedule",
      triggerLabel: "0 * * * * (UTC)",
    });
    expect(await fireSchedule(schedule.id, tick)).toEqual({ kind: "duplicate" });
    expect(await fireSchedule(schedule.id, new Date("2026-12-02T09:00:00Z"))).toEqual({ kind: "duplicate" });
    const later = await fireSchedule(schedule.id, new Date("2026-12-02T11:00:00Z"));
    expect(later.kind).toBe("started");
    expect(await db().run.count({ where: { workflowVersion: { workflowId } } })).toBe(2);
    const [shown] = await schedulesOf(alice.id, workflowId);
    expect(shown).toMatchObject({
      lastTickAt: new Date("2026-12-02T11:00:00Z"),
      lastRunId: later.kind === "started" ? later.runId : "",
      lastError: null,
    });
  });

  it("edits a schedule's timing and inputs (checked against the newest saved version, not the draft); its timer follows; not someone else's", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, report);
    const { schedule } = await createSchedule(alice.id, workflowId, {
      cron: "@daily",
      timezone: "UTC",
      inputs: { topic: "owls" },
    });
    // the draft gains a required field the saved version lacks: the ticks run the saved version, so its fields decide
    const draft = (await db().workflow.findUniqueOrThrow({ where: { id: workflowId } })).draft as { inputs: object[] };
    await db().workflow.update({
      where: { id: workflowId },
      data: { draft: { ...draft, inputs: [...draft.inputs, { key: "pages", type: "number", required: true }] } },
    });
    const { schedule: edited, timerSet } = await updateSchedule(alice.id, workflowId, schedule.id, {
      cron: "30 7 * * 1-5",
      timezone: "Europe/Paris",
      inputs: { topic: "elk" },
    });
    expect(timerSet).toBe(true);
    expect(edited).toMatchObject({
      id: schedule.id,
      cron: "30 7 * * 1-5",
      timezone: "Europe/Paris",
      inputs: { topic: "elk" },
    });
    expect(await timerOf(schedule.id)).toEqual({ id: schedule.id, cron: "30 7 * * 1-5", timezone: "Europe/Paris" });

    await expect(
      updateSchedule(alice.id, workflowId, schedule.id, {
        cron: "30 7 * * 1-5",
        timezone: "UTC",
        inputs: { topic: "elk", extra: 1 },
      }),
    ).rejects.toMatchObject({
      code: "bad_request",
      message: "The inputs do not match the input fields of the newest saved version (v1).",
      details: { field: "inputs" },
    });
    await expect(
      updateSchedule(bob.id, workflowId, schedule.id, { cron: "@hourly", timezone: "UTC", inputs: { topic: "x" } }),
    ).rejects.toMatchObject({ code: "not_found" });
    const other = await createTestWorkflow(alice.id, report);
    await expect(
      updateSchedule(alice.id, other.workflowId, schedule.id, {
        cron: "@hourly",
        timezone: "UTC",
        inputs: { topic: "x" },
      }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect((await schedulesOf(alice.id, workflowId))[0]).toMatchObject({
      cron: "30 7 * * 1-5",
      inputs: { topic: "elk" },
    });
  });

  it("exactly one run per tick: concurrent deliveries, and a retry after a crash between the start and the claim, start nothing twice", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, report);
    const { schedule } = await createSchedule(alice.id, workflowId, {
      cron: "@hourly",
      timezone: "UTC",
      inputs: { topic: "owls" },
    });
    const tick = new Date("2026-12-03T10:00:00Z");
    const both = await Promise.all([fireSchedule(schedule.id, tick), fireSchedule(schedule.id, tick)]);
    expect(both.map((o) => o.kind).sort()).toEqual(["duplicate", "started"]);
    expect(await db().run.count({ where: { workflowVersion: { workflowId } } })).toBe(1);

    // the first delivery of the next tick started its run and died before claiming the tick
    const next = new Date("2026-12-03T11:00:00Z");
    const { run } = await startRun(
      alice.id,
      workflowId,
      { inputs: { topic: "owls" }, version: 1 },
      { trigger: "schedule", idempotencyKey: `schedule:${schedule.id}:${next.toISOString()}` },
    );
    expect(await fireSchedule(schedule.id, next)).toEqual({ kind: "started", runId: run.id });
    expect(await db().run.count({ where: { workflowVersion: { workflowId } } })).toBe(2);
    expect((await schedulesOf(alice.id, workflowId))[0]).toMatchObject({ lastTickAt: next, lastRunId: run.id });
  });

  it("records why a tick started nothing: no saved version", async () => {
    const wf = await db().workflow.create({
      data: { workspaceId: alice.id, name: "Unsaved", draft: report as object },
    });
    const { schedule } = await createSchedule(alice.id, wf.id, {
      cron: "@daily",
      timezone: "UTC",
      inputs: { topic: "x" },
    });
    expect(await fireSchedule(schedule.id, new Date())).toEqual({ kind: "refused", error: NO_SAVED_VERSION });
    expect((await schedulesOf(alice.id, wf.id))[0]).toMatchObject({ lastError: NO_SAVED_VERSION, lastRunId: null });
  });

  it("pausing removes the timer and a leftover tick starts nothing; resuming sets it again; deleting removes both", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, report);
    const { schedule } = await createSchedule(alice.id, workflowId, {
      cron: "30 6 * * *",
      timezone: "America/New_York",
      inputs: { topic: "x" },
    });
    const paused = await pauseSchedule(alice.id, schedule.id, true);
    expect(paused.schedule).toMatchObject({ enabled: false, next: [] });
    expect(await timerOf(schedule.id)).toBeUndefined();
    expect(await fireSchedule(schedule.id, new Date())).toEqual({ kind: "paused" });
    await expect(pauseSchedule(bob.id, schedule.id, false)).rejects.toMatchObject({ code: "not_found" });
    await pauseSchedule(alice.id, schedule.id, false);
    expect(await timerOf(schedule.id)).toMatchObject({ cron: "30 6 * * *", timezone: "America/New_York" });

    await expect(deleteSchedule(bob.id, schedule.id)).rejects.toMatchObject({ code: "not_found" });
    await deleteSchedule(alice.id, schedule.id);
    expect(await timerOf(schedule.id)).toBeUndefined();
    await upsertScheduleTimer({ id: schedule.id, cron: "30 6 * * *", timezone: "UTC" });
    expect(await fireSchedule(schedule.id, new Date())).toEqual({ kind: "gone" });
    expect(await timerOf(schedule.id)).toBeUndefined();
  });

  it("a deleted workflow takes its schedules along", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, report);
    const { schedule } = await createSchedule(alice.id, workflowId, {
      cron: "@daily",
      timezone: "UTC",
      inputs: { topic: "x" },
    });
    await db().workflow.delete({ where: { id: workflowId } });
    expect(await db().schedule.findUnique({ where: { id: schedule.id } })).toBeNull();
    expect(await fireSchedule(schedule.id, new Date())).toEqual({ kind: "gone" });
  });

  it("the reconciler rebuilds Redis's timers from PostgreSQL: lost ones set, changed ones reset, orphans removed", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, report);
    const a = (
      await createSchedule(alice.id, workflowId, { cron: "0 8 * * *", timezone: "UTC", inputs: { topic: "a" } })
    ).schedule;
    const b = (
      await createSchedule(alice.id, workflowId, { cron: "0 9 * * *", timezone: "Asia/Tokyo", inputs: { topic: "b" } })
    ).schedule;
    await removeScheduleTimer(a.id); // as after a Redis loss
    await upsertScheduleTimer({ id: b.id, cron: "0 9 * * *", timezone: "UTC" }); // stale
    await upsertScheduleTimer({ id: "orphan-schedule", cron: "0 9 * * *", timezone: "UTC" });
    const result = await reconcileSchedules();
    expect(result.set).toBeGreaterThanOrEqual(2);
    expect(result.removed).toBeGreaterThanOrEqual(1);
    expect(await timerOf(a.id)).toEqual({ id: a.id, cron: "0 8 * * *", timezone: "UTC" });
    expect(await timerOf(b.id)).toEqual({ id: b.id, cron: "0 9 * * *", timezone: "Asia/Tokyo" });
    expect(await timerOf("orphan-schedule")).toBeUndefined();
    expect(await reconcileSchedules()).toEqual({ set: 0, removed: 0 });
  });

  it("the schedule worker fires real BullMQ timer ticks into runs", async () => {
    const { workflowId } = await createTestWorkflow(alice.id, report);
    const { schedule } = await createSchedule(alice.id, workflowId, {
      cron: "@yearly",
      timezone: "UTC",
      inputs: { topic: "ticks" },
    });
    const worker = startScheduleWorker({ reconcileIntervalMs: 0 });
    try {
      await worker.ready;
      // the same timer, made to tick every 400 ms instead of once a year
      await schedulesQueue().upsertJobScheduler(
        schedule.id,
        { every: 400 },
        { name: "fire", data: { scheduleId: schedule.id } },
      );
      await expect
        .poll(() => db().run.count({ where: { workflowVersion: { workflowId } } }), { timeout: 15_000, interval: 100 })
        .toBeGreaterThanOrEqual(2);
      const runs = await db().run.findMany({ where: { workflowVersion: { workflowId } } });
      expect(runs.every((r) => (r.inputs as { topic: string }).topic === "ticks")).toBe(true);
      expect((await schedulesOf(alice.id, workflowId))[0]?.lastRunId).not.toBeNull();
    } finally {
      await removeScheduleTimer(schedule.id);
      await worker.close();
    }
  });
});
