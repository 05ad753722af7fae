/** Which version a retry or fork runs: the one the source ran, or the workflow's current one. */
export type VersionChoice = "original" | "current";

/** What POST /api/runs/:id/retry and /fork answer. */
export interface DerivedRunAnswer {
  run: { id: string; status: string; sourceRunId: string | null };
  dispatched: boolean;
  reuse: { reusable: number; changedNodes: string[]; runsFrom: string[] };
}

/** Starts a retry or fork: the new run, or the error message the API gave (`{error:{message}}`). */
export async function deriveRun(
  runId: string,
  kind: "retry" | "fork",
  body: Record<string, unknown>,
): Promise<{ ok: true; answer: DerivedRunAnswer } | { ok: false; error: string }> {
  const res = await fetch(`/api/runs/${runId}/${kind}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => null)) as (DerivedRunAnswer & { error?: { message?: string } }) | null;
  if (res.ok && json?.run?.id) return { ok: true, answer: json };
  return { ok: false, error: json?.error?.message ?? `The request failed (${res.status}).` };
}
