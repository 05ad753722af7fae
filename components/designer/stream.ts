import type { DesignerEvent } from "@/lib/designer/events";
import type { Workflow } from "@/lib/workflow/schema";

/** Body of POST /api/designer. */
export type DesignerRequestBody = {
  message: string;
  workflowId?: string;
  /** The current graph for an edit; absent for a new design. */
  workflow?: Workflow;
  /** Run the proposal once on the model's sample inputs before showing it. */
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

/**
 * Streams designer events from the API (NDJSON, one event per line). Aborting `signal` cancels the
 * request, which cancels the pipeline server-side. A refused request (401/429/400...) throws with
 * the server's message.
 */
export async function* streamDesign(body: DesignerRequestBody, signal: AbortSignal, endpoint = "/api/designer"): AsyncGenerator<DesignerEvent> {
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
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const split = ndjsonSplitter();
  for (;;) {
    const { value, done } = await reader.read();
    for (const e of split(value ?? "", done)) yield e as DesignerEvent;
    if (done) return;
  }
}
