import "server-only";
import type { Redis } from "ioredis";
import { db } from "@/lib/db/client";
import { createLogger } from "@/lib/logger";
import { metrics } from "@/lib/metrics";
import { enqueueRun, hasLiveRunJob, queuePrefix, runPriority } from "@/lib/queue";
import { expireReviews } from "@/lib/runs/answers";
import { reconcileSubflows } from "@/lib/runs/subflows";

const log = createLogger({ component: "reconciler" });

/** Runs younger than this are skipped: their startRun may still be enqueueing them. */
export const RECONCILE_MIN_AGE_MS = 2_000;

/**
 * One pass (D6): every live (queued/running) run in PostgreSQL without a live BullMQ job gets one
 * (reason "reconcile"). Covers Redis data loss (FLUSHALL, restart without persistence), a crash
 * between the run's commit and its enqueue, and jobs BullMQ gave up on. Completed steps are never
 * re-run: the driver resumes from what PostgreSQL committed. Returns the re-enqueued run ids.
 */
export async function reconcileOnce(minAgeMs = RECONCILE_MIN_AGE_MS): Promise<string[]> {
  const enqueued: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const runs = await db().run.findMany({
      where: { status: { in: ["queued", "running"] }, createdAt: { lt: new Date(Date.now() - minAgeMs) } },
      orderBy: { id: "asc" },
      take: 500,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
      select: { id: true, trigger: true },
    });
    for (const { id, trigger } of runs) {
      if (await hasLiveRunJob(id)) continue;
      await enqueueRun(id, "reconcile", { priority: runPriority(trigger) });
      metrics().reconcilerRedispatches.inc();
      enqueued.push(id);
    }
    if (runs.length < 500) break;
    cursor = runs.at(-1)?.id;
  }
  if (enqueued.length) log.info("re-enqueued orphaned runs", { count: enqueued.length, runIds: enqueued.slice(0, 20) });
  return enqueued;
}

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;

/**
 * Runs reconcileOnce (and expires unanswered human reviews, answers.ts expireReviews, and settles
 * subflows whose parent or child ended unnoticed, subflows.ts reconcileSubflows) on start and
 * every `intervalMs`, only on the elected leader: a Redis key
 * `<prefix>:reconciler:leader` taken with SET NX PX (3 × interval) and renewed by its holder, so
 * one worker of many does the scan and a dead leader is replaced after its key expires.
 * If Redis itself was flushed, the key is gone too and the next tick elects a leader again.
 */
export class Reconciler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  leader = false;
  passes = 0;

  constructor(
    private readonly redis: Redis,
    private readonly id: string,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    const tick = () => {
      this.running = this.tick().finally(() => (this.running = undefined));
    };
    tick();
    this.timer = setInterval(() => this.running ?? tick(), this.intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    if (this.leader) await this.redis.del(this.key()).catch(() => undefined);
    this.leader = false;
  }

  private key(): string {
    return `${queuePrefix()}:reconciler:leader`;
  }

  private async tick(): Promise<void> {
    try {
      const ttl = String(this.intervalMs * 3);
      const took = await this.redis.set(this.key(), this.id, "PX", ttl, "NX");
      this.leader = took === "OK" || (await this.redis.eval(RENEW, 1, this.key(), this.id, ttl)) === 1;
      if (!this.leader) return;
      await reconcileOnce();
      await expireReviews();
      await reconcileSubflows();
      this.passes++;
    } catch (err) {
      log.warn("reconcile pass failed; retrying next interval", { err });
    }
  }
}
