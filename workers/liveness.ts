import "server-only";
import type { Redis } from "ioredis";
import type { LivenessPort, WorkerSighting } from "@/lib/engine/ports";
import { createLogger } from "@/lib/logger";
import { queuePrefix, withRedisDeadline } from "@/lib/queue";

const log = createLogger({ component: "liveness" });

/**
 * Worker heartbeats in Redis, for the crash-loop rule (lib/engine/driver/takeover.ts): each worker
 * writes `<prefix>:worker:<workerId>` = its clock's Date.now() every HEARTBEAT_MS, kept KEEP_MS, and
 * `stopped:<ms>` when it shuts down gracefully. A step's interruption counts as a crash only if its
 * worker then stays silent for DEAD_AFTER_MS; one that beats again after the takeover was alive — it
 * merely lost its BullMQ lock (CPU-starved or frozen past lockDuration), which is a takeover.
 * The record outlives the worker (KEEP_MS) so a late judgement still sees that it beat after a takeover.
 */
export const HEARTBEAT_MS = 1_000;
/** Silence after which a worker is presumed dead: 3 × the BullMQ lock, so a worker starved for that long still counts as alive. */
export const DEAD_AFTER_MS = 30_000;
const KEEP_MS = 3_600_000;
/** A liveness read slower than this tells nothing (the interruption stays pending). */
const READ_TIMEOUT_MS = 2_000;

const key = (workerId: string) => `${queuePrefix()}:worker:${workerId}`;

/** The lease owner of one run job on one worker: `<workerId>:<jobId>:<job attempt>` (job ids hold no ':'). */
export const leaseOwner = (workerId: string, jobId: string, attempt: number): string =>
  `${workerId}:${jobId}:${attempt}`;

/** The worker id (`host:pid:uuid`) inside a lease owner. */
export const workerIdOf = (owner: string): string => owner.split(":").slice(0, -2).join(":");

/** Beats for one worker until stop(); a beat is skipped while the previous one is still in flight (Redis down). */
export class WorkerHeartbeat {
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<unknown> | undefined;
  lastBeatAt: number | undefined;

  constructor(
    private readonly redis: Redis,
    readonly workerId: string,
  ) {}

  start(): void {
    this.beat();
    this.timer = setInterval(() => this.beat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  private beat(): void {
    if (this.inFlight) return;
    const at = Date.now();
    this.inFlight = this.redis
      .set(key(this.workerId), String(at), "PX", KEEP_MS)
      .then(
        () => (this.lastBeatAt = at),
        (err: unknown) => log.warn("heartbeat failed", { workerId: this.workerId, err }),
      )
      .finally(() => (this.inFlight = undefined));
  }

  /** Graceful stop: the record says the worker shut down (its handed-back steps were not crashes). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.inFlight;
    await this.redis
      .set(key(this.workerId), `stopped:${Date.now()}`, "PX", KEEP_MS)
      .catch((err: unknown) => log.warn("final heartbeat failed", { err }));
  }
}

function parse(value: string | null): WorkerSighting {
  if (value === null) return { beat: null };
  const stopped = value.startsWith("stopped:");
  const beat = Number(stopped ? value.slice("stopped:".length) : value);
  return Number.isFinite(beat) ? { beat, ...(stopped ? { stopped } : {}) } : { beat: null };
}

/** The engine's LivenessPort on the heartbeat records, as seen by worker `selfId`. */
export function redisLiveness(redis: Redis, selfId: string): LivenessPort {
  return {
    deadAfterMs: DEAD_AFTER_MS,
    pollMs: HEARTBEAT_MS,
    async sight(owners) {
      const ids = owners.map((o) => (o === null ? null : workerIdOf(o)));
      const others = [...new Set(ids.filter((id): id is string => id !== null && id !== selfId))];
      const values = others.length
        ? await withRedisDeadline("worker liveness", redis.mget(others.map(key)), READ_TIMEOUT_MS)
        : [];
      const byId = new Map(others.map((id, k) => [id, parse(values[k] ?? null)]));
      return ids.map((id) =>
        id === null ? { beat: null } : id === selfId ? { beat: Date.now(), self: true } : byId.get(id)!,
      );
    },
  };
}
