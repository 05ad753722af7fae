/**
 * Reads a Chromium trace of one B3 page load (bench/editor/profile.ts --trace) and says where the
 * renderer's main thread spent the time from navigation start to the first drag answered: per task
 * (start, wall and CPU time, what ran inside), CPU totals per kind, and the time it sat idle (waiting
 * for the network, the compositor or input). Thread CPU time is less disturbed by a busy machine than
 * wall time.
 */
type TraceEvent = {
  name: string;
  cat?: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: {
    name?: string;
    data?: { url?: string; fileName?: string; documentLoaderURL?: string; type?: string; functionName?: string };
  };
};

/** Kinds whose CPU time is totalled (nested kinds are counted inside their parents too). */
const KINDS = [
  "RunTask",
  "ParseHTML",
  "EvaluateScript",
  "v8.compileModule",
  "v8.evaluateModule",
  "v8.compile",
  "FunctionCall",
  "TimerFire",
  "FireAnimationFrame",
  "EventDispatch",
  "UpdateLayoutTree",
  "Layout",
  "PrePaint",
  "Paint",
  "Layerize",
  "Commit",
  "HitTest",
  "MajorGC",
  "MinorGC",
  "ParseAuthorStyleSheet",
  "ScheduleStyleRecalculation",
];

/** Children worth naming inside a task, with what identifies them. */
function label(e: TraceEvent): string {
  const d = e.args?.data;
  const file = (d?.url ?? d?.fileName ?? "").split("/").pop();
  if (e.name === "EventDispatch" || e.name === "FireAnimationFrame" || e.name === "TimerFire")
    return d?.type ? `${e.name} ${d.type}` : e.name;
  if (e.name === "FunctionCall" && d?.functionName) return `FunctionCall ${d.functionName}${file ? ` ${file}` : ""}`;
  return file ? `${e.name} ${file}` : e.name;
}

const ms = (us: number) => us / 1000;

/**
 * Lines describing the main thread from the page's navigation start (`urlPart` in its URL) to
 * `untilMs` after it: tasks of at least `minTaskMs`, then totals and idle time.
 */
export function traceTimeline(json: string, urlPart: string, untilMs: number, minTaskMs = 3): string[] {
  const events = (JSON.parse(json) as { traceEvents: TraceEvent[] }).traceEvents;
  // The page's navigation start, on its renderer's main thread.
  const nav = events
    .filter((e) => e.name === "navigationStart" && (e.args?.data?.documentLoaderURL ?? "").includes(urlPart))
    .at(-1);
  if (!nav) return [`no navigationStart for ${urlPart} in the trace`];
  const main = { pid: nav.pid, tid: nav.tid };
  const t0 = nav.ts,
    t1 = nav.ts + untilMs * 1000;
  const mine = events.filter(
    (e) => e.pid === main.pid && e.tid === main.tid && e.ph === "X" && e.ts >= t0 && e.ts < t1,
  );
  const tasks = mine.filter((e) => e.name === "RunTask").sort((a, b) => a.ts - b.ts);
  const out: string[] = [];
  for (const t of tasks) {
    if (ms(t.dur ?? 0) < minTaskMs) continue;
    const inside = mine.filter(
      (e) => e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + (t.dur ?? 0) && KINDS.includes(e.name),
    );
    const byLabel = new Map<string, number>();
    for (const e of inside) byLabel.set(label(e), (byLabel.get(label(e)) ?? 0) + (e.tdur ?? e.dur ?? 0));
    const top = [...byLabel]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k, v]) => `${k} ${ms(v).toFixed(0)}`)
      .join(", ");
    out.push(
      `  +${ms(t.ts - t0)
        .toFixed(0)
        .padStart(5)} ms  ${ms(t.dur ?? 0)
        .toFixed(0)
        .padStart(4)} ms wall ${ms(t.tdur ?? t.dur ?? 0)
        .toFixed(0)
        .padStart(4)} cpu  ${top}`,
    );
  }
  const cpu = (name: string) => mine.filter((e) => e.name === name).reduce((a, e) => a + (e.tdur ?? e.dur ?? 0), 0);
  const busy = tasks.reduce((a, t) => a + (t.dur ?? 0), 0);
  out.push(
    `main thread from navigation to ${untilMs.toFixed(0)} ms: busy ${ms(busy).toFixed(0)} ms wall (${ms(cpu("RunTask")).toFixed(0)} ms CPU), idle ${(untilMs - ms(busy)).toFixed(0)} ms`,
  );
  out.push(
    "CPU ms by kind: " +
      KINDS.slice(1)
        .map((k) => [k, ms(cpu(k))] as const)
        .filter(([, v]) => v >= 1)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(", "),
  );
  return out;
}
