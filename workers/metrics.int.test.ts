import { describe, expect, it } from "vitest";
import { startRun } from "@/lib/runs/service";
import { createTestWorkflow } from "@/test/fixtures";
import { chainWorkflow, waitTerminal } from "@/test/helpers/worker";
import { useWorkerPool } from "@/test/helpers/worker-pool";

/**
 * The worker's Prometheus endpoint (GET /metrics on its health port), scraped before and after a
 * run on a real worker process with the scripted model over HTTP: the counters the run moved.
 */
const pool = useWorkerPool({
  fixtures: [{ rules: [{ id: "m", match: { system: "[[metrics]]" }, reply: { text: "ok", delayMs: 20 } }] }],
  size: 1,
});

/** One sample's value from an exposition (0 when the series is absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const series = /\{([^}]*)\}/.exec(line)?.[1] ?? "";
    if (want.every((l) => series.split(",").includes(l))) return Number(line.split(" ").at(-1));
  }
  return 0;
}

describe("worker metrics", () => {
  it("GET /metrics shows runs, steps, model tokens and the queues move during a run", { timeout: 60_000 }, async () => {
    const port = await pool.workers[0]!.ready;
    const scrape = async () => {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      return res.text();
    };
    const before = await scrape();
    const { workflowId } = await createTestWorkflow(pool.workspaceId, chainWorkflow("metrics", ["metrics", "metrics"]));
    const { run } = await startRun(pool.workspaceId, workflowId, { inputs: {} });
    expect((await waitTerminal(run.id)).run.status).toBe("succeeded");
    const after = await scrape();

    const moved = (name: string, labels?: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(moved("weft_runs_finished_total", { status: "succeeded" })).toBe(1);
    // two agent steps, each timed by kind (start and end are steps of their own kinds)
    expect(moved("weft_step_duration_seconds_count", { kind: "agent", status: "succeeded" })).toBe(2);
    expect(moved("weft_step_duration_seconds_count", { kind: "end", status: "succeeded" })).toBe(1);
    expect(moved("weft_model_call_duration_seconds_count", { model: "scripted-demo" })).toBe(2);
    expect(moved("weft_model_tokens_total", { model: "scripted-demo", type: "prompt" })).toBeGreaterThan(0);
    expect(moved("weft_model_tokens_total", { model: "scripted-demo", type: "completion" })).toBeGreaterThan(0);
    // gauges read at scrape time, and the process's own
    expect(after).toMatch(/^weft_queue_jobs\{queue="runs",state="waiting"\} \d+$/m);
    expect(after).toMatch(/^weft_queue_oldest_waiting_seconds\{queue="runs"\} [\d.]+$/m);
    expect(sample(after, "weft_process_resident_memory_bytes")).toBeGreaterThan(0);
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
  });
});
