/**
 * B3 profiling aid (not part of the benchmark run): loads one arm at one size in /usr/bin/chromium
 * the way the benchmark does (first drag pressed as soon as every node is rendered) and prints the
 * load's times, the resources it fetched and, from a Chromium trace, where the main thread went until
 * the first drag was answered (bench/editor/trace-timeline.ts). `--save=trace.json` keeps that trace
 * (open it in Chromium's performance panel). Other phases pan or drag with the CDP CPU profiler on
 * and print Chromium's totals and the top functions by self time:
 *
 *   npx tsx --conditions=react-server bench/editor/profile.ts ours 100 [--phase=load|pan|drag|count] [--skip-build]
 * `count` prints React component renders during three drags (by component name) instead of a profile.
 * `--shot=file.png` saves a screenshot once the page is ready. `--trace` (pan, drag) also records a
 * trace of the phase and prints the main thread's CPU time (thread time) per trace event kind.
 */
import fs from "node:fs";
import { chromium, type CDPSession, type Page } from "@playwright/test";
import { buildPages, OUT_DIR } from "./build";
import { openInteractive, VIEWPORT } from "./measure";
import { startPageServer, type Arm } from "./server";
import { traceTimeline } from "./trace-timeline";

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
  hitCount?: number;
  children?: number[];
};
type Profile = { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[]; startTime: number; endTime: number };

/** Self time (ms) per function name + file, from the sampled profile. */
function topSelf(profile: Profile, limit = 25): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const n = byId.get(samples[i]!);
    if (!n) continue;
    const f = n.callFrame;
    const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber}:${f.columnNumber ?? 0}`;
    self.set(key, (self.get(key) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  return [
    `total sampled ${total.toFixed(0)} ms`,
    ...[...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([k, v]) => `${v.toFixed(1).padStart(8)} ms  ${k}`),
  ];
}

/** Inclusive time (ms) per function of our bundle (ours.js and its chunks other than the shared vendor one), top `limit`. */
function topInclusive(profile: Profile, filter: (url: string) => boolean, limit = 25): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const incl = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const seen = new Set<string>();
    for (let id: number | undefined = samples[i]; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id)!.callFrame;
      if (!filter(f.url)) continue;
      const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber}:${f.columnNumber ?? 0}`;
      if (seen.has(key)) continue;
      seen.add(key);
      incl.set(key, (incl.get(key) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
    }
  }
  return [...incl]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([k, v]) => `${v.toFixed(1).padStart(8)} ms  ${k}`);
}

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: m } = (await cdp.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] };
  const pick = [
    "ScriptDuration",
    "RecalcStyleDuration",
    "LayoutDuration",
    "TaskDuration",
    "Nodes",
    "LayoutCount",
    "RecalcStyleCount",
  ];
  return Object.fromEntries(
    m
      .filter((x) => pick.includes(x.name))
      .map((x) => [x.name, x.name.endsWith("Duration") ? Math.round(x.value * 1000) : x.value]),
  );
}

const diff = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(Object.keys(b).map((k) => [k, b[k]! - (a[k] ?? 0)]));

async function pan(page: Page, steps: number) {
  const box = (await page.locator(".react-flow__pane").boundingBox())!;
  const x = box.x + box.width / 2,
    y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(x - 12 * i, y - 8 * i);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  }
  await page.mouse.up();
}

/** Drags the (3 + k)-th movable node 8 px × steps, one move per frame. */
async function drag(page: Page, k: number, steps: number) {
  const box = (await page
    .locator(".react-flow__node:not([data-id=start]):not([data-id=end])")
    .nth(3 + k)
    .boundingBox())!;
  const x = box.x + box.width / 2,
    y = box.y + Math.min(8, box.height / 2);
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(x + 5 * i, y + 3 * i);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  }
  await page.mouse.up();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
}

type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
};

/** CPU ms of the renderer main thread per top-level kind (RunTask total, then Layout, style, paint, script...). */
function traceSummary(buffer: Buffer): string {
  const events = (JSON.parse(buffer.toString("utf8")) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = events.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
  if (!main) return "no renderer main thread in the trace";
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === "X");
  const kinds = [
    "RunTask",
    "FunctionCall",
    "EvaluateScript",
    "UpdateLayoutTree",
    "Layout",
    "PrePaint",
    "Paint",
    "Layerize",
    "Commit",
    "HitTest",
    "MajorGC",
    "MinorGC",
  ];
  const sum = (name: string) =>
    mine.filter((e) => e.name === name).reduce((a, e) => a + (e.tdur ?? e.dur ?? 0), 0) / 1000;
  return "main-thread CPU ms: " + kinds.map((k) => `${k} ${sum(k).toFixed(0)}`).join(", ");
}

async function main() {
  const [arm = "ours", nArg = "500"] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  const phase = process.argv.find((a) => a.startsWith("--phase="))?.slice(8) ?? "load";
  const dir = process.argv.includes("--skip-build") ? OUT_DIR : await buildPages();
  const server = await startPageServer(dir);
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const trace = process.argv.includes("--trace");
    const categories = [
      "devtools.timeline",
      "disabled-by-default-devtools.timeline",
      "v8.execute",
      "v8",
      "blink.user_timing",
      "loading",
      "__metadata",
    ];
    // A load is traced browser-wide from a blank page of the same context (a CDP profiler would
    // attach only after the page had begun loading).
    const blank = await context.newPage();
    if (phase === "load") await browser.startTracing(blank, { categories });
    const url = `${server.url}/${arm as Arm}?n=${Number(nArg)}`;
    // The sampling profiler of the load starts on the blank page the load navigates away from.
    let loadCdp: CDPSession | undefined;
    const { page, load } = await openInteractive(context, url, [], async (p) => {
      if (phase !== "load") return;
      loadCdp = await context.newCDPSession(p);
      await loadCdp.send("Profiler.enable");
      await loadCdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await loadCdp.send("Profiler.start");
    });
    page.on("pageerror", (e) => console.error("page error:", e.message));
    const resources = await page.evaluate(() =>
      performance.getEntriesByType("resource").map((r) => {
        const e = r as PerformanceResourceTiming;
        return `${e.name.split("/").pop()} ${Math.round(e.startTime)}→${Math.round(e.responseEnd)} ms, ${Math.round(e.encodedBodySize / 1024)} KB`;
      }),
    );
    console.log(
      `${arm} ${nArg}: every node rendered ${Math.round(load.rendered)} ms, first drag pressed ${Math.round(load.pressed)}, ` +
        `answered (tti) ${Math.round(load.tti)}, view still from ${Math.round(load.ready.at)}; long tasks ${Math.round(load.longtaskMs)} ms`,
    );
    console.log("resources:\n  " + resources.join("\n  "));
    if (phase === "load") {
      const json = (await browser.stopTracing()).toString("utf8");
      const file = process.argv.find((a) => a.startsWith("--save="))?.slice(7);
      if (file) fs.writeFileSync(file, json);
      console.log(traceTimeline(json, `/${arm}?n=`, load.tti).join("\n"));
      const { profile } = (await loadCdp!.send("Profiler.stop")) as { profile: Profile };
      console.log(topSelf(profile, 30).join("\n"));
      // inclusive time of the entry's own functions (not the shared React / React Flow chunk)
      const own = (u: string) => u.includes("/ours.js") || u.includes("/peer.js");
      if (process.argv.includes("--inclusive"))
        console.log("inclusive, by function:\n" + topInclusive(profile, own, 60).join("\n"));
    }
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
    const shot = process.argv.find((a) => a.startsWith("--shot="))?.slice(7);
    if (shot) await page.screenshot({ path: shot });
    if (phase === "count") {
      type Probe = { __b3: { count: (on: boolean) => { commits: number; renders: Record<string, number> } } };
      await page.evaluate(() => (window as unknown as Probe).__b3.count(true));
      for (let k = 0; k < 3; k++) await drag(page, k, 8);
      const c = await page.evaluate(() => (window as unknown as Probe).__b3.count(false));
      console.log(
        `commits ${c.commits}; renders during 3 drags × 8 moves:`,
        Object.entries(c.renders).sort((a, b) => b[1] - a[1]),
      );
      await context.close();
      return;
    }
    if (phase === "load") return void (await context.close());
    if (trace) await browser.startTracing(page, { categories });
    await cdp.send("Profiler.start");
    const m1 = await metrics(cdp);
    if (phase === "pan") await pan(page, 20);
    else for (let k = 0; k < 3; k++) await drag(page, k, 8);
    console.log(`${phase}: main thread`, diff(m1, await metrics(cdp)));
    if (trace) console.log(traceSummary(await browser.stopTracing()));
    const { profile } = (await cdp.send("Profiler.stop")) as { profile: Profile };
    console.log(topSelf(profile).join("\n"));
    if (process.argv.includes("--inclusive"))
      console.log(
        "inclusive, by function:\n" +
          topInclusive(
            profile,
            (u) => u.includes("/ours.js") || u.includes("/peer.js") || u.includes("chunk-"),
            400,
          ).join("\n"),
      );
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

void main();
