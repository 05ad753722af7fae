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
  /**
   * For HTTP errors, the first line of the provider's own message, for code that must tell errors
   * apart (structured.ts: "does not support tools"). Never shown or stored: `message` is what people see.
   */
  providerMessage?: string;
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

const CONNECTION =
  /ECONNRESET|ECONNREFUSED|ECONNABORTED|EPIPE|ETIMEDOUT|EAI_AGAIN|ENOTFOUND|UND_ERR_SOCKET|UND_ERR_CLOSED|socket hang up|premature close|terminated|other side closed|fetch failed|connection error/i;

/** The first error in `e`'s cause chain with this name (depth-limited). */
function causeNamed(e: unknown, name: string): Error | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur && typeof cur === "object"; i++) {
    if (cur instanceof Error && cur.name === name) return cur;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

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

/** Error codes providers put in their error bodies that may be shown (names, never text from the body). */
const KNOWN_CODES = new Set([
  "model_not_found",
  "context_length_exceeded",
  "invalid_api_key",
  "insufficient_quota",
  "rate_limit_exceeded",
  "invalid_request_error",
  "authentication_error",
  "permission_error",
  "not_found_error",
  "server_error",
  "overloaded_error",
]);

/**
 * What a provider's HTTP error is called where people see it: its status in words and, when the
 * provider named one of KNOWN_CODES, that code. Never the error body: a base URL pointed at another
 * service would have its answer echoed into the step or the designer.
 */
export function statusSummary(status: number, kind: ProviderErrorKind, code?: unknown): string {
  const words: Partial<Record<ProviderErrorKind, string>> = {
    auth: "the provider refused the API key",
    rate_limit: "the provider is rate limiting",
    server: "the provider had an error",
    not_found: "the provider does not know this model or endpoint",
    context_overflow: "the prompt is longer than the model's context window",
    timeout: "the provider timed out",
  };
  const named = typeof code === "string" && KNOWN_CODES.has(code) ? `, ${code}` : "";
  if (status < 400)
    return `the provider answered with a redirect, which is not followed; use the URL it points to (HTTP ${status})`;
  return `${words[kind] ?? "the provider refused the request"} (HTTP ${status}${named})`;
}

/**
 * Classifies anything thrown by the OpenAI SDK / LangChain: HTTP status errors (with retry-after;
 * the message is statusSummary, never the body), timeouts, aborts, socket failures (reset, hang up,
 * premature close, terminated streams), and the SSRF guard's refusal of a user's provider address.
 */
export function toProviderError(e: unknown): ProviderError {
  if (e instanceof ProviderError) return e;
  const o = (e && typeof e === "object" ? e : {}) as {
    status?: unknown;
    headers?: unknown;
    name?: unknown;
    message?: unknown;
    code?: unknown;
    type?: unknown;
  };
  const message = typeof o.message === "string" ? o.message.split("\n")[0]! : String(e);
  if (typeof o.status === "number" && o.status >= 300) {
    const kind = o.status < 400 ? "bad_request" : kindOfStatus(o.status, message);
    const summary = statusSummary(o.status, kind, KNOWN_CODES.has(String(o.code)) ? o.code : o.type);
    const error = new ProviderError(kind, summary, o.status, retryAfterOf(o.headers), { cause: e });
    error.providerMessage = message;
    return error;
  }
  const refused = causeNamed(e, "ProviderAddressRefused");
  if (refused) return new ProviderError("bad_request", refused.message, undefined, undefined, { cause: e });
  if (o.name === "ContextOverflowError")
    return new ProviderError("context_overflow", message, undefined, undefined, { cause: e });
  if (o.name === "TimeoutError" || /timed out|timeout/i.test(message))
    return new ProviderError("timeout", message, undefined, undefined, { cause: e });
  if (o.name === "AbortError" || /aborted/i.test(message))
    return new ProviderError("aborted", message, undefined, undefined, { cause: e });
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
  return new ProviderError("aborted", reason?.message ?? "The call was aborted.", undefined, undefined, {
    cause: signal.reason,
  });
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
export async function withRetry<T>(
  fn: (attempt: number) => Promise<T>,
  o: RetryOptions = {},
): Promise<{ value: T; attempts: number }> {
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
