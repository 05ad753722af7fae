import "server-only";
import type { Tx } from "@/lib/events/event-log";
import { CommitRefused } from "@/lib/engine/errors";
import type { RunCommit, RunWrite } from "@/lib/engine/ports";
import { Prisma } from "@/lib/generated/prisma/client";

/** Why a step result's row is not this holder's (re-dispatched elsewhere): the whole commit is refused. */
export const stepNotHeld = (r: { nodeId: string; iteration: number; attempt: number }): string =>
  `step ${r.nodeId}#${r.iteration} attempt ${r.attempt} is not running under this owner`;

/** JSON for a nullable Json column: undefined/null become SQL NULL. */
const json = (v: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull =>
  v === undefined || v === null ? Prisma.DbNull : (v as Prisma.InputJsonValue);

/** Applies a commit's step starts, skips and results (inside the commit's transaction). */
export async function applyStepWrites(tx: Tx, runId: string, c: RunCommit): Promise<void> {
  for (const s of c.stepStarts ?? []) {
    const running = {
      attempt: s.attempt,
      status: "running" as const,
      input: json(s.input),
      startedAt: s.at,
      leaseOwner: c.owner,
    };
    await tx.step.upsert({
      where: { runId_nodeId_iteration: { runId, nodeId: s.nodeId, iteration: s.iteration } },
      create: { runId, nodeId: s.nodeId, iteration: s.iteration, ...running },
      update: {
        ...running,
        output: Prisma.DbNull,
        error: null,
        branch: null,
        finishedAt: null,
        latencyMs: null,
        promptTokens: 0,
        completionTokens: 0,
      },
    });
  }
  if (c.stepSkips?.length) {
    const { count } = await tx.step.createMany({
      data: c.stepSkips.map((s) => ({
        runId,
        nodeId: s.nodeId,
        iteration: s.iteration,
        status: "skipped" as const,
        finishedAt: s.at,
        leaseOwner: c.owner,
      })),
      skipDuplicates: true,
    });
    if (count !== c.stepSkips.length) throw new CommitRefused("stale", "a skipped step already exists");
  }
  for (const r of c.stepResults ?? []) {
    // A cancellation may close a row another (dead) worker started: the run holder ends a run whose
    // step crashed its workers (D3 crash loop) while that row still names the crashed owner. The run
    // guard of the same transaction proves the committer holds the run; every other result must
    // hit a row of this owner.
    // A waiting human review is closed by whoever holds the run when its answer comes, a step waiting
    // for its retry by whoever holds the run when it is cancelled.
    const owner = r.status === "cancelled" ? {} : { leaseOwner: c.owner };
    const { count } = await tx.step.updateMany({
      where: {
        runId,
        nodeId: r.nodeId,
        iteration: r.iteration,
        attempt: r.attempt,
        OR: [{ status: "running", ...owner }, { status: "waiting" }, { status: "retrying" }],
      },
      data: {
        status: r.status,
        output: json(r.output),
        branch: r.branch,
        promptTokens: r.promptTokens,
        completionTokens: r.completionTokens,
        latencyMs: r.latencyMs,
        error: r.error,
        finishedAt: r.status === "waiting" ? null : r.at,
      },
    });
    if (count !== 1) throw new CommitRefused("lost_lease", stepNotHeld(r));
  }
}

/** Applies a commit's run changes (inside the commit's transaction). */
export async function applyRunWrite(tx: Tx, runId: string, w: RunWrite): Promise<void> {
  const data: Prisma.RunUpdateInput = {};
  if (w.status !== undefined) data.status = w.status;
  if (w.plannerState !== undefined) data.state = (w.plannerState ?? {}) as Prisma.InputJsonValue;
  if (w.outputs !== undefined) data.outputs = w.outputs as Prisma.InputJsonValue;
  if (w.reason !== undefined) data.reason = w.reason;
  if (w.startedAt !== undefined) data.startedAt = w.startedAt;
  if (w.finishedAt !== undefined) data.finishedAt = w.finishedAt;
  if (w.addTokens) {
    data.promptTokens = { increment: w.addTokens.promptTokens };
    data.completionTokens = { increment: w.addTokens.completionTokens };
  }
  if (w.addSteps) data.stepCount = { increment: w.addSteps };
  if (w.waitingSince) data.waitingSince = w.waitingSince;
  // a parked run holds no lease: nobody works on it until an answer wakes it
  if (w.status === "waiting") data.leaseOwner = null;
  if (Object.keys(data).length > 0) await tx.run.update({ where: { id: runId }, data });
}
