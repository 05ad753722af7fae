/**
 * The bad-input corpus: hostile and malformed requests every route and server action of Weft must
 * answer with a clear 4xx while storing nothing. Pure data: `e2e/bad-input.spec.ts` sends it to the
 * real built app (routes, server actions through Next, the proxy), `hostile-urls.test.ts` hands the
 * URL part to the SSRF guard. Every string value that could be stored carries MARKER, so the runner
 * can look for it in every table afterwards.
 */

/** Put in every value a payload could store; found in no table after the corpus ran. */
export const MARKER = "corpus-7e1c5a";

/** A request body: text, or raw bytes (for invalid UTF-8). */
export type Body = string | Uint8Array;

/** One bad body, with the content type it is sent as (null: no Content-Type header at all). */
export interface Payload {
  name: string;
  contentType: string | null;
  body: Body;
  /** Sent with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
}

const JSON_TYPE = "application/json";
const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...new TextEncoder().encode(p)] : p)));
const nest = (depth: number, open = "[", close = "]", leaf = `"${MARKER}"`) =>
  open.repeat(depth) + leaf + close.repeat(depth);
const objects = (depth: number) => `${'{"a":'.repeat(depth)}"${MARKER}"${"}".repeat(depth)}`;

/** Malformed JSON sent as application/json: each must be a 400 "not valid JSON". */
export const malformedJson: Payload[] = [
  ["truncated", `{"inputs":{"topic":"${MARKER}"`],
  ["trailing comma", `{"inputs":{"topic":"${MARKER}",},}`],
  ["single quotes", `{'inputs':{'topic':'${MARKER}'}}`],
  ["NaN", `{"inputs":{"topic":NaN},"m":"${MARKER}"}`],
  ["undefined", `{"inputs":undefined,"m":"${MARKER}"}`],
  ["unclosed array", `[1,2,"${MARKER}"`],
  ["raw control character", `{"m":"${MARKER}\u0001"}`],
  ["reversed braces", `}"${MARKER}"{`],
  ["invalid escape", `{"m":"${MARKER}\\x41"}`],
  ["two documents", `{"m":"${MARKER}"}{"n":1}`],
  ["comment", `{"m":"${MARKER}" /* hi */}`],
  ["bare word", `hello ${MARKER}`],
].map(([name, body]) => ({ name: `malformed JSON: ${name}`, contentType: JSON_TYPE, body: body! }));

/** Nesting past WEFT_JSON_MAX_DEPTH (64), down to a depth JSON.parse itself could not survive. */
export const deepJson: Payload[] = [
  { name: "65 nested arrays", contentType: JSON_TYPE, body: `{"inputs":{"topic":${nest(65)}}}` },
  { name: "65 nested objects", contentType: JSON_TYPE, body: `{"inputs":${objects(65)}}` },
  { name: "1,000 mixed levels", contentType: JSON_TYPE, body: `{"m":${nest(500, '[{"a":', "}]")}}` },
  { name: "350,000 nested arrays (700 KB)", contentType: JSON_TYPE, body: nest(350_000, "[", "]", "1") },
];

/** Text PostgreSQL or a strict decoder refuses: each a 400 naming the problem. */
export const badUnicode: Payload[] = [
  {
    name: "invalid UTF-8 byte",
    contentType: JSON_TYPE,
    body: bytes(`{"inputs":{"topic":"${MARKER}`, [0xff, 0xfe], `"}}`),
  },
  {
    name: "overlong UTF-8 encoding",
    contentType: JSON_TYPE,
    body: bytes(`{"inputs":{"topic":"${MARKER}`, [0xc0, 0xaf], `"}}`),
  },
  {
    name: "truncated multibyte sequence",
    contentType: JSON_TYPE,
    body: bytes(`{"inputs":{"topic":"${MARKER}`, [0xe2, 0x82], `"}}`),
  },
  {
    name: "UTF-8-encoded surrogate",
    contentType: JSON_TYPE,
    body: bytes(`{"inputs":{"topic":"${MARKER}`, [0xed, 0xa0, 0x80], `"}}`),
  },
  {
    name: "UTF-16 body",
    contentType: JSON_TYPE,
    body: new Uint8Array([0xff, 0xfe, ...[...`{"m":"${MARKER}"}`].flatMap((c) => [c.charCodeAt(0), 0])]),
  },
  {
    name: "escaped NUL",
    contentType: JSON_TYPE,
    body: `{"inputs":{"topic":"${MARKER}\\u0000"},"reason":"${MARKER}\\u0000"}`,
  },
  {
    name: "escaped lone high surrogate",
    contentType: JSON_TYPE,
    body: `{"inputs":{"topic":"${MARKER}\\ud800"},"reason":"${MARKER}\\ud800"}`,
  },
  {
    name: "escaped lone low surrogate",
    contentType: JSON_TYPE,
    body: `{"inputs":{"topic":"\\udc00${MARKER}"},"reason":"\\udc00${MARKER}"}`,
  },
  {
    name: "reversed surrogate pair",
    contentType: JSON_TYPE,
    body: `{"inputs":{"topic":"${MARKER}\\udc00\\ud800"},"reason":"${MARKER}\\udc00\\ud800"}`,
  },
  {
    name: "NUL in a key",
    contentType: JSON_TYPE,
    body: `{"inputs":{"to\\u0000pic":"${MARKER}"},"re\\u0000ason":"${MARKER}"}`,
  },
  { name: "raw NUL byte", contentType: JSON_TYPE, body: bytes(`{"inputs":{"topic":"${MARKER}`, [0x00], `"}}`) },
];

/** Bodies not declared as JSON: 415 (403 where a cookie session is refused form and text bodies first). */
export const wrongContentType: Payload[] = [
  { name: "text/plain", contentType: "text/plain;charset=UTF-8", body: `{"inputs":{"topic":"${MARKER}"}}` },
  { name: "form", contentType: "application/x-www-form-urlencoded", body: `inputs=${MARKER}` },
  {
    name: "multipart",
    contentType: "multipart/form-data; boundary=----corpusBoundary7e1c",
    body: `------corpusBoundary7e1c\r\nContent-Disposition: form-data; name="inputs"\r\n\r\n${MARKER}\r\n------corpusBoundary7e1c--\r\n`,
  },
  { name: "XML", contentType: "application/xml", body: `<inputs><topic>${MARKER}</topic></inputs>` },
  { name: "octet stream", contentType: "application/octet-stream", body: `{"inputs":{"topic":"${MARKER}"}}` },
  { name: "no content type", contentType: null, body: `{"inputs":{"topic":"${MARKER}"}}` },
];

/** Well-formed JSON of the wrong shape: 400 from the route's schema. */
export const wrongShape: Payload[] = [
  ["array", `["${MARKER}"]`],
  ["string", `"${MARKER}"`],
  ["number", "42"],
  ["null", "null"],
  ["boolean", "true"],
].map(([name, body]) => ({ name: `wrong shape: ${name}`, contentType: JSON_TYPE, body: body! }));

/** Over WEFT_JSON_MAX_BYTES (1 MiB): 413, whether declared or streamed. */
export const oversized: Payload[] = [
  {
    name: "1 MiB + 1 KB string",
    contentType: JSON_TYPE,
    body: `{"inputs":{"topic":"${MARKER}${"x".repeat(1_049_600)}"}}`,
  },
  {
    name: "3 MB streamed without a length",
    contentType: JSON_TYPE,
    body: `{"inputs":{"topic":"${MARKER}${"y".repeat(3_000_000)}"}}`,
    chunked: true,
  },
];

/** A JSON route: where it is and who may call it. */
export interface JsonRoute {
  name: string;
  method: "POST" | "PUT";
  /** With {workflowId}, {runId}, {secret}, {scheduleId} placeholders. */
  path: string;
  auth: "token" | "session" | "none";
  /** The payload families it is held to (a webhook takes any text, so only JSON-declared bodies). */
  families: Payload[][];
}

const all = [malformedJson, deepJson, badUnicode, wrongContentType, wrongShape, oversized];

/** Every JSON route of the app. */
export const jsonRoutes: JsonRoute[] = [
  { name: "start a run", method: "POST", path: "/api/workflows/{workflowId}/runs", auth: "token", families: all },
  { name: "cancel a run", method: "POST", path: "/api/runs/{runId}/cancel", auth: "token", families: all },
  { name: "answer a review", method: "POST", path: "/api/runs/{runId}/answer", auth: "token", families: all },
  { name: "create a share link", method: "POST", path: "/api/runs/{runId}/share", auth: "token", families: all },
  {
    name: "add a schedule",
    method: "POST",
    path: "/api/workflows/{workflowId}/schedules",
    auth: "token",
    families: all,
  },
  {
    name: "replace a schedule",
    method: "PUT",
    path: "/api/workflows/{workflowId}/schedules/{scheduleId}",
    auth: "token",
    families: all,
  },
  { name: "add a webhook", method: "POST", path: "/api/workflows/{workflowId}/webhooks", auth: "token", families: all },
  {
    name: "add a notification URL",
    method: "POST",
    path: "/api/workflows/{workflowId}/notifiers",
    auth: "token",
    families: all,
  },
  {
    name: "simplify a workflow",
    method: "POST",
    path: "/api/workflows/{workflowId}/simplify",
    auth: "token",
    families: all,
  },
  // the designer counts a request against its limit (20 a minute) before reading it: a sample of each family
  {
    name: "designer",
    method: "POST",
    path: "/api/designer",
    auth: "token",
    families: [
      malformedJson.slice(0, 4),
      deepJson.slice(0, 2),
      badUnicode.slice(0, 5),
      wrongContentType.slice(0, 3),
      wrongShape.slice(0, 2),
      oversized,
    ],
  },
  {
    name: "MCP",
    method: "POST",
    path: "/api/mcp",
    auth: "token",
    families: [malformedJson, deepJson, badUnicode, wrongContentType, oversized],
  },
  { name: "create a tool (dialog)", method: "POST", path: "/tools/create", auth: "session", families: all },
  {
    name: "webhook call",
    method: "POST",
    path: "/api/hooks/{secret}",
    auth: "none",
    families: [malformedJson, deepJson, badUnicode, oversized],
  },
];

/** A server action the runner calls by name (from the build's server-reference manifest). */
export interface ActionTarget {
  name: string;
  file: string;
  /** Needs a signed-in session. */
  session: boolean;
}

export const actionTargets: ActionTarget[] = [
  { name: "saveDraftAction", file: "app/(app)/workflows/[id]/edit/actions.ts", session: true },
  { name: "saveProviderAction", file: "app/(app)/settings/actions.ts", session: true },
  { name: "savePricesAction", file: "app/(app)/settings/price-actions.ts", session: true },
  { name: "createApiTokenAction", file: "app/(app)/settings/token-actions.ts", session: true },
  { name: "saveCredentialAction", file: "app/(app)/settings/credential-actions.ts", session: true },
  { name: "createCollectionAction", file: "app/(app)/knowledge/actions.ts", session: true },
  { name: "saveAgentAction", file: "app/(app)/agents/actions.ts", session: true },
  { name: "createWorkspaceAction", file: "app/(app)/settings/workspace/actions.ts", session: true },
  { name: "inviteAction", file: "app/(app)/settings/workspace/actions.ts", session: true },
  { name: "signUpAction", file: "app/(auth)/actions.ts", session: false },
  { name: "signInAction", file: "app/(auth)/actions.ts", session: false },
];

/** A server action payload: React's encoding of the arguments, as text or form fields. */
export interface ActionPayload {
  name: string;
  /** "text": a JSON row sent as text/plain; "form": multipart fields. */
  encoding: "text" | "form";
  body: Body | Record<string, Body>;
  /** A file field (the guard refuses files in actions). */
  file?: boolean;
  chunked?: boolean;
}

/** What the proxy's action guard refuses before Next decodes anything. */
export const actionPayloads: ActionPayload[] = [
  { name: "over 1 MiB", encoding: "text", body: `["wf",{"name":"${MARKER}${"z".repeat(1_100_000)}"}]` },
  { name: "streamed without a length", encoding: "text", body: `["wf",{"name":"${MARKER}"}]`, chunked: true },
  { name: "65 nested arrays", encoding: "text", body: `["wf",${nest(65)}]` },
  { name: "300,000 nested arrays", encoding: "text", body: nest(300_000, "[", "]", "1") },
  { name: "escaped NUL", encoding: "text", body: `["wf",{"name":"${MARKER}\\u0000"}]` },
  { name: "escaped lone surrogate", encoding: "text", body: `["wf",{"name":"${MARKER}\\ud83d"}]` },
  { name: "invalid UTF-8", encoding: "text", body: bytes(`["wf",{"name":"${MARKER}`, [0xff], `"}]`) },
  {
    name: "raw NUL in a form field",
    encoding: "form",
    body: { "1_name": `${MARKER}\u0000`, "1_email": `${MARKER}@example.com`, "1_password": "long enough password" },
  },
  {
    name: "UTF-8-encoded surrogate in a form field",
    encoding: "form",
    body: { "0": '["$K1"]', "1_name": bytes(MARKER, [0xed, 0xa0, 0x80]), "1_password": "long enough password" },
  },
  { name: "truncated argument row", encoding: "text", body: `["wf",{"name":"${MARKER}"` },
  { name: "arguments that are not JSON", encoding: "text", body: `name=${MARKER}` },
  {
    name: "form without its root row",
    encoding: "form",
    body: { "1_name": MARKER, "1_email": `${MARKER}@example.com` },
  },
  { name: "root row that is not JSON", encoding: "form", body: { "0": `[${MARKER}`, "1_name": MARKER } },
  { name: "a file in the form", encoding: "form", body: { "1_name": MARKER }, file: true },
];

/** A knowledge-base upload that must be refused (400/413) with nothing stored. */
export interface UploadCase {
  name: string;
  filename: string | null;
  /** Built by the runner (archives need lib/kb/fixtures). */
  kind:
    | "docx-bomb"
    | "docx-liar"
    | "docx-truncated"
    | "zip-not-docx"
    | "pdf-junk"
    | "html-empty"
    | "text-nul"
    | "text-bad-utf8"
    | "unsupported"
    | "no-name"
    | "csv-broken"
    | "too-large";
}

export const uploadCases: UploadCase[] = [
  { name: "DOCX decompression bomb (40 MB of markup)", filename: "bomb.docx", kind: "docx-bomb" },
  { name: "DOCX part lying about its size", filename: "liar.docx", kind: "docx-liar" },
  { name: "truncated DOCX", filename: "cut.docx", kind: "docx-truncated" },
  { name: "ZIP that is not a DOCX", filename: "other.docx", kind: "zip-not-docx" },
  { name: "PDF that is not a PDF", filename: "junk.pdf", kind: "pdf-junk" },
  { name: "HTML with no text", filename: "empty.html", kind: "html-empty" },
  { name: "text with a NUL byte", filename: "nul.txt", kind: "text-nul" },
  { name: "text that is not UTF-8", filename: "latin1.txt", kind: "text-bad-utf8" },
  { name: "unsupported extension", filename: "tool.exe", kind: "unsupported" },
  { name: "no file name", filename: null, kind: "no-name" },
  { name: "broken CSV quoting", filename: "bad.csv", kind: "csv-broken" },
  { name: "over the upload limit", filename: "big.txt", kind: "too-large" },
];
