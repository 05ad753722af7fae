import type { DesignerEvent } from "@/lib/designer/events";
import type { Workflow } from "@/lib/workflow/schema";

/** Body of POST /api/designer. */
export type DesignerRequestBody = {
  message: string;
  workflowId?: string;
  /** The current graph for an edit; absent for a new design. */
  workflow?: Workflow;
  /** Dry-run the proposal before showing it: true always, false never, absent when its tools have no side effects. */
  dryRun?: boolean;
};

/** Splits NDJSON text that arrives in arbitrary chunks into parsed lines. */
export function ndjsonSplitter(): (chunk: string, end?: boolean) => unknown[] {
  let buffer = "";
  return (chunk, end = false) => {
    buffer += chunk;
    const lines = buffer.split("\n");
    buffer = end ? "" : (lines.pop() ?? "");
    return lines.filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as unknown);
  };
}

/** The designer route's response headers: the designing model's name (URI-encoded), and "1" for the offline demo's scripted model. */
export const DESIGNER_MODEL_HEADER = "x-weft-designer-model";
export const DESIGNER_OFFLINE_HEADER = "x-weft-designer-offline";

/** Which model answers a designer request (the route's X-Weft-Designer-* headers). */
export type DesignerModelInfo = { name: string | null; offline: boolean };

/** Reads the designing model from a designer response's headers. */
export function designerModelInfo(headers: Headers): DesignerModelInfo {
  const name = headers.get(DESIGNER_MODEL_HEADER);
  let decoded: string | null = null;
  try {
    decoded = name === null ? null : decodeURIComponent(name);
  } catch {
    decoded = name;
  }
  return { name: decoded, offline: headers.get(DESIGNER_OFFLINE_HEADER) === "1" };
}

/**
 * Streams designer events from the API (NDJSON, one event per line). Aborting `signal` cancels the
 * request, which cancels the pipeline server-side. A refused request (401/429/400...) throws with
 * the server's message. `onModel` hears which model designs before the first event.
 */
export async function* streamDesign(
  body: DesignerRequestBody,
  signal: AbortSignal,
  endpoint = "/api/designer",
  onModel?: (info: DesignerModelInfo) => void,
): AsyncGenerator<DesignerEvent> {
  const res = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/x-ndjson" },
    body: JSON.stringify(body),
    signal,
  });
  if (!res.ok || !res.body) {
    const payload = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(payload?.error?.message ?? `The designer is unavailable (HTTP ${res.status}).`);
  }
  onModel?.(designerModelInfo(res.headers));
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const split = ndjsonSplitter();
  for (;;) {
    const { value, done } = await reader.read();
    for (const e of split(value ?? "", done)) yield e as DesignerEvent;
    if (done) return;
  }
}
