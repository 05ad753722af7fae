import "server-only";
import { db } from "@/lib/db/client";
import { appendEvents, type Tx } from "@/lib/events/event-log";
import type { RunStatus } from "@/lib/engine/events";
import { CommitRefused } from "@/lib/engine/errors";
import type { ClaimResult, CommitFailure, CommitResult, RunCommit, StorePort } from "@/lib/engine/ports";
import { createLogger } from "@/lib/logger";
import { commitHeld, heldStats } from "./held-commit";
import { heldRun, letGo } from "./held-runs";
import { sqlCancelRequested, sqlClaim, sqlCommit, sqlReadAnswers, sqlStatementCount } from "./run-sql";
import { applyRunWrite, applyStepWrites, stepNotHeld } from "./prisma-writes";

const log = createLogger({ component: "run-store" });

const counters = { commits: 0, rejectedCommits: 0, claims: 0, transactionalCommits: 0, cancelPolls: 0 };

/**
 * Counters of this process: `rejectedCommits` counts refused stale/zombie commits (D4);
 * `transactionalCommits` those that took the general path; `sqlStatements` the single statements
 * sent on the hot-path pool (commits, claims); `cancelPolls` the cancel checks; `logged` the commits of
 * held runs stored in the run's log alone and `written` those that wrote the rows (held-commit.ts).
 */
export const storeStats = () => ({ ...counters, ...heldStats(), sqlStatements: sqlStatementCount() });

/** Waiting for a pooled connection under load must not fail a commit; a stuck one must not hold locks forever. */
const COMMIT_TX = { maxWait: 15_000, timeout: 30_000 } as const;

const LIVE: RunStatus[] = ["queued", "running"];

/**
 * The engine's StorePort on PostgreSQL. Every commit runs in one transaction guarded by
 * `UPDATE "Run" SET version = version + 1 WHERE id AND version AND leaseOwner AND status is live`;
 * step results are further guarded by (status running, leaseOwner, attempt). A stale worker
 * (D4 zombie, or a worker whose job was re-delivered) therefore cannot commit anything.
 */
export function postgresStore(options: StoreOptions = {}): StorePort {
  return {
    claimRun: (runId, owner) => claimRun(runId, owner, options.onClaim),
    commit,
    releaseRun,
    requestCancel,
    isCancelRequested,
    readAnswers: sqlReadAnswers,
  };
}

export interface StoreOptions {
  /** Told the run's owner (user id) by every successful claim, before the claim answers. */
  onClaim?: (workspaceId: string) => void;
}

/** See sqlClaim: the lease + version bump and the snapshot of the run, its steps and its document (normally one statement). */
async function claimRun(runId: string, owner: string, onClaim?: (workspaceId: string) => void): Promise<ClaimResult> {
  const res = await sqlClaim(runId, owner);
  if (!res.ok) return res;
  counters.claims++;
  onClaim?.(res.workspaceId);
  return { ok: true, run: res.run };
}

/**
 * One commit: normally a single statement (run-sql.ts), or for a run this process holds the
 * held run's (held-commit.ts: often an append to the run's log); a commit that writes one step row in a
 * way one statement cannot (rare) takes the general path, an interactive transaction with the same guards.
 */
async function commit(runId: string, c: RunCommit): Promise<CommitResult> {
  const h = heldRun(runId, c.owner);
  if (h) {
    const res = await commitHeld(h, c);
    if ("general" in res) return transactionalCommit(runId, res.general);
    if ("refused" in res) {
      const why = await diagnose(runId, res.refused, res.reason && new CommitRefused(res.reason, res.detail));
      return reject(runId, c, why.reason, why.detail);
    }
    if (res.ok) counters.commits++;
    return res;
  }
  const fast = await sqlCommit(runId, c);
  if (fast.kind === "ok") {
    counters.commits++;
    return { ok: true, version: fast.version, events: fast.events };
  }
  if (fast.kind === "refused") {
    const why = await diagnose(runId, c);
    return reject(runId, c, why.reason, why.detail);
  }
  return transactionalCommit(runId, c);
}

/** Why a single-statement commit changed nothing (read after the fact, for the answer and the log); `known`: the step-level reason, if known. */
async function diagnose(runId: string, c: RunCommit, known?: CommitRefused): Promise<CommitRefused> {
  const run = await db().run.findUnique({
    where: { id: runId },
    select: { status: true, version: true, leaseOwner: true },
  });
  const guard = runRefusal(run, c);
  if (guard) return guard;
  if (known) return known;
  for (const r of c.stepResults ?? []) {
    const startedHere = c.stepStarts?.some((s) => s.nodeId === r.nodeId && s.iteration === r.iteration);
    const hit = startedHere
      ? 1
      : await db().step.count({
          where: {
            runId,
            nodeId: r.nodeId,
            iteration: r.iteration,
            attempt: r.attempt,
            OR: [{ status: "running", leaseOwner: c.owner }, { status: "waiting" }, { status: "retrying" }],
          },
        });
    if (hit !== 1) return new CommitRefused("lost_lease", stepNotHeld(r));
  }
  return new CommitRefused("stale", "a skipped step already exists");
}

async function transactionalCommit(runId: string, c: RunCommit): Promise<CommitResult> {
  counters.transactionalCommits++;
  try {
    const result = await db().$transaction(async (tx) => {
      const bumped = await tx.$queryRaw<{ version: number }[]>`
        UPDATE "Run" SET version = version + 1
        WHERE id = ${runId} AND version = ${c.expectedVersion} AND "leaseOwner" = ${c.owner}
          AND status IN ('queued', 'running')
        RETURNING version`;
      const row = bumped[0];
      if (!row) throw await refusal(tx, runId, c);
      await applyStepWrites(tx, runId, c);
      if (c.run) await applyRunWrite(tx, runId, c.run);
      const events = await appendEvents(tx, runId, c.events ?? []);
      return { version: row.version, events };
    }, COMMIT_TX);
    counters.commits++;
    return { ok: true, ...result };
  } catch (err) {
    if (err instanceof CommitRefused) return reject(runId, c, err.reason, err.detail);
    throw err;
  }
}

function reject(runId: string, c: RunCommit, reason: CommitFailure, detail?: string): CommitResult {
  counters.rejectedCommits++;
  log.warn("commit refused", { runId, owner: c.owner, expectedVersion: c.expectedVersion, reason, detail });
  return { ok: false, reason, detail };
}

async function refusal(tx: Tx, runId: string, c: RunCommit): Promise<CommitRefused> {
  const run = await tx.run.findUnique({
    where: { id: runId },
    select: { status: true, version: true, leaseOwner: true },
  });
  return (
    runRefusal(run, c) ?? new CommitRefused("stale", `version is ${run?.version}, commit expected ${c.expectedVersion}`)
  );
}

/** The run-level guard's verdict: null when the run is live, ours and at the expected version. */
function runRefusal(
  run: { status: RunStatus; version: number; leaseOwner: string | null } | null,
  c: RunCommit,
): CommitRefused | null {
  if (!run) return new CommitRefused("not_found");
  if (!LIVE.includes(run.status)) return new CommitRefused("terminal", `run is ${run.status}`);
  if (run.leaseOwner !== c.owner) return new CommitRefused("lost_lease", `held by ${run.leaseOwner ?? "nobody"}`);
  if (run.version !== c.expectedVersion)
    return new CommitRefused("stale", `version is ${run.version}, commit expected ${c.expectedVersion}`);
  return null;
}

async function releaseRun(runId: string, owner: string, version: number): Promise<void> {
  // a held run's version is the engine's (held-runs.ts); its log stays as it is, for the next claim to fold
  const h = heldRun(runId, owner);
  letGo(runId, owner);
  await db().run.updateMany({
    where: { id: runId, leaseOwner: owner, version: h && h.version === version ? h.dbVersion : version },
    data: { leaseOwner: null },
  });
}

async function requestCancel(runId: string, reason?: string): Promise<void> {
  // While a run is live its `reason` column is unused, so it carries the cancel reason until the
  // terminal commit overwrites it with why the run ended.
  await db().run.updateMany({
    where: { id: runId, status: { in: [...LIVE, "waiting"] } },
    data: { cancelRequested: true, ...(reason ? { reason } : {}) },
  });
}

async function isCancelRequested(runId: string): Promise<{ requested: boolean; reason: string | null }> {
  counters.cancelPolls++;
  return sqlCancelRequested(runId);
}
