import "server-only";
import { randomUUID } from "node:crypto";
import { systemClock } from "@/lib/engine/clock";
import { runJob } from "@/lib/engine/driver";
import type { StoredEvent } from "@/lib/engine/ports";
import { MemoryStore } from "@/lib/engine/memory-store";
import type { DryRunFn } from "@/lib/designer/pipeline";
import { createLogger } from "@/lib/logger";
import { llmModelPort } from "@/lib/providers/model-port";
import { ownerModelResolver } from "@/lib/providers/resolver";
import { dryRunTools } from "@/lib/tools/dry-run-tools";
import { registryToolsPort } from "@/lib/tools/registry";
import type { Field, Workflow } from "@/lib/workflow/schema";

export { dryRunTools };

const log = createLogger({ component: "designer-dry-run" });

/** How long a dry run may take before it counts as failed (the run's own deadline is lowered to it). */
export const DRY_RUN_TIMEOUT_MS = 120_000;

/** Sample inputs for every declared field: the model's where given, else a placeholder of the right type. */
export function sampleInputsFor(fields: readonly Field[], given: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (given[f.key] !== undefined) out[f.key] = given[f.key];
    else if (!f.required) continue;
    else
      out[f.key] = f.type === "number" ? 1 : f.type === "boolean" ? true : f.type === "json" ? {} : `sample ${f.key}`;
  }
  return out;
}

const clip = (v: unknown, n = 160): string => {
  const s = typeof v === "string" ? v : (JSON.stringify(v) ?? "");
  return s.length > n ? `${s.slice(0, n)}…` : s;
};

/** A readable trace of a run's events: one line per step end, branch, loop, and the run's end. */
export function traceOf(events: readonly StoredEvent[]): string {
  const lines: string[] = [];
  for (const { event: e } of events) {
    switch (e.type) {
      case "step_finished":
        lines.push(
          `${e.nodeId}#${e.iteration} ${e.status}${e.branch ? ` → ${e.branch}` : ""}${e.error ? `: ${clip(e.error)}` : e.output !== undefined ? `: ${clip(e.output, 80)}` : ""}`,
        );
        break;
      case "loop_exhausted":
        lines.push(`loop ${e.source} → ${e.target} exhausted after ${e.maxIterations} (${e.action})`);
        break;
      case "run_finished":
        lines.unshift(`run ${e.status}${e.reason ? `: ${clip(e.reason, 300)}` : ""}`);
        break;
      default:
        break;
    }
  }
  return lines.join("\n");
}

/**
 * The designer's dry run for one user: the proposal runs once through the real engine driver and
 * executors, with the user's models and read-only tools, on an in-memory store (nothing is saved,
 * no run appears in the user's list). The run's deadline is lowered to `timeoutMs`; a run that does
 * not succeed returns its trace, which the pipeline feeds back for repair.
 */
export function dryRunner(userId: string, timeoutMs = DRY_RUN_TIMEOUT_MS): DryRunFn {
  return async (workflow: Workflow, sampleInputs, signal) => {
    const store = new MemoryStore();
    const runId = `dryrun-${randomUUID()}`;
    const doc: Workflow = {
      ...workflow,
      limits: { ...workflow.limits, runTimeoutMs: Math.min(workflow.limits.runTimeoutMs, timeoutMs) },
    };
    store.create(runId, doc, sampleInputsFor(doc.inputs, sampleInputs));
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    const backstop = setTimeout(onAbort, timeoutMs + 10_000);
    const started = Date.now();
    try {
      const outcome = await runJob(
        {
          store,
          model: llmModelPort(ownerModelResolver(userId)),
          tools: dryRunTools(registryToolsPort(userId)),
          clock: systemClock,
          logger: log,
        },
        runId,
        { owner: `designer-dry-run:${runId}`, stop: stop.signal, stopGraceMs: 1_000, settleMs: 1_000 },
      );
      const trace = traceOf(store.run(runId).events);
      log.info("dry run finished", { userId, outcome: outcome.kind, ms: Date.now() - started });
      if (outcome.kind !== "terminal")
        return { ok: false, trace: `The dry run did not finish (${outcome.kind}).\n${trace}` };
      return { ok: outcome.status === "succeeded", trace };
    } catch (err) {
      log.warn("dry run crashed", { userId, err });
      return { ok: false, trace: `The dry run could not run: ${(err as Error).message}` };
    } finally {
      clearTimeout(backstop);
      signal?.removeEventListener("abort", onAbort);
    }
  };
}
