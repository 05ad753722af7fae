import { runSandboxed } from "@/lib/tools/sandbox";

/** One test case the model wrote: run(input) must return `expected` (deep JSON equality). */
export interface ToolTestCase {
  input: Record<string, unknown>;
  expected: unknown;
}

/** Outcome of one case; `actual` or `error` says what happened instead. */
export interface ToolTestResult {
  input: Record<string, unknown>;
  expected: unknown;
  passed: boolean;
  actual?: unknown;
  error?: string;
}

/** JSON with sorted object keys, so equality does not depend on key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/**
 * Runs every case in the sandbox (sequentially: each is its own process), each holding one of
 * `workspaceId`'s sandbox slots (a case refused for want of one fails with that error).
 */
export async function runToolTests(
  workspaceId: string,
  code: string,
  cases: ToolTestCase[],
  timeoutMs = 2000,
): Promise<ToolTestResult[]> {
  const results: ToolTestResult[] = [];
  for (const c of cases) {
    const r = await runSandboxed({ code, input: c.input, timeoutMs, workspaceId }).catch((err: unknown) => ({
      ok: false as const,
      error: { kind: "crash" as const, name: "SandboxBusy", message: err instanceof Error ? err.message : String(err) },
    }));
    if (!r.ok) results.push({ ...c, passed: false, error: `${r.error.kind}: ${r.error.name}: ${r.error.message}` });
    else results.push({ ...c, passed: canonical(r.output) === canonical(c.expected), actual: r.output });
  }
  return results;
}

/** The feedback a failed round sends back to the model: each failure with its error or expected-vs-actual diff. */
export function describeFailures(results: ToolTestResult[]): string {
  const failed = results.filter((r) => !r.passed);
  const lines = failed.map((r, i) =>
    r.error !== undefined
      ? `${i + 1}. input ${canonical(r.input)} threw: ${r.error}`
      : `${i + 1}. input ${canonical(r.input)}\n   expected: ${canonical(r.expected)}\n   actual:   ${canonical(r.actual)}`,
  );
  return `${failed.length} of ${results.length} test(s) failed:\n${lines.join("\n")}\nFix the code (keep function run(input)) and return the whole tool again.`;
}
