import "server-only";
import { db } from "@/lib/db/client";
import { personStepSql } from "@/lib/db/runs";
import type { RunStatus, RunTrigger } from "@/lib/generated/prisma/client";

/**
 * The notification outbox: one NotificationDelivery row per (notifier, run, key), created once (the
 * unique key makes every creation idempotent), then delivered at least once by the worker. The key
 * is "finished" for a run's end (run.finished) and "waiting:<waitingSince>" for each time it parked
 * waiting for a human review (run.waiting).
 */

/** A waiting run's delivery key: one per time it parked (its waitingSince, to the millisecond). */
const WAITING_KEY = `'waiting:' || to_char(r."waitingSince", 'YYYY-MM-DD"T"HH24:MI:SS.MS')`;

const TERMINAL = "('succeeded', 'failed', 'aborted', 'budget_exhausted', 'cancelled')";

/**
 * The deliveries a run's end calls for: one per enabled notifier of its workflow that was listening
 * (created or resumed) when it ended and hears of this ending (`failures`: anything but succeeded). Answers the ids it created
 * (none when they exist already, the run has not ended or nobody listens).
 */
export async function createRunDeliveries(runId: string): Promise<string[]> {
  const rows = await db().$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO "NotificationDelivery" (id, "notifierId", "runId")
     SELECT gen_random_uuid()::text, n.id, r.id
     FROM "Run" r
     JOIN "WorkflowVersion" v ON v.id = r."workflowVersionId"
     JOIN "RunNotifier" n ON n."workflowId" = v."workflowId" AND n."workspaceId" = r."workspaceId"
     WHERE r.id = $1 AND r.status IN ${TERMINAL} AND n.enabled AND n."enabledAt" <= COALESCE(r."finishedAt", now())
       AND (n.on = 'all' OR r.status <> 'succeeded')
     ON CONFLICT ("notifierId", "runId", "key") DO NOTHING
     RETURNING id`,
    runId,
  );
  return rows.map((r) => r.id);
}

/**
 * The sweep behind createRunDeliveries (a worker that died between a run's end and its outbox
 * insert): the same rows for every run that ended in the last `windowMinutes`. Answers the ids created.
 */
export async function createMissedDeliveries(windowMinutes = 15): Promise<string[]> {
  const rows = await db().$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO "NotificationDelivery" (id, "notifierId", "runId")
     SELECT gen_random_uuid()::text, n.id, r.id
     FROM "RunNotifier" n
     JOIN "WorkflowVersion" v ON v."workflowId" = n."workflowId"
     JOIN "Run" r ON r."workflowVersionId" = v.id AND r."workspaceId" = n."workspaceId"
     WHERE n.enabled AND r.status IN ${TERMINAL} AND r."finishedAt" > now() - make_interval(mins => $1::int)
       AND r."finishedAt" >= n."enabledAt" AND (n.on = 'all' OR r.status <> 'succeeded')
     ON CONFLICT ("notifierId", "runId", "key") DO NOTHING
     RETURNING id`,
    windowMinutes,
  );
  return rows.map((r) => r.id);
}

/**
 * The deliveries a run's wait for a human review calls for: one per enabled notifier of its workflow
 * listening since before it parked (whatever `on` says: a review waits for someone either way).
 * Answers the ids it created (none when they exist, or the run is not waiting).
 */
export async function createWaitingDeliveries(runId: string): Promise<string[]> {
  return insertWaiting(`r.id = $1`, runId);
}

/** The sweep behind createWaitingDeliveries: runs that started waiting in the last `windowMinutes`. */
export async function createMissedWaitingDeliveries(windowMinutes = 15): Promise<string[]> {
  return insertWaiting(`r."waitingSince" > (now() AT TIME ZONE 'UTC') - make_interval(mins => $1::int)`, windowMinutes);
}

async function insertWaiting(which: string, value: string | number): Promise<string[]> {
  const rows = await db().$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO "NotificationDelivery" (id, "notifierId", "runId", event, key)
     SELECT gen_random_uuid()::text, n.id, r.id, 'run.waiting', ${WAITING_KEY}
     FROM "Run" r
     JOIN "WorkflowVersion" v ON v.id = r."workflowVersionId"
     JOIN "RunNotifier" n ON n."workflowId" = v."workflowId" AND n."workspaceId" = r."workspaceId"
     WHERE ${which} AND r.status = 'waiting' AND r."waitingSince" IS NOT NULL AND n.enabled AND n."enabledAt" <= r."waitingSince"
       AND ${personStepSql(`r.id`)}
     ON CONFLICT ("notifierId", "runId", "key") DO NOTHING
     RETURNING id`,
    value,
  );
  return rows.map((r) => r.id);
}

/**
 * Claims deliveries pending and untouched (no try, no reset) for `idleMs`, created in the last day:
 * their job is lost (Redis lost its keys, or a redelivery was not enqueued), to be enqueued again.
 * The claim touches them in the same statement, so two sweeps at once (the worker's timer and a
 * manual one) never both take a row: each lost delivery gets one new job per full wait.
 */
export async function claimStalePendingDeliveries(idleMs: number, limit = 500): Promise<string[]> {
  const idleBefore = new Date(Date.now() - idleMs);
  const createdAfter = new Date(Date.now() - 86_400_000);
  const rows = await db().$queryRaw<{ id: string }[]>`
    UPDATE "NotificationDelivery" SET "updatedAt" = now()
    WHERE id IN (
      SELECT id FROM "NotificationDelivery"
      WHERE status = 'pending' AND "updatedAt" < ${idleBefore} AND "createdAt" > ${createdAfter}
      ORDER BY "createdAt" ASC LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ) AND status = 'pending' AND "updatedAt" < ${idleBefore}
    RETURNING id`;
  return rows.map((r) => r.id);
}

/** A human review waiting for an answer, as a run.waiting notification lists it. */
export interface WaitingReview {
  nodeId: string;
  iteration: number;
  request: unknown;
}

/** What one delivery sends: the run's end (or its wait) as its owner sees it, and where to. */
export interface DeliveryToSend {
  id: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  notifierId: string;
  event: string;
  /** run.waiting: the reviews still waiting when it is sent. */
  reviews: WaitingReview[];
  run: {
    id: string;
    status: RunStatus;
    reason: string | null;
    outputs: unknown;
    trigger: RunTrigger;
    createdAt: Date;
    startedAt: Date | null;
    finishedAt: Date | null;
    workflowId: string;
    workflowName: string;
    version: number;
  } | null;
}

export async function deliveryToSend(id: string): Promise<DeliveryToSend | null> {
  const d = await db().notificationDelivery.findUnique({
    where: { id },
    select: { id: true, status: true, attempts: true, notifierId: true, runId: true, event: true },
  });
  if (!d) return null;
  const r = await db().run.findUnique({
    where: { id: d.runId },
    select: {
      id: true,
      status: true,
      reason: true,
      outputs: true,
      trigger: true,
      createdAt: true,
      startedAt: true,
      finishedAt: true,
      workflowVersion: { select: { version: true, workflow: { select: { id: true, name: true } } } },
    },
  });
  const run = r
    ? {
        id: r.id,
        status: r.status,
        reason: r.reason,
        outputs: r.outputs,
        trigger: r.trigger,
        createdAt: r.createdAt,
        startedAt: r.startedAt,
        finishedAt: r.finishedAt,
        workflowId: r.workflowVersion.workflow.id,
        workflowName: r.workflowVersion.workflow.name,
        version: r.workflowVersion.version,
      }
    : null;
  const reviews =
    d.event === "run.waiting"
      ? (
          await db().step.findMany({
            where: { runId: d.runId, status: "waiting" },
            orderBy: { startedAt: "asc" },
            select: { nodeId: true, iteration: true, output: true },
          })
        )
          .map((s) => ({
            nodeId: s.nodeId,
            iteration: s.iteration,
            request: (s.output as { request?: unknown } | null)?.request ?? null,
          }))
          .filter((s) => (s.request as { kind?: string } | null)?.kind !== "subflow")
      : [];
  return { id: d.id, status: d.status, attempts: d.attempts, notifierId: d.notifierId, event: d.event, reviews, run };
}

/** Records one try of a delivery: still pending (to be tried again), delivered, or failed for good. */
export async function recordDeliveryAttempt(
  id: string,
  outcome: { status: "pending" | "delivered" | "failed"; responseStatus?: number | null; error?: string | null },
): Promise<void> {
  await db().notificationDelivery.update({
    where: { id },
    data: {
      status: outcome.status,
      attempts: { increment: 1 },
      responseStatus: outcome.responseStatus ?? null,
      error: outcome.error ? outcome.error.slice(0, 500) : null,
      ...(outcome.status === "delivered" ? { deliveredAt: new Date() } : {}),
    },
  });
}

/**
 * Sends one of the owner's deliveries again (a receiver that was down for longer than the tries
 * lasted, or a payload to look at again): pending once more, its error cleared. Null when not theirs.
 */
export async function resetDeliveryForOwner(workspaceId: string, id: string): Promise<{ id: string } | null> {
  const { count } = await db().notificationDelivery.updateMany({
    where: { id, notifier: { workspaceId } },
    data: { status: "pending", error: null, responseStatus: null, deliveredAt: null },
  });
  return count ? { id } : null;
}

/** The notifications of one of the owner's runs, oldest first: where each went and how it went. */
export async function deliveriesOfRun(
  workspaceId: string,
  runId: string,
): Promise<
  {
    id: string;
    url: string;
    event: string;
    status: "pending" | "delivered" | "failed";
    attempts: number;
    responseStatus: number | null;
    error: string | null;
    createdAt: Date;
    runId: string;
  }[]
> {
  const rows = await db().notificationDelivery.findMany({
    where: { runId, notifier: { workspaceId } },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      runId: true,
      event: true,
      status: true,
      attempts: true,
      responseStatus: true,
      error: true,
      createdAt: true,
      notifier: { select: { url: true } },
    },
  });
  return rows.map(({ notifier, ...d }) => ({ ...d, url: notifier.url }));
}
