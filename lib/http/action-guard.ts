import { AppError } from "@/lib/errors";
import {
  badTextReason,
  checkJsonTextDepth,
  checkJsonValue,
  decodeUtf8Strict,
  jsonLimits,
  tooLarge,
  type JsonLimits,
} from "./json-guard";

/**
 * The JSON guard for server actions, run by proxy.ts BEFORE Next decodes an action's payload (Next
 * answers 500 to a payload over its own limit, and an argument PostgreSQL refuses fails mid-write).
 * A server action is a POST carrying `Next-Action`, or a multipart POST to a page (a form posted
 * without JavaScript). Its body must declare its length (411), stay within WEFT_JSON_MAX_BYTES
 * (413), be UTF-8, carry no file, and every field — each a React-encoded JSON row or plain text —
 * must pass the same checks as a JSON body: depth, NUL, unpaired surrogates (400). A fetch action's
 * arguments must be JSON rows as React sends them (400 otherwise). Rows that are JSON but not what
 * React's decoder expects are still Next's to refuse (docs/security.md, known limits).
 */

/** True when the request is (or claims to be) a server action call. */
export function isServerActionRequest(request: Request): boolean {
  if (request.method !== "POST") return false;
  if (request.headers.has("next-action")) return true;
  return /^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "");
}

const answer = (status: number, code: string, message: string, details: unknown = null) =>
  Response.json({ error: { code, message, details } }, { status, headers: { "Cache-Control": "no-store" } });

/** A refusal as the proxy answers it (`{error:{code,message,details}}`). */
function refusalOf(err: AppError): Response {
  return answer(err.status, err.code, err.message, err.details ?? null);
}

/** One field of an action payload: plain text, or a JSON row (checked on its text first, then parsed). */
function checkField(value: string, limits: JsonLimits, name: string): void {
  const bad = badTextReason(value);
  if (bad) throw new AppError("bad_request", `The field ${JSON.stringify(name)} ${bad}.`, { field: name });
  if (!/^\s*[[{]/.test(value)) return;
  checkJsonTextDepth(value, limits.maxDepth);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return; // text that only looks like JSON: a plain string argument
  }
  checkJsonValue(parsed, limits.maxDepth, name);
}

/** True when `value` is a JSON text (React's encoding of an action's arguments is). */
function isJsonText(value: string): boolean {
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}

const notEncoded = () =>
  new AppError(
    "bad_request",
    "The server action's payload is not in the encoding the app sends (a JSON row per argument).",
  );

async function checkFields(request: Request, text: string, limits: JsonLimits): Promise<void> {
  const header = request.headers.get("content-type") ?? "";
  const type = header.toLowerCase();
  // a fetch action (Next-Action) carries its arguments as React encodes them: a JSON row, or form
  // fields with the root row in "0"; anything else would fail in Next's decoder as a 500
  const fetchAction = request.headers.has("next-action");
  if (type.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      // the boundary is case-sensitive: the header as sent
      form = await new Response(text, { headers: { "content-type": header } }).formData();
    } catch {
      throw new AppError("bad_request", "The form data of this request does not parse.");
    }
    for (const [name, value] of form.entries()) {
      if (typeof value !== "string") {
        throw new AppError("unsupported_media_type", `Server actions take no files (field ${JSON.stringify(name)}).`, {
          field: name,
        });
      }
      checkField(value, limits, name);
    }
    const root = form.get("0");
    if (fetchAction && (typeof root !== "string" || !isJsonText(root))) throw notEncoded();
    return;
  }
  if (type.startsWith("application/x-www-form-urlencoded")) {
    for (const [name, value] of new URLSearchParams(text)) checkField(value, limits, name);
    if (fetchAction) throw notEncoded();
    return;
  }
  checkField(text, limits, "body");
  if (fetchAction && !isJsonText(text)) throw notEncoded();
}

/**
 * Checks a server action request; answers the refusal to send (411, 413, 415 or 400, naming the
 * limit or the field at fault) or null to let it through. Reads at most `limits.maxBytes`.
 */
export async function checkServerActionRequest(
  request: Request,
  limits: JsonLimits = jsonLimits(),
): Promise<Response | null> {
  const length = request.headers.get("content-length");
  if (length === null || !/^\d+$/.test(length)) {
    return answer(411, "length_required", "Server action requests must state their Content-Length.");
  }
  if (Number(length) > limits.maxBytes) return refusalOf(tooLarge(limits.maxBytes, "The server action's payload"));
  try {
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > limits.maxBytes) throw tooLarge(limits.maxBytes, "The server action's payload");
    await checkFields(request, decodeUtf8Strict(bytes, "The server action's payload"), limits);
    return null;
  } catch (err) {
    if (err instanceof AppError) return refusalOf(err);
    throw err;
  }
}
