import "server-only";
import type { RunEvent } from "@/lib/engine/events";
import type { StorePort } from "@/lib/engine/ports";
import { metrics } from "@/lib/metrics";

/** Kinds of the steps this process started, until their result (a step started elsewhere reads as `unknown`). */
const kinds = new Map<string, string>();
const KINDS_MAX = 50_000;
const stepKey = (runId: string, e: { nodeId: string; iteration: number }) => `${runId}|${e.nodeId}|${e.iteration}`;

/** Counts what a committed batch of a run's events says: steps, retries, re-dispatches, model calls, the run's end. */
export function observeRunEvents(runId: string, events: readonly RunEvent[]): void {
  const m = metrics();
  for (const e of events) {
    switch (e.type) {
      case "run_started":
        if (e.redispatched.length) m.stepsRedispatched.inc(e.redispatched.length);
        break;
      case "step_started":
        if (kinds.size >= KINDS_MAX) kinds.clear();
        kinds.set(stepKey(runId, e), e.kind);
        break;
      case "step_finished": {
        const key = stepKey(runId, e);
        if (e.latencyMs !== undefined)
          m.stepDuration.observe({ kind: kinds.get(key) ?? "unknown", status: e.status }, e.latencyMs / 1000);
        kinds.delete(key);
        break;
      }
      case "step_retrying":
        m.stepRetries.inc({ error_class: e.errorClass });
        break;
      case "tokens_used":
        m.modelTokens.inc({ model: e.model, type: "prompt" }, e.promptTokens);
        m.modelTokens.inc({ model: e.model, type: "completion" }, e.completionTokens);
        if (e.latencyMs !== undefined) m.modelCallDuration.observe({ model: e.model }, e.latencyMs / 1000);
        break;
      case "run_finished":
        m.runsFinished.inc({ status: e.status });
        break;
    }
  }
}

/** The store, counting the events of every commit that landed (the metrics follow the durable log, not attempts). */
export function meteredStore(store: StorePort): StorePort {
  return {
    ...store,
    commit: async (runId, commit) => {
      const result = await store.commit(runId, commit);
      if (result.ok && commit.events?.length) observeRunEvents(runId, commit.events);
      return result;
    },
  };
}
