import { envSchema } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { readLimitedBody } from "./limited-body";

/**
 * The one guard for JSON that reaches the app from outside: REST bodies (readJsonBody), server
 * action payloads (lib/http/action-guard.ts) and any JSON text a module parses from a request
 * (parseJsonText). It refuses, before anything is stored, what PostgreSQL or the parser would choke
 * on: bodies over the size limit (413), nesting deeper than the depth limit (400, checked on the
 * text before JSON.parse so a hostile body cannot exhaust the stack), bytes that are not UTF-8,
 * NUL characters and unpaired UTF-16 surrogates in any string or key (400), and non-JSON content
 * types (415). Every refusal names the limit or the place at fault.
 */

/** Size and depth limits; defaults 1 MiB and 64 levels (WEFT_JSON_MAX_BYTES, WEFT_JSON_MAX_DEPTH). */
export interface JsonLimits {
  maxBytes: number;
  maxDepth: number;
}

const limitsEnv = envSchema.pick({ WEFT_JSON_MAX_BYTES: true, WEFT_JSON_MAX_DEPTH: true });

let cached: { raw: readonly [string | undefined, string | undefined]; limits: JsonLimits } | undefined;

/**
 * The limits of this process, from WEFT_JSON_MAX_BYTES and WEFT_JSON_MAX_DEPTH (lib/env.ts checks
 * them at start-up; read here on their own so the proxy needs none of the app's secrets).
 */
export function jsonLimits(source: Record<string, string | undefined> = process.env): JsonLimits {
  const raw = [source.WEFT_JSON_MAX_BYTES || undefined, source.WEFT_JSON_MAX_DEPTH || undefined] as const;
  if (cached && cached.raw[0] === raw[0] && cached.raw[1] === raw[1]) return cached.limits;
  const e = limitsEnv.parse({ WEFT_JSON_MAX_BYTES: raw[0], WEFT_JSON_MAX_DEPTH: raw[1] });
  cached = { raw, limits: { maxBytes: e.WEFT_JSON_MAX_BYTES, maxDepth: e.WEFT_JSON_MAX_DEPTH } };
  return cached.limits;
}

/** The limits when nothing is configured: 1 MiB, 64 levels. */
export const DEFAULT_JSON_LIMITS: JsonLimits = jsonLimits({});

/** "1 MB", "512 KB" or "900 bytes": a limit as people read it. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_048_576) return `${+(bytes / 1_048_576).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

/** 413: the body is over the size limit. */
export function tooLarge(limit: number, what = "The request body"): AppError {
  return new AppError("too_large", `${what} is larger than ${formatBytes(limit)}, the limit (WEFT_JSON_MAX_BYTES).`, {
    limit: "WEFT_JSON_MAX_BYTES",
    maxBytes: limit,
  });
}

const tooDeep = (limit: number, path: string) =>
  new AppError(
    "bad_request",
    `The JSON nests deeper than ${limit} levels at ${path}, the limit (WEFT_JSON_MAX_DEPTH).`,
    {
      limit: "WEFT_JSON_MAX_DEPTH",
      maxDepth: limit,
      path,
    },
  );

/**
 * Nesting depth of JSON text, counted without parsing (brackets outside strings). Throws 400 as
 * soon as it passes `maxDepth`; text that is not JSON at all is left to JSON.parse.
 */
export function checkJsonTextDepth(text: string, maxDepth: number): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) throw tooDeep(maxDepth, `character ${i + 1}`);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be stored as text (a NUL or an unpaired surrogate), or null. */
export function badTextReason(s: string): string | null {
  if (s.includes("\u0000")) return "contains a NUL character (\\u0000), which cannot be stored";
  const lone = LONE_SURROGATE.exec(s);
  if (lone)
    return `contains an unpaired UTF-16 surrogate (\\u${lone[0].charCodeAt(0).toString(16)}), which is not valid Unicode`;
  return null;
}

const pathOf = (parent: string, key: string | number) =>
  typeof key === "number"
    ? `${parent}[${key}]`
    : /^[A-Za-z_$][\w$]*$/.test(key)
      ? `${parent}.${key}`
      : `${parent}[${JSON.stringify(key)}]`;

/**
 * Checks a parsed value: depth ≤ maxDepth, and no string or key with a NUL or an unpaired surrogate.
 * Iterative, so any depth is safe to check. Throws 400 naming the path (`root` names the value, default $).
 */
export function checkJsonValue(value: unknown, maxDepth: number = DEFAULT_JSON_LIMITS.maxDepth, root = "$"): void {
  const stack: Array<{ v: unknown; path: string; depth: number }> = [{ v: value, path: root, depth: 0 }];
  while (stack.length) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === "string") {
      const bad = badTextReason(v);
      if (bad) throw new AppError("bad_request", `The text at ${path} ${bad}.`, { path });
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (depth + 1 > maxDepth) throw tooDeep(maxDepth, path);
    if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ v: item, path: pathOf(path, i), depth: depth + 1 }));
      continue;
    }
    for (const [k, item] of Object.entries(v)) {
      const bad = badTextReason(k);
      if (bad) throw new AppError("bad_request", `A key in ${path} ${bad}.`, { path });
      stack.push({ v: item, path: pathOf(path, k), depth: depth + 1 });
    }
  }
}

/** Parses JSON text through the guard: depth first (on the text), then JSON.parse, then checkJsonValue. */
export function parseJsonText(text: string, limits: JsonLimits = jsonLimits(), what = "The body"): unknown {
  checkJsonTextDepth(text, limits.maxDepth);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // where it broke, never the parser's own words: they quote the text, which must not be echoed or logged
    const at = err instanceof SyntaxError ? /position (\d+)/.exec(err.message)?.[1] : undefined;
    throw new AppError("bad_request", `${what} is not valid JSON${at ? ` (at character ${Number(at) + 1})` : ""}.`);
  }
  checkJsonValue(value, limits.maxDepth);
  return value;
}

/** Decodes UTF-8 strictly; malformed bytes are a 400. */
export function decodeUtf8Strict(bytes: Uint8Array, what = "The body"): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("bad_request", `${what} is not valid UTF-8.`);
  }
}

/** True for application/json and any type/subtype+json media type. */
export function isJsonContentType(header: string | null): boolean {
  const type = (header ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || /^[a-z]+\/[a-z0-9.+-]+\+json$/.test(type);
}

/** Options of readJsonBody. */
export interface ReadJsonOptions {
  limits?: JsonLimits;
  /** What an empty body stands for; default {} (routes whose every field is optional). */
  empty?: unknown;
}

/**
 * Reads a request's JSON body through the guard: Content-Length over the limit is refused before
 * reading, a longer stream is cut at the first byte past it (413); a body declared as anything but
 * JSON is 415; then strict UTF-8, depth, parse and the value check (400). An empty body is `empty`.
 */
export async function readJsonBody(request: Request, options: ReadJsonOptions = {}): Promise<unknown> {
  const limits = options.limits ?? jsonLimits();
  const bytes = await readBodyBytes(request, limits.maxBytes);
  if (bytes.byteLength === 0) return options.empty ?? {};
  if (!isJsonContentType(request.headers.get("content-type"))) {
    throw new AppError("unsupported_media_type", "Send the body as JSON, with Content-Type: application/json.", {
      contentType: request.headers.get("content-type"),
    });
  }
  const text = decodeUtf8Strict(bytes);
  if (text.trim() === "") return options.empty ?? {};
  return parseJsonText(text, limits);
}

/** The body's bytes, at most `limit` (413 past it; the rest is never read). */
export async function readBodyBytes(request: Request, limit: number): Promise<Uint8Array> {
  const bytes = await readLimitedBody(request, limit);
  if (!bytes) throw tooLarge(limit);
  return bytes;
}
