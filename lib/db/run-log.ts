import "server-only";
import type { Prisma, RunStatus, Step } from "@/lib/generated/prisma/client";
import { db } from "./client";

/** A run's Step rows and counters as they are now, its log folded in (see `readRunNow`). */
export interface RunNow {
  promptTokens: number;
  completionTokens: number;
  stepCount: number;
  lastSeq: number;
  /** In start order (row creation, then iteration). */
  steps: Step[];
  /** The run's end when its log holds it and its row does not yet (migration logged_run_end); see `withEnd`. */
  end: RunEnd | null;
}

/** A logged end: what the Run row's status, reason, outputs and finishedAt become once it is folded. */
export interface RunEnd {
  status: RunStatus;
  reason?: string;
  outputs?: Prisma.JsonValue;
  finishedAt?: string;
}

type EndColumns = { status: RunStatus; reason: string | null; finishedAt: Date | null; outputs?: Prisma.JsonValue };

/** A Run row's columns with a logged end applied (as they will be once the worker wrote its rows). */
export function withEnd<T extends EndColumns>(row: T, end: RunEnd | null): T {
  if (!end) return row;
  return {
    ...row,
    status: end.status,
    ...(end.reason !== undefined ? { reason: end.reason } : {}),
    ...(end.outputs !== undefined && "outputs" in row ? { outputs: end.outputs } : {}),
    ...(end.finishedAt !== undefined ? { finishedAt: jsonTimestamp(end.finishedAt) } : {}),
  };
}

type StepJson = Omit<Step, "createdAt" | "startedAt" | "finishedAt"> & {
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
};
/** A `timestamp(3)` as row_to_json renders it (no zone; Prisma stores UTC), as a Date. */
export const jsonTimestamp = (v: string | null): Date | null =>
  v === null ? null : new Date(v.endsWith("Z") ? v : `${v}Z`);

/**
 * A run's steps, token and step counters and last event seq as they are now, in one statement (one
 * snapshot): the Step and Run rows with what the run's log holds beyond them (commits a worker
 * stored as events alone while the run was running: migration run_step_log, lib/run-store/held-runs.ts),
 * and the run's end if the log holds it and the Run row not yet (apply it with `withEnd`). Readers
 * that show a run's steps read them here, never from the Step rows alone. Null: no such run. Not
 * owner-scoped: callers authorise the run first.
 */
export async function readRunNow(runId: string): Promise<RunNow | null> {
  const rows = await db().$queryRaw<
    {
      promptTokens: number;
      completionTokens: number;
      stepCount: number;
      lastSeq: number;
      steps: StepJson[];
      end: RunEnd | null;
    }[]
  >`
    SELECT r."promptTokens" + l."addPrompt" AS "promptTokens", r."completionTokens" + l."addCompletion" AS "completionTokens",
      r."stepCount" + l."addSteps" AS "stepCount", l."lastSeq", l."end",
      COALESCE((SELECT json_agg(s ORDER BY s."createdAt", s.iteration) FROM weft_run_steps(r.id) s), '[]'::json) AS steps
    FROM "Run" r CROSS JOIN LATERAL weft_run_log(r.id) l WHERE r.id = ${runId}`;
  const row = rows[0];
  if (!row) return null;
  return {
    promptTokens: row.promptTokens,
    completionTokens: row.completionTokens,
    stepCount: row.stepCount,
    lastSeq: row.lastSeq,
    end: row.end,
    steps: row.steps.map((s) => ({
      ...s,
      createdAt: jsonTimestamp(s.createdAt)!,
      startedAt: jsonTimestamp(s.startedAt),
      finishedAt: jsonTimestamp(s.finishedAt),
    })),
  };
}
