import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * Prometheus metrics of one process (web or worker), in the text exposition format: what the
 * process counted since it started (counters, histograms) and what it reads at scrape time
 * (gauges filled by `onScrape` hooks: queue depth, open event streams). docs/operations.md lists
 * every metric with example alerts. Recording is a few in-memory additions: no I/O on the hot path.
 */

/** Seconds buckets for steps and model calls: from an instant step to a long agent turn. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

function build() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "weft_" });
  const hooks: (() => Promise<void> | void)[] = [];
  const r = { registers: [registry] };
  return {
    registry,
    hooks,
    runsStarted: new Counter({
      ...r,
      name: "weft_runs_started_total",
      help: "Runs started by this process, by trigger (editor, api, schedule, webhook, experiment, …).",
      labelNames: ["trigger"] as const,
    }),
    runsFinished: new Counter({
      ...r,
      name: "weft_runs_finished_total",
      help: "Runs this process drove to their end, by final status.",
      labelNames: ["status"] as const,
    }),
    stepDuration: new Histogram({
      ...r,
      name: "weft_step_duration_seconds",
      help: "Time of a step's try from its start to its committed result, by node kind and status.",
      labelNames: ["kind", "status"] as const,
      buckets: SECONDS,
    }),
    stepRetries: new Counter({
      ...r,
      name: "weft_step_retries_total",
      help: "Step tries that failed and were retried by their node's error policy, by error class.",
      labelNames: ["error_class"] as const,
    }),
    stepsRedispatched: new Counter({
      ...r,
      name: "weft_steps_redispatched_total",
      help: "Steps started again because their previous attempt never committed (a worker died or lost the run).",
    }),
    modelCallDuration: new Histogram({
      ...r,
      name: "weft_model_call_duration_seconds",
      help: "Model calls' latency, by model.",
      labelNames: ["model"] as const,
      buckets: SECONDS,
    }),
    modelTokens: new Counter({
      ...r,
      name: "weft_model_tokens_total",
      help: "Tokens of model calls, by model and type (prompt, completion).",
      labelNames: ["model", "type"] as const,
    }),
    reconcilerRedispatches: new Counter({
      ...r,
      name: "weft_reconciler_redispatches_total",
      help: "Queued or running runs without a live job that the reconciler enqueued again.",
    }),
    queueJobs: new Gauge({
      ...r,
      name: "weft_queue_jobs",
      help: "Jobs in a queue by state (waiting, prioritized, delayed, active), read at scrape time.",
      labelNames: ["queue", "state"] as const,
    }),
    queueOldestAge: new Gauge({
      ...r,
      name: "weft_queue_oldest_waiting_seconds",
      help: "Age of the oldest job waiting in a queue (0 when none waits), read at scrape time.",
      labelNames: ["queue"] as const,
    }),
    sseConnections: new Gauge({
      ...r,
      name: "weft_sse_connections",
      help: "Run event streams (SSE) open in this process, read at scrape time.",
    }),
  };
}

export type Metrics = ReturnType<typeof build>;

let current: Metrics | undefined;

/** This process's metrics (made on first use). */
export function metrics(): Metrics {
  return (current ??= build());
}

/** Registers something to read just before each scrape (a gauge's value). */
export function onScrape(hook: () => Promise<void> | void): void {
  metrics().hooks.push(hook);
}

/** The exposition's content type. */
export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** Runs the scrape hooks (a failing one leaves its gauges as they were) and renders every metric. */
export async function renderMetrics(): Promise<string> {
  const m = metrics();
  await Promise.all(
    m.hooks.map(async (h) => {
      try {
        await h();
      } catch {
        // a gauge that could not be read keeps its last value
      }
    }),
  );
  return m.registry.metrics();
}
