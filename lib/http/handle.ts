import "server-only";
import * as z from "zod";
import { refuseCrossSite } from "@/lib/http/same-origin";
import { AppError } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/json-guard";
import { createLogger } from "@/lib/logger";
import { requireCaller, type Caller } from "./caller";

const log = createLogger({ component: "api" });

/** `{error:{code,message,details}}` with the status of lib/errors; unknown errors are 500 and logged. */
export function errorResponse(err: unknown): Response {
  if (err instanceof AppError) {
    const headers: Record<string, string> = {};
    if (err.retryAfterSeconds) headers["Retry-After"] = String(err.retryAfterSeconds);
    return Response.json(
      { error: { code: err.code, message: err.message, details: err.details ?? null } },
      { status: err.status, headers },
    );
  }
  if (err instanceof z.ZodError) {
    return Response.json(
      { error: { code: "bad_request", message: "Invalid request.", details: z.treeifyError(err) } },
      { status: 400 },
    );
  }
  log.error("unhandled route error", { err });
  return Response.json(
    { error: { code: "internal", message: "Something went wrong.", details: null } },
    { status: 500 },
  );
}

/** Runs a route body and turns thrown errors into error responses. */
export async function handle(fn: () => Promise<Response>): Promise<Response> {
  try {
    return await fn();
  } catch (err) {
    return errorResponse(err);
  }
}

/**
 * The caller of a mutating route (W4): a request without a bearer token (so, a cookie session) must
 * come from our own origin (Origin / Sec-Fetch-Site, no text/plain or form bodies), checked BEFORE
 * the session is even looked at; a bearer-token caller carries no ambient credential, so
 * cross-origin checks do not apply to it. Throws 401/403 AppErrors.
 */
export async function requireMutationCaller(request: Request): Promise<Caller> {
  if (!request.headers.has("authorization") && refuseCrossSite(request)) {
    throw new AppError("forbidden", "Cross-site request refused.");
  }
  return requireCaller(request);
}

/**
 * Parses a JSON body with `schema` through the JSON guard (lib/http/json-guard.ts: size 413, type
 * 415, UTF-8, depth, NUL and lone surrogates 400); an empty body parses as {}. Schema errors are 400.
 */
export async function jsonBody<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  const raw = await readJsonBody(request);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new AppError("bad_request", "Invalid request body.", z.treeifyError(parsed.error));
  return parsed.data;
}

/** Longest Idempotency-Key accepted. */
export const IDEMPOTENCY_KEY_MAX = 200;

/**
 * The request's `Idempotency-Key` header (undefined without one): 1–200 visible ASCII characters,
 * else bad_request. Callers namespace it (per webhook, per workflow) before startRun sees it.
 */
export function idempotencyKeyOf(request: Request): string | undefined {
  const raw = request.headers.get("idempotency-key");
  if (raw === null) return undefined;
  const key = raw.trim();
  if (!key || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(key)) {
    throw new AppError("bad_request", `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters.`);
  }
  return key;
}
