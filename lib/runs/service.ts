import "server-only";
import * as z from "zod";
import { db } from "@/lib/db/client";
import { getRunForOwner, listRunsForOwner, type RunDetail, type RunListFilter, type RunSummary } from "@/lib/db/runs";
import { saveWorkflowVersion } from "@/lib/db/workflows";
import { isTerminalRunStatus } from "@/lib/engine/events";
import { AppError, notFound } from "@/lib/errors";
import { appendEvents } from "@/lib/events/event-log";
import { publishRunWake } from "@/lib/events/publish";
import { createLogger } from "@/lib/logger";
import { notifyRunEnded } from "@/lib/notifications/outbox";
import { metrics } from "@/lib/metrics";
import { enqueueRun, runPriority, wakeRunJob } from "@/lib/queue";
import { runLimitCeilings } from "@/lib/env";
import { checkDocument, checkVersion, type CheckedDocument } from "@/lib/workflow/checked-versions";
import { checkLimitCeilings } from "@/lib/workflow/limits";
import { deepEqual } from "@/lib/workflow/equal";
import { workflowSchema, type Workflow } from "@/lib/workflow/schema";
import { hasErrors } from "@/lib/workflow/validate";
import { wakeWaitingRun } from "./answers";
import { inputsSchema } from "@/lib/workflow/inputs";
import { settleParent } from "./subflow-answers";
import type { RunOrigin } from "@/lib/workflow/runs";
import { startSpan } from "@/lib/telemetry/tracing";
import { forgetTarget, knownTarget, rememberTarget, type RunTarget } from "./known-targets";
import {
  insertQueuedRun,
  isIdempotencyConflict,
  newRunKey,
  readRunTarget,
  runIdByIdempotencyKey,
  TRIGGER_LABEL_MAX,
  type ExpectedTarget,
} from "@/lib/run-store/run-insert";
import { postgresStore } from "@/lib/run-store/postgres-store";
import { enforceRunStartLimit } from "@/lib/limits/run-start-limit";
import { checkRunValue } from "./input-limits";

const log = createLogger({ component: "run-service" });

/** Body of "start a run" (parsed at the edge: routes and actions): inputs keyed by the workflow's input fields, and optionally a saved version number. */
export const startRunSchema = z.object({
  inputs: z.record(z.string(), z.unknown()).default({}),
  version: z.number().int().positive().optional(),
});
/** What startRun is given: inputs its callers parsed as an object (checked here against the workflow's input fields), and optionally a version. */
export type StartRunInput = { inputs?: Record<string, unknown>; version?: number };

/** A started run; `dispatched` is false when Redis was unreachable (the reconciler dispatches it later). */
export interface StartedRun {
  run: RunDetail;
  dispatched: boolean;
  /** True when an idempotency key had started this run already: it is answered as it is now, nothing new started. */
  replayed?: boolean;
}

/**
 * Starts a run of the owner's workflow: the given saved `version`, else the current draft (saved as a
 * new version unless it equals the latest). Refuses an invalid workflow (422 with the issues) and
 * inputs that do not match the workflow's input fields (400 with the paths). The Run row (queued) and
 * the job are written at the same time: a crash after the insert loses nothing (the reconciler
 * dispatches a queued run without a job, D6), and a job whose row is not committed yet is claimed
 * again for a moment by the worker (workers/run-worker.ts). A workflow this process started before is
 * not read again: the insert is guarded by the target it kept (known-targets.ts).
 * At most WEFT_RUN_START_LIMIT starts per user per minute (429 with Retry-After, W6); an experiment's
 * runs (trigger `experiment`) are not counted and are enqueued at EXPERIMENT_RUN_PRIORITY. Inputs nested
 * or sized past RUN_VALUE_LIMITS are refused (400 naming the limit) before anything is written.
 */
export async function startRun(
  workspaceId: string,
  workflowId: string,
  input: StartRunInput = {},
  origin: RunOrigin = { trigger: "manual" },
): Promise<StartedRun> {
  const body = { inputs: input.inputs ?? {}, version: input.version };
  checkRunValue(body.inputs, "The run's inputs");
  const key = origin.idempotencyKey;
  // an experiment's run: bounded by its experiment's concurrency instead of the start limit, queued behind interactive runs
  const background = origin.trigger === "experiment";
  if (key) {
    // a repeated request (a sender's retry) gets the run its key started, and counts as no new start
    const prior = await runIdByIdempotencyKey(workspaceId, key);
    if (prior) return { run: await getRun(workspaceId, prior), dispatched: true, replayed: true };
  }
  const row = newRunKey();
  const source = {
    trigger: origin.trigger,
    label: origin.label?.slice(0, TRIGGER_LABEL_MAX) || null,
    ...(key ? { idempotencyKey: key } : {}),
    ...(origin.parent ? { parent: origin.parent } : {}),
    ...(origin.lineage ? { lineage: origin.lineage } : {}),
  };
  const started = (target: RunTarget, inputs: Record<string, unknown>, dispatched: boolean): StartedRun => ({
    // the run as inserted (queued, no steps yet): no second read on the start path
    run: {
      id: row.id,
      status: "queued",
      reason: null,
      workflowId,
      workflowName: target.workflowName,
      workflowVersionId: target.versionId,
      version: target.version,
      promptTokens: 0,
      completionTokens: 0,
      stepCount: 0,
      createdAt: row.createdAt,
      startedAt: null,
      finishedAt: null,
      inputs,
      outputs: null,
      cancelRequested: false,
      lastSeq: 0,
      steps: [],
      trigger: source.trigger,
      triggerLabel: source.label,
      sourceRunId: source.lineage?.runId ?? null,
      sourceNodeId: source.lineage?.nodeId ?? null,
      sourceIteration: source.lineage?.iteration ?? null,
      derivedCount: 0,
    },
    dispatched,
  });
  // A workflow this process started before: its target is not read again. The rate limit is counted
  // first (a refused start writes nothing), then the insert — guarded by that target, so a workflow
  // edited, renamed or saved again since writes nothing — goes out with the enqueue. A guard that
  // fails forgets the target, and the start reads it as usual with the same run id (the job already
  // names it; its worker claims again until the row is there, and checks version and inputs).
  const known = knownTarget(workspaceId, workflowId, body.version);
  const knownInputs = known && inputsSchema(known.document.inputs).safeParse(body.inputs);
  let enqueued: PromiseSettledResult<unknown> | undefined;
  const counted = known !== undefined && knownInputs?.success === true;
  if (counted) {
    if (!background) await enforceRunStartLimit(workspaceId);
    const expected = {
      workflowId,
      workflowName: known.workflowName,
      ...(body.version !== undefined ? { requested: body.version } : {}),
    };
    const outcome = await writeRunAndJob(workspaceId, known, knownInputs.data, row, source, expected);
    if (outcome.kind === "replayed") return outcome.started;
    if (outcome.kind === "inserted") return started(known, knownInputs.data, outcome.dispatched);
    forgetTarget(workspaceId, workflowId, body.version);
    enqueued = outcome.enqueued;
  }
  // the rate limit (Redis) is counted while the target is read (PostgreSQL): one round trip less on
  // the start path; a refused target still wins over a refused rate
  const [found, limit] = await Promise.allSettled([
    runnableVersion(workspaceId, workflowId, body.version),
    counted || background ? undefined : enforceRunStartLimit(workspaceId),
  ]);
  if (found.status === "rejected") throw found.reason;
  if (limit.status === "rejected") throw limit.reason;
  const target = found.value;
  const parsedInputs = inputsSchema(target.document.inputs).safeParse(body.inputs);
  if (!parsedInputs.success) {
    throw new AppError(
      "bad_request",
      "The inputs do not match the workflow's input fields.",
      z.treeifyError(parsedInputs.error),
    );
  }
  const outcome = await writeRunAndJob(workspaceId, target, parsedInputs.data, row, source, undefined, enqueued);
  if (outcome.kind === "replayed") return outcome.started;
  if (outcome.kind !== "inserted") throw new Error("an unguarded run insert wrote nothing");
  if (target.reusable) rememberTarget(workspaceId, workflowId, body.version, target);
  return started(target, parsedInputs.data, outcome.dispatched);
}

type Source = RunOrigin & { label: string | null };

/** What writeRunAndJob did: the row written (and whether its job is enqueued), another start's row under the same idempotency key, or nothing (the guard failed). */
type Written =
  | { kind: "inserted"; dispatched: boolean }
  | { kind: "replayed"; started: StartedRun }
  | { kind: "stale"; enqueued: PromiseSettledResult<unknown> | undefined };

/**
 * Writes the Run row (guarded by `expected` when given) and enqueues its job at the same time (one
 * round trip less on the start path: a worker may take the job before the row is committed and
 * claims again for a moment, workers/run-worker.ts EARLY_JOB_MS). With an idempotency key the insert
 * goes first: a concurrent start with the same key may win it, and then no job may name this row.
 * `enqueued`: the job was enqueued already (a guarded attempt that failed), it is not enqueued again.
 * A failed insert fails the start (its job finds no run and ends); a failed enqueue leaves the
 * committed run to the reconciler.
 */
async function writeRunAndJob(
  workspaceId: string,
  target: RunTarget,
  inputs: Record<string, unknown>,
  row: { id: string; createdAt: Date },
  source: Source,
  expected?: ExpectedTarget,
  enqueued?: PromiseSettledResult<unknown>,
): Promise<Written> {
  // the run's spans (every job's, in the worker) join the trace of the request that starts it
  const span = startSpan("weft.run.start", { "weft.run.id": row.id, "weft.run.trigger": source.trigger });
  const insert = () =>
    insertQueuedRun(
      workspaceId,
      target.versionId,
      JSON.stringify(inputs),
      row,
      source,
      expected,
      span?.traceParent,
    ).finally(() => span?.end());
  const priority = runPriority(source.trigger);
  const enqueue = () => (enqueued ? Promise.resolve(enqueued) : settled(enqueueRun(row.id, "start", { priority })));
  const key = source.idempotencyKey;
  // a keyed start enqueues only once its insert wrote the row; an unkeyed one does both at once
  const [inserted, job] = key ? await insertFirst(insert, enqueue) : await Promise.all([settled(insert()), enqueue()]);
  if (inserted.status === "rejected") {
    if (key && isIdempotencyConflict(inserted.reason)) {
      const winner = await runIdByIdempotencyKey(workspaceId, key);
      if (winner)
        return {
          kind: "replayed",
          started: { run: await getRun(workspaceId, winner), dispatched: true, replayed: true },
        };
    }
    throw inserted.reason;
  }
  if (!inserted.value) return { kind: "stale", enqueued: key ? undefined : job };
  if (job.status === "rejected")
    log.warn("run committed but not enqueued; the reconciler will dispatch it", { runId: row.id, err: job.reason });
  metrics().runsStarted.inc({ trigger: source.trigger });
  return { kind: "inserted", dispatched: job.status === "fulfilled" };
}

/** The insert, then (only if it wrote the row) the enqueue, reported like the pair done at once. */
async function insertFirst(insert: () => Promise<boolean>, enqueue: () => Promise<PromiseSettledResult<unknown>>) {
  const inserted = await settled(insert());
  const job = inserted.status === "fulfilled" && inserted.value ? await enqueue() : inserted;
  return [inserted, job] as const;
}

/** How a promise ended, as Promise.allSettled reports it. */
const settled = <T>(p: Promise<T>): Promise<PromiseSettledResult<T>> =>
  p.then(
    (value) => ({ status: "fulfilled" as const, value }),
    (reason: unknown) => ({ status: "rejected" as const, reason }),
  );

/** A target as read, and whether a later start may guard its insert with it (not when the draft only deep-equals the version: jsonb equality, the guard's, would fail). */
type ReadTarget = RunTarget & { reusable: boolean };

/**
 * The version to run: `version` if given, else the draft — the latest version when it holds the
 * same document, else a new version saved from it. One statement (lib/run-store/run-insert.ts) brings the workflow's
 * name and latest (or requested) version, and tells whether the draft is that version's document;
 * a version's parse and validation are kept per version (lib/workflow checkVersion), so starting a
 * saved workflow again checks nothing twice. Only a draft that differs is parsed and validated here.
 */
export async function runnableVersion(workspaceId: string, workflowId: string, version?: number): Promise<ReadTarget> {
  const wf = await readRunTarget(workspaceId, workflowId, version);
  if (!wf) throw notFound("Workflow not found");
  const latest =
    wf.versionId !== null && wf.version !== null
      ? { id: wf.versionId, version: wf.version, document: wf.document }
      : undefined;
  const saved = (v: NonNullable<typeof latest>): ReadTarget => ({
    versionId: v.id,
    version: v.version,
    workflowName: wf.name,
    document: thrown(checkVersion(v.id, v.document)),
    reusable: true,
  });
  if (version !== undefined) {
    if (!latest) throw notFound(`Version ${version} not found`);
    return saved(latest);
  }
  // the common case, running what was saved: the version's check is kept per version (no parse, no validation)
  if (latest && wf.draftIsVersion) return saved(latest);
  const document = thrown(checkDocument(wf.draft));
  // a stored version is a parsed document: compare as stored first, re-parse only if that differs
  // (a schema default added since it was saved must not make an unchanged draft a new version)
  if (
    latest &&
    (deepEqual(latest.document, document) || deepEqual(workflowSchema.safeParse(latest.document).data, document))
  ) {
    return { versionId: latest.id, version: latest.version, workflowName: wf.name, document, reusable: false };
  }
  const created = await saveWorkflowVersion(workspaceId, workflowId, "Saved for a run");
  if (!created) throw notFound("Workflow not found");
  return { versionId: created.id, version: created.version, workflowName: wf.name, document, reusable: true };
}

/** A checked document, or AppError("invalid_workflow") (422) with every issue. */
function thrown(checked: CheckedDocument): Workflow {
  if (!checked.ok)
    throw new AppError("invalid_workflow", "The workflow document does not parse.", { issues: checked.error.issues });
  if (hasErrors(checked.issues)) {
    throw new AppError("invalid_workflow", "The workflow has errors; fix them before running it.", {
      issues: checked.issues.filter((i) => i.severity === "error"),
    });
  }
  // the server's ceilings hold at start too: a version saved before they were lowered does not run past them
  const over = checkLimitCeilings(checked.workflow, runLimitCeilings());
  if (over.length)
    throw new AppError(
      "invalid_workflow",
      `The workflow's limits are above this server's ceilings: ${over[0]!.message}`,
      { issues: over },
    );
  return checked.workflow;
}

/** One of the owner's runs with its steps; 404 for anyone else's. */
export async function getRun(workspaceId: string, runId: string): Promise<RunDetail> {
  const run = await getRunForOwner(workspaceId, runId);
  if (!run) throw notFound("Run not found");
  return run;
}

/** The owner's runs, newest first (filters: workflowId, status, limit, cursor). */
export async function listRuns(
  workspaceId: string,
  filter: RunListFilter = {},
): Promise<{ runs: RunSummary[]; nextCursor: string | null }> {
  return listRunsForOwner(workspaceId, filter);
}

/**
 * Cancels one of the owner's runs. A run that never started (queued, nothing committed) is cancelled
 * at once, whoever holds its lease (one transaction with its run_finished event; the version moves,
 * so a worker that claimed it can commit nothing after, and a lease left by a dead worker or by a job
 * that threw does not keep it alive); otherwise the cancel is recorded and the worker holding the run
 * (it polls for it) finishes it `cancelled`; a job is enqueued in case none holds it, and a job
 * plans a pending cancel before anything else (the driver), so a run whose resume throws ends too.
 * Idempotent: a finished run is returned unchanged.
 */
export async function cancelRun(
  workspaceId: string,
  runId: string,
  reason = "Cancelled by the user",
): Promise<RunDetail> {
  const run = await db().run.findFirst({ where: { id: runId, workspaceId }, select: { status: true } });
  if (!run) throw notFound("Run not found");
  if (isTerminalRunStatus(run.status)) return getRun(workspaceId, runId);
  const lastSeq = await cancelIfNotStarted(runId, reason);
  if (lastSeq !== null) {
    await publishRunWake(runId, lastSeq);
    await notifyRunEnded(runId);
    // a subflow's child cancelled before any worker took it: its end answers the parent's step
    await settleParent(runId);
  } else {
    await postgresStore().requestCancel(runId, reason);
    // a parked run (waiting for people) has no job: it is woken so the engine ends it and its open reviews
    if (!(await wakeWaitingRun(runId, "any"))) {
      await enqueueRun(runId, "cancel").catch((err: unknown) =>
        log.warn("cancel recorded but not enqueued", { runId, err }),
      );
      // a run sleeping until an error-policy retry is due has a delayed job: it runs now
      await wakeRunJob(runId).catch((err: unknown) =>
        log.warn("cancel recorded; the run's delayed job was not woken", { runId, err }),
      );
    }
  }
  return getRun(workspaceId, runId);
}

/** Ends a run that never committed anything (queued, not started) as cancelled; the seq of its last event, or null when it had started. */
async function cancelIfNotStarted(runId: string, reason: string): Promise<number | null> {
  return db().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "Run" SET status = 'cancelled', reason = ${reason}, "cancelRequested" = true, "finishedAt" = now(), version = version + 1, "leaseOwner" = NULL
      WHERE id = ${runId} AND status = 'queued' AND "startedAt" IS NULL AND state = '{}'::jsonb RETURNING id`;
    if (rows.length === 0) return null;
    const stored = await appendEvents(tx, runId, [
      { type: "cancel_requested", reason },
      { type: "run_finished", status: "cancelled", reason },
    ]);
    return stored.at(-1)?.seq ?? null;
  });
}

/**
 * Re-runs one of the owner's runs: a NEW run of the same workflow version with the same inputs,
 * from scratch (every step runs again). "Retry from the failed step", which reuses what succeeded,
 * is derive.ts retryRun.
 */
export async function rerun(workspaceId: string, runId: string): Promise<StartedRun> {
  const run = await db().run.findFirst({
    where: { id: runId, workspaceId },
    select: { inputs: true, workflowVersion: { select: { workflowId: true, version: true } } },
  });
  if (!run) throw notFound("Run not found");
  const inputs = (run.inputs ?? {}) as Record<string, unknown>;
  return startRun(
    workspaceId,
    run.workflowVersion.workflowId,
    { inputs, version: run.workflowVersion.version },
    { trigger: "rerun", label: runId },
  );
}
