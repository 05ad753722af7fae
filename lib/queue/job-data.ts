import "server-only";
import { UnrecoverableError } from "bullmq";
import type { z } from "zod";

/**
 * A job's data parsed at the worker's edge (house rule 2). Data that does not fit its schema will not
 * fit on a retry either, so it fails the job at once (BullMQ's UnrecoverableError: no further attempt)
 * with a message naming the queue and the first problem.
 */
export function parseJobData<S extends z.ZodType>(queue: string, schema: S, data: unknown): z.output<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const where = first?.path.length ? ` at ${first.path.join(".")}` : "";
  throw new UnrecoverableError(`invalid ${queue} job data${where}: ${first?.message ?? "unparseable"}`);
}
