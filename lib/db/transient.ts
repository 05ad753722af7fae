/**
 * Transient database failures: the server is out of connections, restarting, unreachable for a
 * moment, or the pool timed out. A statement that failed this way did nothing, so a read, an
 * idempotent write or a claim guarded by a unique key can simply be tried again; a step must not be
 * failed for it (that would turn a blip of the infrastructure into a wrong run result).
 */

/** Prisma error codes of connection-level failures (P1xxx connect/timeout, P2024 pool timeout, P2037 too many connections). */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);
/** PostgreSQL SQLSTATEs: too_many_connections, admin/crash/cannot-connect-now shutdowns, connection exceptions. */
const PG_CODES = new Set(["53300", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006"]);
const NET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN"]);
const MESSAGES =
  /too many (database )?(connections|clients)|connection terminated|timeout exceeded when trying to connect|the database system is (starting up|shutting down)|can't reach database server/i;

/** True when `err` (or its cause chain) is a connection-level database failure worth retrying. */
export function isTransientDbError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === "string" && (PRISMA_CODES.has(code) || PG_CODES.has(code) || NET_CODES.has(code))) return true;
    if (typeof message === "string" && MESSAGES.test(message)) return true;
    e = cause;
  }
  return false;
}

export interface RetryOptions {
  /** Give up (rethrow the last error) after this long; default 20 s. */
  budgetMs?: number;
  /** Stop waiting when aborted (rethrows the last error). */
  signal?: AbortSignal;
  /** Called before each wait, e.g. to log. */
  onRetry?: (err: unknown, attempt: number, waitMs: number) => void;
}

/**
 * Runs `fn`, and again after 100 ms, 200 ms, … (capped at 2 s) while it fails with a transient
 * database error, within `budgetMs`. Any other error is thrown at once. Only for operations that are
 * safe to repeat (reads, idempotent writes, claims guarded by a unique key).
 */
export async function retryTransientDb<T>(fn: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.budgetMs ?? 20_000);
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const waitMs = Math.min(2_000, 100 * 2 ** (attempt - 1));
      if (!isTransientDbError(err) || options.signal?.aborted || Date.now() + waitMs > deadline) throw err;
      options.onRetry?.(err, attempt, waitMs);
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }
}
