import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { createLogger } from "@/lib/logger";

const log = createLogger({ component: "sandbox-slots" });

/**
 * A per-user cap on sandboxed code running at once, across every process (web: MCP and the tool
 * dialog; workers: runs): each run holds a slot in a Redis sorted set per user, scored by when
 * its lease ends, so a slot of a process killed mid-run frees itself. A caller over the cap waits
 * up to `waitMs` for a slot, then is refused. With Redis unreachable the cap is kept per process.
 */
export interface SlotPolicy {
  /** Sandboxes one user may run at once (WEFT_SANDBOX_PER_USER, default 4). */
  max: number;
  /** How long a caller waits for a free slot before the refusal (default 10 s). */
  waitMs: number;
  /** How long a slot is held at most (the run's own deadline plus margin). */
  leaseMs: number;
}

/** The refusal: "busy" is a 429 with Retry-After. */
export class SandboxBusyError extends AppError {
  constructor(max: number) {
    super(
      "rate_limited",
      `Too many sandboxed runs at once for this user (the limit is ${max}, WEFT_SANDBOX_PER_USER); try again when one ends.`,
      { limit: "WEFT_SANDBOX_PER_USER", max },
      5,
    );
  }
}

// KEYS[1] = the user's set; ARGV = max, member, lease ms. Drops expired leases, then takes one if there is room.
const ACQUIRE = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]) * 2)
return 1`;

const g = globalThis as unknown as { __weftSandboxSlots?: { url: string; redis: Redis } };
const local = new Map<string, number>();

function redis(): Redis {
  const url = env().REDIS_URL;
  if (g.__weftSandboxSlots?.url !== url) {
    g.__weftSandboxSlots?.redis.disconnect();
    const client = new Redis(url, {
      lazyConnect: true,
      connectTimeout: 1000,
      commandTimeout: 500,
      maxRetriesPerRequest: 1,
    });
    client.on("error", (err) => log.debug("sandbox slots redis error", { err: err.message }));
    g.__weftSandboxSlots = { url, redis: client };
  }
  return g.__weftSandboxSlots.redis;
}

const keyOf = (workspaceId: string) =>
  `${env().WEFT_QUEUE_PREFIX}:sandbox:${createHash("sha256").update(workspaceId).digest("hex").slice(0, 32)}`;

/** Takes a slot: true when taken in Redis, "local" when Redis failed and the process cap had room, false when full. */
async function take(workspaceId: string, member: string, policy: SlotPolicy): Promise<boolean | "local"> {
  try {
    return (
      (await redis().eval(ACQUIRE, 1, keyOf(workspaceId), String(policy.max), member, String(policy.leaseMs))) === 1
    );
  } catch (err) {
    log.warn("sandbox slots unavailable; capping per process", {
      err: err instanceof Error ? err.message : String(err),
    });
    const held = local.get(workspaceId) ?? 0;
    if (held >= policy.max) return false;
    local.set(workspaceId, held + 1);
    return "local";
  }
}

async function release(workspaceId: string, member: string, how: true | "local"): Promise<void> {
  if (how === "local") {
    const held = (local.get(workspaceId) ?? 1) - 1;
    if (held > 0) local.set(workspaceId, held);
    else local.delete(workspaceId);
    return;
  }
  await redis()
    .zrem(keyOf(workspaceId), member)
    .catch((err: unknown) => log.warn("sandbox slot not released (its lease ends it)", { err }));
}

/** The policy of this process: WEFT_SANDBOX_PER_USER, a 10 s wait, and a lease of the run's time plus 30 s. */
export function slotPolicy(timeoutMs: number): SlotPolicy {
  return { max: env().WEFT_SANDBOX_PER_USER, waitMs: 10_000, leaseMs: Math.ceil(timeoutMs * 1.1) + 30_000 };
}

/**
 * Runs `fn` holding one of the user's sandbox slots; waits (polling every 25–200 ms) up to
 * `policy.waitMs` for one, then throws SandboxBusyError. `signal` ends the wait early (throws its reason).
 */
export async function withSandboxSlot<T>(
  workspaceId: string,
  policy: SlotPolicy,
  fn: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const member = randomUUID();
  const deadline = Date.now() + policy.waitMs;
  let delay = 25;
  for (;;) {
    signal?.throwIfAborted();
    const how = await take(workspaceId, member, policy);
    if (how) {
      try {
        return await fn();
      } finally {
        await release(workspaceId, member, how);
      }
    }
    if (Date.now() + delay > deadline) throw new SandboxBusyError(policy.max);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(200, delay * 2);
  }
}
