import "server-only";

/** Why a provider call failed. Retryable: rate_limit, server, timeout, connection. */
export type ProviderErrorKind =
  | "rate_limit"
  | "server"
  | "timeout"
  | "connection"
  | "auth"
  | "bad_request"
  | "not_found"
  | "context_overflow"
  | "aborted"
  | "unknown";

const RETRYABLE: Record<ProviderErrorKind, boolean> = {
  rate_limit: true,
  server: true,
  timeout: true,
  connection: true,
  auth: false,
  bad_request: false,
  not_found: false,
  context_overflow: false,
  aborted: false,
  unknown: false,
};

/** A classified failure of a model provider call (after lib/llm's own retries, if thrown by them). */
export class ProviderError extends Error {
  readonly retryable: boolean;
  /** Attempts made before giving up (set by withRetry; 1 when it failed at once). */
  attempts = 1;
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
    /** The provider's requested wait (retry-after / retry-after-ms), when it sent one. */
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ProviderError";
    this.retryable = RETRYABLE[kind];
  }
}

/** Parses a retry-after value: delta seconds ("1", "1.5") or an HTTP date. Undefined when absent/invalid. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value == null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function header(headers: unknown, name: string): string | null {
  if (!headers || typeof headers !== "object") return null;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
  const v = (headers as Record<string, unknown>)[name];
  return typeof v === "string" ? v : null;
}

function retryAfterOf(headers: unknown): number | undefined {
  const ms = Number(header(headers, "retry-after-ms"));
  if (header(headers, "retry-after-ms") !== null && Number.isFinite(ms) && ms >= 0) return ms;
  return parseRetryAfter(header(headers, "retry-after"));
}

function kindOfStatus(status: number, message: string): ProviderErrorKind {
  if (status === 429) return "rate_limit";
  if (status === 408) return "timeout";
  if (status === 409 || status >= 500) return "server";
  if (status === 401 || status === 403) return "auth";
  if (status === 404) return "not_found";
  if (/context_length_exceeded|maximum context length|context window/i.test(message)) return "context_overflow";
  return "bad_request";
}

const CONNECTION = /ECONNRESET|ECONNREFUSED|ECONNABORTED|EPIPE|ETIMEDOUT|EAI_AGAIN|ENOTFOUND|UND_ERR_SOCKET|UND_ERR_CLOSED|socket hang up|premature close|terminated|other side closed|fetch failed|connection error/i;

/** The messages and codes of an error and its causes (depth-limited). */
function chain(e: unknown): string {
  const parts: string[] = [];
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur && typeof cur === "object"; i++) {
    const o = cur as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown };
    parts.push(String(o.name ?? ""), String(o.message ?? ""), String(o.code ?? ""));
    cur = o.cause;
  }
  return parts.join(" ");
}

/**
 * Classifies anything thrown by the OpenAI SDK / LangChain: HTTP status errors (with retry-after),
 * timeouts, aborts, socket failures (reset, hang up, premature close, terminated streams).
 */
export function toProviderError(e: unknown): ProviderError {
  if (e instanceof ProviderError) return e;
  const o = (e && typeof e === "object" ? e : {}) as { status?: unknown; headers?: unknown; name?: unknown; message?: unknown };
  const message = typeof o.message === "string" ? o.message.split("\n")[0]! : String(e);
  if (typeof o.status === "number" && o.status >= 400) {
    const kind = kindOfStatus(o.status, message);
    return new ProviderError(kind, message, o.status, retryAfterOf(o.headers), { cause: e });
  }
  if (o.name === "ContextOverflowError") return new ProviderError("context_overflow", message, undefined, undefined, { cause: e });
  if (o.name === "TimeoutError" || /timed out|timeout/i.test(message)) return new ProviderError("timeout", message, undefined, undefined, { cause: e });
  if (o.name === "AbortError" || /aborted/i.test(message)) return new ProviderError("aborted", message, undefined, undefined, { cause: e });
  if (CONNECTION.test(chain(e))) return new ProviderError("connection", message, undefined, undefined, { cause: e });
  return new ProviderError("unknown", message, undefined, undefined, { cause: e });
}

/** Retry policy; every field has a default. */
export interface RetryOptions {
  /** Total attempts including the first; default 4. */
  maxAttempts?: number;
  /** Backoff base: attempt n waits base·2^(n-1) ms before jitter; default 500. */
  baseDelayMs?: number;
  /** Cap of the exponential backoff; default 20 000. */
  maxDelayMs?: number;
  /** Cap of a provider's retry-after; default 60 000. */
  maxRetryAfterMs?: number;
  /** Aborts waiting and further attempts (the error is a ProviderError of kind "aborted"). */
  signal?: AbortSignal;
  /** Called before each wait, e.g. to log or emit a run event. */
  onRetry?: (info: { attempt: number; delayMs: number; error: ProviderError }) => void;
  /** Random source in [0, 1) for jitter; default Math.random. */
  random?: () => number;
}

/**
 * The wait before the next attempt: the provider's retry-after when given (capped), else
 * exponential backoff with "equal jitter" (half fixed, half random).
 */
export function retryDelay(attempt: number, error: ProviderError, o: RetryOptions = {}): number {
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, o.maxRetryAfterMs ?? 60_000);
  const exp = Math.min(o.maxDelayMs ?? 20_000, (o.baseDelayMs ?? 500) * 2 ** (attempt - 1));
  return Math.round(exp / 2 + (o.random ?? Math.random)() * (exp / 2));
}

function abortError(signal: AbortSignal): ProviderError {
  const reason = signal.reason as { message?: string } | undefined;
  return new ProviderError("aborted", reason?.message ?? "The call was aborted.", undefined, undefined, { cause: signal.reason });
}

/** Sleeps `ms`, rejecting early with an aborted ProviderError when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs `fn` until it succeeds, a permanent error occurs, attempts run out or the signal aborts.
 * Throws the last error as a ProviderError. Returns the value and how many attempts it took.
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, o: RetryOptions = {}): Promise<{ value: T; attempts: number }> {
  const max = Math.max(1, o.maxAttempts ?? 4);
  for (let attempt = 1; ; attempt++) {
    if (o.signal?.aborted) throw abortError(o.signal);
    try {
      return { value: await fn(attempt), attempts: attempt };
    } catch (e) {
      const error = o.signal?.aborted ? abortError(o.signal) : toProviderError(e);
      if (!error.retryable || attempt >= max) {
        error.attempts = attempt;
        throw error;
      }
      const delayMs = retryDelay(attempt, error, o);
      o.onRetry?.({ attempt, delayMs, error });
      await sleep(delayMs, o.signal);
    }
  }
}
