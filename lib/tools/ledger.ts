import "server-only";
import * as z from "zod";
import { db } from "@/lib/db/client";
import type { MemoPort, ToolCallRequest, ToolCallResult, ToolsPort } from "@/lib/engine/ports";
import { type Prisma } from "@/lib/generated/prisma/client";
import { retryTransientDb } from "@/lib/db/transient";
import { createLogger } from "@/lib/logger";

const log = createLogger({ component: "tool-ledger" });

/** How long a second caller waits for a concurrent first execution of the same key to record its result. */
export const LEDGER_WAIT_MS = 15_000;

const recorded = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), output: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);

const counters = { executed: 0, replayed: 0, unknown: 0 };

/** Ledger counters of this process: effects executed, results replayed, outcomes unknown. */
export const ledgerStats = () => ({ ...counters });

/**
 * Wraps a ToolsPort so that side-effecting calls (those with an idempotency key) run AT MOST ONCE
 * per key, across workers and crashes (the ToolEffect table is the ledger):
 * 1. claim the key: INSERT ... ON CONFLICT DO NOTHING (result NULL = "in flight");
 * 2. the claimer executes the effect (passing the key on, so key-aware sinks can dedupe too) and
 *    records `{ok, output|error}`;
 * 3. anyone else with the same key returns the recorded result; if none is recorded yet (a zombie
 *    still running, D4) it waits up to LEDGER_WAIT_MS; if the claimer died mid-effect the outcome is
 *    unknown and the call fails with that reason instead of risking a second effect.
 * Calls without a key (pure tools) pass straight through.
 */
export function ledgerTools(inner: ToolsPort, waitMs = LEDGER_WAIT_MS): ToolsPort {
  return {
    resolve: (ref) => inner.resolve(ref),
    async call(request: ToolCallRequest): Promise<ToolCallResult> {
      const key = request.idempotencyKey;
      if (!key) return inner.call(request);
      // every ledger statement is safe to repeat (the claim is guarded by the key), so a transient
      // database failure is retried instead of failing the step
      const claimed = await retryTransientDb(
        () => db().$executeRaw`
        INSERT INTO "ToolEffect" (key, "runId", "createdAt") VALUES (${key}, ${request.runId}, now()) ON CONFLICT (key) DO NOTHING`,
        onRetry(key),
      );
      if (claimed === 1) return execute(inner, request, key);
      return replay(key, request.signal, waitMs);
    },
  };
}

async function execute(inner: ToolsPort, request: ToolCallRequest, key: string): Promise<ToolCallResult> {
  counters.executed++;
  let result: ToolCallResult;
  try {
    result = await inner.call(request);
  } catch (err) {
    result = { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  await retryTransientDb(
    () => db().toolEffect.update({ where: { key }, data: { result: result as unknown as Prisma.InputJsonValue } }),
    onRetry(key),
  );
  return result;
}

async function replay(key: string, signal: AbortSignal, waitMs: number): Promise<ToolCallResult> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const row = await retryTransientDb(
      () => db().toolEffect.findUnique({ where: { key }, select: { result: true } }),
      onRetry(key),
    );
    const parsed = row?.result == null ? null : recorded.safeParse(row.result);
    if (parsed?.success) {
      counters.replayed++;
      return parsed.data as ToolCallResult;
    }
    if (Date.now() >= deadline || signal.aborted) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  counters.unknown++;
  log.warn("side effect outcome unknown; not executing it again", { key });
  return {
    ok: false,
    error: `The side effect for ${key} was started by an earlier attempt that did not record its outcome; it is not repeated (at most once).`,
  };
}

const onRetry = (key: string) => ({
  onRetry: (err: unknown, attempt: number) =>
    log.warn("tool ledger: database unavailable, retrying", { key, attempt, err }),
});

/**
 * Wraps the registry so that a transient database failure while resolving a tool (the registry
 * reads the owner's tools and MCP servers) is retried rather than failing the step. The registry
 * reports a tool's own failures as results, never by throwing, so what throws here happened before
 * the tool ran and is safe to repeat.
 */
export function retryingTools(inner: ToolsPort): ToolsPort {
  const opts = (what: string) => ({
    onRetry: (err: unknown, attempt: number) =>
      log.warn(`tool ${what}: database unavailable, retrying`, { attempt, err }),
  });
  return {
    resolve: (ref) => retryTransientDb(() => inner.resolve(ref), opts("resolve")),
    call: (request) => retryTransientDb(() => inner.call(request), { ...opts("call"), signal: request.signal }),
  };
}

/** A ToolsPort with no tools (until a registry is wired): every ref resolves to null. */
export const noTools: ToolsPort = {
  resolve: async () => null,
  call: async (request) => ({ ok: false, error: `Tool "${request.ref.name}" is not available.` }),
};

/**
 * The engine's durable step memo on the same table as the side-effect ledger: one row per key
 * (prefixed `memo:`, so it never meets an effect's key), deleted with nothing but the run's other
 * ledger rows. A put repeats safely (the last value wins: a replay records what it replayed).
 */
export const ledgerMemo: MemoPort = {
  async get(key) {
    const row = await retryTransientDb(
      () => db().toolEffect.findUnique({ where: { key: `memo:${key}` }, select: { result: true } }),
      onRetry(key),
    );
    return row?.result ?? undefined;
  },
  async put(key, runId, value) {
    const result = value as Prisma.InputJsonValue;
    await retryTransientDb(
      () =>
        db().toolEffect.upsert({
          where: { key: `memo:${key}` },
          create: { key: `memo:${key}`, runId, result },
          update: { result },
        }),
      onRetry(key),
    );
  },
};
