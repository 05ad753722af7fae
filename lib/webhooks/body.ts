import { AppError } from "@/lib/errors";
import { parseJsonText } from "@/lib/http/json-guard";
import type { Field } from "@/lib/workflow/schema";
import type { WebhookInputMode } from "@/lib/db/webhooks";

/** A request body as received: its Content-Type header and its text. */
export interface ReceivedBody {
  contentType: string | null;
  text: string;
}

type Parsed =
  | { kind: "empty" }
  | { kind: "json"; value: unknown }
  | { kind: "form"; value: Record<string, string> }
  | { kind: "text"; value: string };

export type BodyInputs = { ok: true; inputs: Record<string, unknown> } | { ok: false; message: string };

const mediaType = (contentType: string | null) => (contentType ?? "").split(";")[0]!.trim().toLowerCase();

/**
 * The body as JSON (a `json` or `+json` media type, or no type and text that starts like JSON), as
 * form fields (`application/x-www-form-urlencoded`, the last value of a repeated key), else text.
 */
function parseBody(body: ReceivedBody): { ok: true; parsed: Parsed } | { ok: false; message: string } {
  const type = mediaType(body.contentType);
  const text = body.text;
  if (text.trim() === "") return { ok: true, parsed: { kind: "empty" } };
  const jsonType = type === "application/json" || type.endsWith("+json");
  if (jsonType || (type === "" && /^\s*[[{"]/.test(text))) {
    try {
      return { ok: true, parsed: { kind: "json", value: parseJsonText(text) } };
    } catch (err) {
      return { ok: false, message: err instanceof AppError ? err.message : "The body is not valid JSON." };
    }
  }
  if (type === "application/x-www-form-urlencoded")
    return { ok: true, parsed: { kind: "form", value: Object.fromEntries(new URLSearchParams(text)) } };
  return { ok: true, parsed: { kind: "text", value: text } };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A webhook call's run inputs. `fields`: the body (a JSON object or form fields) gives the inputs of
 * the same names; keys the workflow does not declare are left out, so a sender's whole event can be
 * posted as it is. `payload`: the whole body goes into one input field — the parsed JSON for a
 * `json` field, else the body's text. Types and required fields are checked later, by startRun,
 * like any other start.
 */
export function webhookInputs(
  fields: readonly Field[],
  mode: WebhookInputMode,
  payloadField: string | null,
  body: ReceivedBody,
): BodyInputs {
  const parsed = parseBody(body);
  if (!parsed.ok) return parsed;
  const p = parsed.parsed;
  if (mode === "payload") {
    const field = fields.find((f) => f.key === payloadField);
    if (!field)
      return {
        ok: false,
        message: `This webhook passes the body to the input field "${payloadField ?? ""}", which the workflow's newest saved version does not have.`,
      };
    // an empty body leaves the field out: startRun then says whether the workflow requires it
    if (p.kind === "empty") return { ok: true, inputs: {} };
    return { ok: true, inputs: { [field.key]: field.type === "json" ? p.value : body.text } };
  }
  if (p.kind === "empty") return { ok: true, inputs: {} };
  const source = p.kind === "form" ? p.value : p.kind === "json" && isObject(p.value) ? p.value : null;
  if (!source) {
    const names = fields.map((f) => f.key).join(", ") || "none";
    return {
      ok: false,
      message: `Send a JSON object (or form fields) whose keys are the workflow's input fields (${names}), or make the webhook pass the whole body to one field.`,
    };
  }
  const inputs: Record<string, unknown> = {};
  for (const f of fields) if (Object.hasOwn(source, f.key)) inputs[f.key] = source[f.key];
  return { ok: true, inputs };
}
