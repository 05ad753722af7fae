import "server-only";
import type { Redis } from "ioredis";
import * as z from "zod";
import { createLogger } from "@/lib/logger";
import { apiRedis, createWorkerConnection } from "./connection";
import { queuePrefix } from "./names";

const log = createLogger({ component: "revocations" });

/**
 * Credential revocations, told to every process at once (Redis pub/sub) so open event streams of a
 * revoked API token, a signed-out session or a removed member close now instead of at their next periodic check,
 * and cached session versions are dropped. Best effort: a lost message costs only that wait.
 */
export const revocationSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("token"), tokenId: z.string().min(1) }),
  z.object({ kind: z.literal("user"), userId: z.string().min(1) }),
  /** a member removed from a workspace (or their role changed): their streams there re-check now */
  z.object({ kind: z.literal("member"), userId: z.string().min(1), workspaceId: z.string().min(1) }),
]);
export type Revocation = z.infer<typeof revocationSchema>;

const channel = () => `${queuePrefix()}:revocations`;
const g = globalThis as unknown as {
  __weftRevocations?: { conn: Redis; channel: string; listeners: Set<(r: Revocation) => void> };
};

/** Tells every process about a revocation (never throws). */
export async function publishRevocation(r: Revocation): Promise<void> {
  await apiRedis()
    .publish(channel(), JSON.stringify(r))
    .catch((err: unknown) => log.warn("revocation not published; streams find it at their next check", { err }));
}

function subscriber() {
  const name = channel();
  if (g.__weftRevocations?.channel === name) return g.__weftRevocations;
  g.__weftRevocations?.conn.disconnect();
  const conn = createWorkerConnection("weft-revocations");
  const listeners = new Set<(r: Revocation) => void>();
  conn.on("message", (_channel: string, raw: string) => {
    let parsed: Revocation | undefined;
    try {
      parsed = revocationSchema.parse(JSON.parse(raw));
    } catch {
      return;
    }
    for (const l of listeners) l(parsed);
  });
  conn.subscribe(name).catch((err: unknown) => log.warn("revocation channel not subscribed", { err }));
  g.__weftRevocations = { conn, channel: name, listeners };
  return g.__weftRevocations;
}

/** Calls `listener` with every revocation published from now on; returns the unsubscribe function. */
export function onRevocation(listener: (r: Revocation) => void): () => void {
  const s = subscriber();
  s.listeners.add(listener);
  return () => void s.listeners.delete(listener);
}

/** Listeners registered in this process (open streams' re-checks; S3 checks they return to baseline). */
export const revocationListenerCount = (): number => g.__weftRevocations?.listeners.size ?? 0;

/** Closes the subscriber (tests, shutdown). */
export async function closeRevocations(): Promise<void> {
  const s = g.__weftRevocations;
  g.__weftRevocations = undefined;
  if (s) await s.conn.quit().catch(() => s.conn.disconnect());
}
