import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { runEventSchema, type RunEvent, type RunEventEnvelope } from "@/lib/engine/events";
import type { StoredEvent } from "@/lib/engine/ports";
import { db } from "@/lib/db/client";

/** A Prisma transaction (or the client itself for single statements). */
export type Tx = Prisma.TransactionClient;

/**
 * Appends `events` to a run's log INSIDE the caller's transaction, with contiguous per-run seq.
 * The seq block is reserved by `UPDATE "Run" SET "nextSeq" = "nextSeq" + n ... RETURNING`, whose row
 * lock is held until the transaction ends; so concurrent appenders of one run commit in seq order
 * and a reader never sees seq n+1 committed before seq n (no gap for SSE readers, R8).
 * Each event is validated against the engine's schema before it is stored. Returns [] for no events.
 */
export async function appendEvents(tx: Tx, runId: string, events: readonly RunEvent[]): Promise<StoredEvent[]> {
  if (events.length === 0) return [];
  const checked = events.map((e) => runEventSchema.parse(e));
  const rows = await tx.$queryRaw<{ nextSeq: number }[]>`
    UPDATE "Run" SET "nextSeq" = "nextSeq" + ${checked.length} WHERE id = ${runId} RETURNING "nextSeq"`;
  const row = rows[0];
  if (!row) throw new Error(`appendEvents: run ${runId} does not exist`);
  const first = row.nextSeq - checked.length;
  const at = new Date();
  await tx.runEvent.createMany({
    data: checked.map((event, i) => ({
      runId,
      seq: first + i,
      type: event.type,
      payload: eventPayload(event) as Prisma.InputJsonValue,
      createdAt: at,
    })),
  });
  return checked.map((event, i) => ({ seq: first + i, at, event }));
}

/** What a RunEvent row stores as its payload: the event without its `type` (a column of its own). */
export function eventPayload(event: RunEvent): Record<string, unknown> {
  const { type: _type, ...rest } = event;
  return rest;
}

/** Default and maximum page size of readEvents. */
export const READ_EVENTS_MAX = 1_000;

/**
 * Events of a run with seq > afterSeq, in seq order, at most `limit` (default and cap 1,000).
 * NOT owner-scoped: callers authorise the run first (SSE route, lib/db/runs).
 */
export async function readEvents(
  runId: string,
  afterSeq: number,
  limit = READ_EVENTS_MAX,
): Promise<RunEventEnvelope[]> {
  const take = Math.max(1, Math.min(limit, READ_EVENTS_MAX));
  const rows = await db().runEvent.findMany({
    where: { runId, seq: { gt: Math.max(0, Math.floor(afterSeq)) } },
    orderBy: { seq: "asc" },
    take,
    select: { seq: true, type: true, payload: true, createdAt: true },
  });
  return rows.map((r) => ({
    runId,
    seq: r.seq,
    at: r.createdAt.toISOString(),
    event: { ...(r.payload as Record<string, unknown>), type: r.type } as RunEvent,
  }));
}

/**
 * What a live reader needs to know to stop: the run's status and the last seq its Run row accounts
 * for — exact once the run has ended; while it runs, its step log may be ahead (lib/db/run-log.ts).
 */
export async function runProgress(runId: string): Promise<{ status: string; lastSeq: number } | null> {
  const run = await db().run.findUnique({ where: { id: runId }, select: { status: true, nextSeq: true } });
  return run ? { status: run.status, lastSeq: run.nextSeq - 1 } : null;
}

/** Envelope of a freshly stored event (what the SSE route sends for it). */
export const envelopeOf = (runId: string, stored: StoredEvent): RunEventEnvelope => ({
  runId,
  seq: stored.seq,
  at: stored.at.toISOString(),
  event: stored.event,
});
