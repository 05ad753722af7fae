import "server-only";
import { db } from "@/lib/db/client";
import { appendEvents } from "@/lib/events/event-log";
import { publishRunWake } from "@/lib/events/publish";
import { createLogger } from "@/lib/logger";

const log = createLogger({ component: "run-dispatch" });

/**
 * Jobs of one run that may throw before the run's first commit before the run fails. A job throws
 * only when something below the engine fails (the store, or the engine itself before it could
 * record anything): BullMQ retries a job 3 times (lib/queue settings), and the reconciler dispatches
 * a live run whose job failed again, so without a cap such a run was re-dispatched forever.
 */
export const RUN_DISPATCH_MAX_FAILURES = 5;

/** What recordDispatchFailure did: the run failed at the cap, or the failure was counted (`failures` so far). */
export type DispatchVerdict = { failed: true; reason: string; lastSeq: number } | { failed: false; failures: number };

/**
 * A run's job threw. For a run that has committed nothing yet (queued, never started) the failure is
 * counted; the RUN_DISPATCH_MAX_FAILURES-th fails the run with the error, in one transaction with
 * its run_finished event (the version moves and the lease is cleared, so no holder commits after).
 * A run that did commit is left alone (null): its steps are re-dispatched and capped by the engine
 * (the crash-loop rule). Throws when the database is unreachable (nothing counted: most likely that
 * was why the job threw, and a transient outage must not fail runs).
 */
export async function recordDispatchFailure(runId: string, err: unknown): Promise<DispatchVerdict | null> {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
  const verdict = await db().$transaction(async (tx): Promise<DispatchVerdict | null> => {
    const counted = await tx.$queryRaw<{ failures: number }[]>`
      UPDATE "Run" SET "dispatchFailures" = "dispatchFailures" + 1
      WHERE id = ${runId} AND status = 'queued' AND "startedAt" IS NULL AND state = '{}'::jsonb
      RETURNING "dispatchFailures" AS failures`;
    const failures = counted[0]?.failures;
    if (failures === undefined) return null;
    if (failures < RUN_DISPATCH_MAX_FAILURES) return { failed: false, failures };
    const reason =
      `The run could not start: ${message} ` +
      `(its job failed ${failures} times before anything was committed; it is not dispatched again)`;
    await tx.$executeRaw`
      UPDATE "Run" SET status = 'failed', reason = ${reason}, "finishedAt" = now(), version = version + 1,
        "leaseOwner" = NULL
      WHERE id = ${runId}`;
    const stored = await appendEvents(tx, runId, [{ type: "run_finished", status: "failed", reason }]);
    return { failed: true, reason, lastSeq: stored.at(-1)?.seq ?? 0 };
  });
  if (verdict?.failed) {
    log.warn("run failed: its job kept throwing before its first commit", { runId, err });
    await publishRunWake(runId, verdict.lastSeq).catch(() => undefined);
  } else if (verdict) {
    log.warn("run job threw before the run's first commit", {
      runId,
      failures: verdict.failures,
      max: RUN_DISPATCH_MAX_FAILURES,
      err,
    });
  }
  return verdict;
}
