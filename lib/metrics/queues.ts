import type { Queue } from "bullmq";
import { experimentsQueue, notificationsQueue, runsQueue, withRedisDeadline } from "@/lib/queue";
import { metrics, onScrape } from "./index";

const STATES = ["waiting", "prioritized", "delayed", "active"] as const;

/** Jobs by state and the oldest waiting job's age of one queue, into the queue gauges. */
async function readQueue(name: string, queue: Queue): Promise<void> {
  const m = metrics();
  const counts = await withRedisDeadline("queue metrics", queue.getJobCounts(...STATES));
  for (const state of STATES) m.queueJobs.set({ queue: name, state }, counts[state] ?? 0);
  // the oldest waiting job: the head of the plain waiting list, or of the prioritized set
  const [plain, prioritized] = await withRedisDeadline(
    "queue metrics",
    Promise.all([queue.getWaiting(0, 0), queue.getPrioritized(0, 0)]),
  );
  const times = [...plain, ...prioritized].map((j) => j?.timestamp).filter((t): t is number => typeof t === "number");
  m.queueOldestAge.set({ queue: name }, times.length ? Math.max(0, (Date.now() - Math.min(...times)) / 1000) : 0);
}

let observed = false;

/** Reads the runs, experiments and notifications queues at each scrape (once per process). */
export function observeQueues(): void {
  if (observed) return;
  observed = true;
  onScrape(() => readQueue("runs", runsQueue()));
  onScrape(() => readQueue("experiments", experimentsQueue()));
  onScrape(() => readQueue("notifications", notificationsQueue()));
}
