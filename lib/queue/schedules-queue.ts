import "server-only";
import type { Queue } from "bullmq";
import * as z from "zod";
import { withRedisDeadline } from "./connection";
import { closeProducerQueue, producerQueue } from "./producer";

/** The queue whose job schedulers fire schedules (one scheduler per Schedule row, keyed by its id). */
export const SCHEDULES_QUEUE = "schedules";

/** A fire job: which schedule. Its planned time is BullMQ's `opts.prevMillis`. */
export const scheduleJobSchema = z.object({ scheduleId: z.string().min(1).max(64) });
export type ScheduleJobData = z.infer<typeof scheduleJobSchema>;

/** What a schedule's timer needs: the pattern and the zone it is read in. */
export interface ScheduleTiming {
  id: string;
  cron: string;
  timezone: string;
}

/** The schedules queue (web actions, the worker's reconciler). */
export const schedulesQueue = (): Queue<ScheduleJobData> => producerQueue<ScheduleJobData>(SCHEDULES_QUEUE);

export const closeSchedulesQueue = (): Promise<void> => closeProducerQueue(SCHEDULES_QUEUE);

/** Creates or replaces the schedule's timer (idempotent). AppError("unavailable") when Redis is down. */
export async function upsertScheduleTimer(s: ScheduleTiming): Promise<void> {
  await withRedisDeadline(
    "upsert schedule timer",
    schedulesQueue().upsertJobScheduler(
      s.id,
      { pattern: s.cron, tz: s.timezone },
      { name: "fire", data: { scheduleId: s.id }, opts: { removeOnComplete: 100, removeOnFail: 100 } },
    ),
  );
}

/** Removes the schedule's timer (a missing one is fine). */
export async function removeScheduleTimer(id: string): Promise<void> {
  await withRedisDeadline("remove schedule timer", schedulesQueue().removeJobScheduler(id));
}

/** Every timer in Redis with its pattern and zone (the reconciler compares them with PostgreSQL). */
export async function listScheduleTimers(): Promise<ScheduleTiming[]> {
  const queue = schedulesQueue();
  const out: ScheduleTiming[] = [];
  for (let start = 0; ; start += 500) {
    const page = await withRedisDeadline("list schedule timers", queue.getJobSchedulers(start, start + 499, true));
    for (const s of page) out.push({ id: s.key, cron: s.pattern ?? "", timezone: s.tz ?? "" });
    if (page.length < 500) return out;
  }
}
