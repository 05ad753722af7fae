import "server-only";

/**
 * BullMQ stall settings for the runs queue, chosen for this engine (PostgreSQL is the source of
 * truth; a BullMQ job only *dispatches* a run).
 *
 * How BullMQ notices a dead worker: the worker holds a per-job lock of `lockDuration` ms and renews
 * it every `lockDuration / 2`. A SIGKILLed worker stops renewing; once the lock has expired, the
 * next stalled check (every `stalledInterval` ms, run by any live worker) moves the job back to
 * `wait`, and another worker picks it up. Time to recovery (D2) is therefore at most
 * `lockDuration + stalledInterval` ≈ 10 s + 5 s = 15 s (BullMQ's defaults, 30 s + 30 s, give up to 60 s).
 *
 * Why not shorter: a worker whose event loop is blocked longer than `lockDuration` (D4, the zombie)
 * loses its lock and the job runs twice. Our processor is I/O bound (model HTTP calls, SQL);
 * the only CPU-heavy work is sandboxed tool code, whose deadline is far below 10 s. A double dispatch
 * is *safe* anyway: each step commit carries a lease/version check, so the zombie's late commit is
 * rejected, and side-effecting tools go through the idempotency ledger. Shorter locks would only
 * trade more Redis traffic and more false stalls for faster recovery.
 *
 * Why `maxStalledCount` 10 (BullMQ default 1): BullMQ's counter is per *job*, but a run's job is
 * long-lived (a whole run of many steps), so a worker crash during step 3 and another during step 8
 * are unrelated. The attempt cap that D3 asks for ("a step that keeps killing its worker ends
 * failed") is enforced per *step* by the engine (3 crashes, judged by worker heartbeats so that a
 * live worker that merely lost this lock is not counted: workers/README.md, "Crash or takeover");
 * it must trip before BullMQ gives up, so the run ends `failed` with a precise reason
 * instead of a job silently failed in Redis. If BullMQ does fail the job anyway, the reconciler
 * re-enqueues the still non-terminal run from PostgreSQL (D6), so nothing is lost either way.
 */
export const RUNS_WORKER_STALL_SETTINGS = {
  /** Lock held by the processing worker, renewed every lockDuration / 2 (BullMQ default 30 000). */
  lockDuration: 10_000,
  /** How often live workers look for jobs whose lock expired (BullMQ default 30 000). */
  stalledInterval: 5_000,
  /** Stall recoveries per job before BullMQ fails it (BullMQ default 1); see the comment above. */
  maxStalledCount: 10,
} as const;

/**
 * Job options for run jobs. `attempts` 3 with exponential backoff covers a processor that throws
 * (e.g. PostgreSQL briefly unreachable); engine-level failures are recorded on the run, not thrown.
 * Finished jobs are removed at once: PostgreSQL keeps the history, and a kept completed job would
 * only cost Redis memory.
 */
export const RUN_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: "exponential", delay: 1_000 },
  removeOnComplete: true,
  removeOnFail: { age: 24 * 3600, count: 1_000 },
} as const;
