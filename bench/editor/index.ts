/**
 * B3 editor at 100 / 500 / 2,000 nodes — our editor (the real WorkflowEditor component) vs a plain
 * React Flow page (default nodes, same ids/positions/edges, same @xyflow/react), both bundled the
 * same way (bench/editor/build.ts) and driven in /usr/bin/chromium by Playwright with real mouse
 * input. Per page load: time until every node is measured, 20 pan steps, 20 node drags (frame
 * intervals from a requestAnimationFrame recorder, pointermove → frame latency, long tasks), then
 * a few more drags with React's commit hook on to count component renders per drag move.
 * Repetitions interleave the arms (ours, peer, ours, peer…) after a warm-up load of each.
 * Full run → bench/results/editor-b3.json; `--smoke` (100 nodes, one pair) fails only when the
 * frame-p95 ratio is ≥ 2× the stored one.
 */
import { chromium, type Browser, type Page } from "@playwright/test";
import { machine, median, p95, readResult, writeResult } from "../stats";
import { buildPages } from "./build";
import { PROBE_SCRIPT } from "./probe";
import { startPageServer, type Arm } from "./server";

const RESULT_FILE = "editor-b3.json";

/** Its smoke (bundle + Chromium + one pair at 100 nodes) takes minutes on a 2-core machine: named runs only. */
export const smokeInSuite = false;
const VIEWPORT = { width: 1600, height: 1000 };

interface Plan { sizes: number[]; reps: number; warmup: boolean; panSteps: number; drags: number; dragSteps: number; countDrags: number }
const FULL: Plan = { sizes: [100, 500, 2000], reps: 5, warmup: true, panSteps: 20, drags: 20, dragSteps: 8, countDrags: 3 };
const SMOKE: Plan = { sizes: [100], reps: 1, warmup: false, panSteps: 20, drags: 5, dragSteps: 8, countDrags: 2 };

/**
 * A full run on a busy machine can be shortened (B3_SIZES=100,500 B3_REPS=5 B3_DRAGS=10 B3_WARMUP=first|none);
 * the plan used is stored with the results. B3_VERBOSE=1 prints how long each phase of each page load took.
 */
function planFromEnv(base: Plan): Plan & { warmupOnlyFirstSize?: boolean } {
  const num = (v: string | undefined) => (v && Number.isFinite(Number(v)) ? Number(v) : undefined);
  return {
    ...base,
    sizes: process.env.B3_SIZES ? process.env.B3_SIZES.split(",").map(Number) : base.sizes,
    reps: num(process.env.B3_REPS) ?? base.reps,
    drags: num(process.env.B3_DRAGS) ?? base.drags,
    ...(process.env.B3_WARMUP === "first" ? { warmupOnlyFirstSize: true } : {}),
    ...(process.env.B3_WARMUP === "none" ? { warmup: false } : {}),
  };
}

interface PhaseRaw { phase: string; ms: number; intervals: number[]; latencies: number[]; moves: number; longtasks: number; longtaskMs: number }
interface LoadSample {
  arm: Arm; n: number; rep: number;
  readyMs: number; renderedNodes: number; renderedEdges: number; nodesAfterPan: number;
  loadLongtasks: number; loadLongtaskMs: number;
  pan: PhaseRaw; drag: PhaseRaw;
  count: { moves: number; commits: number; renders: Record<string, number> };
}

const nextFrame = (page: Page) => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => r())));

/**
 * A point on the empty canvas (the pane itself, not a node, edge, minimap or control) near the middle:
 * grid points in order of distance from the centre, the first that hits the pane. (Testing every grid
 * point took minutes at 2,000 nodes, where each elementFromPoint hit-tests thousands of elements.)
 */
async function emptyPanePoint(page: Page): Promise<{ x: number; y: number }> {
  return page.evaluate(() => {
    const pane = document.querySelector(".react-flow__pane")!.getBoundingClientRect();
    const cx = pane.left + pane.width / 2, cy = pane.top + pane.height / 2;
    const points: { x: number; y: number; d: number }[] = [];
    for (let y = pane.top + 40; y < pane.bottom - 160; y += 7) {
      for (let x = pane.left + 40; x < pane.right - 240; x += 7) points.push({ x, y, d: Math.hypot(x - cx, y - cy) });
    }
    points.sort((a, b) => a.d - b.d);
    const hit = points.find((p) => document.elementFromPoint(p.x, p.y)?.classList.contains("react-flow__pane"));
    if (!hit) throw new Error("no empty spot on the canvas");
    return { x: hit.x, y: hit.y };
  });
}

/** The grab point of the k-th fully visible movable node (not start/end). */
async function nodeGrabPoint(page: Page, k: number): Promise<{ x: number; y: number; id: string }> {
  return page.evaluate((k) => {
    const pane = document.querySelector(".react-flow__pane")!.getBoundingClientRect();
    const inside = [...document.querySelectorAll<HTMLElement>(".react-flow__node")].filter((el) => {
      const r = el.getBoundingClientRect();
      const id = el.dataset.id;
      return id !== "start" && id !== "end" && r.left > pane.left + 20 && r.right < pane.right - 260 && r.top > pane.top + 20 && r.bottom < pane.bottom - 180;
    });
    if (!inside.length) throw new Error("no visible node to drag");
    const el = inside[(k * 7919) % inside.length]!;
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + Math.min(10, r.height / 2), id: el.dataset.id ?? "" };
  }, k);
}

async function drag(page: Page, k: number, steps: number) {
  const p = await nodeGrabPoint(page, k);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  const dir = k % 2 ? -1 : 1;
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(p.x + dir * 5 * i, p.y + 3 * i);
    await nextFrame(page);
  }
  await page.mouse.up();
  await nextFrame(page);
}

async function measureLoad(browser: Browser, base: string, arm: Arm, n: number, rep: number, plan: Plan): Promise<LoadSample> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    await context.addInitScript({ content: PROBE_SCRIPT });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${base}/${arm}?n=${n}`, { waitUntil: "commit" });
    try {
      await page.waitForFunction(() => (window as unknown as { __b3: { ready: unknown } }).__b3.ready, undefined, { timeout: 240_000, polling: 100 });
    } catch (e) {
      throw new Error(`${arm} ${n}: never ready${errors.length ? ` (page errors: ${errors.join("; ")})` : ""}: ${(e as Error).message}`);
    }
    const ready = await page.evaluate(() => {
      const s = (window as unknown as { __b3: { ready: { at: number; nodes: number; edges: number }; longtasks: { start: number; duration: number }[] } }).__b3;
      const lt = s.longtasks.filter((l) => l.start <= s.ready.at);
      return { ...s.ready, longtasks: lt.length, longtaskMs: lt.reduce((a, l) => a + l.duration, 0) };
    });

    type Probe = { __b3: { start: (p: string) => void; stop: () => Promise<PhaseRaw>; count: (on: boolean) => { commits: number; renders: Record<string, number> } } };
    const start = (phase: string) => page.evaluate((ph) => (window as unknown as Probe).__b3.start(ph), phase);
    const stop = () => page.evaluate(() => (window as unknown as Probe).__b3.stop());

    // Pan: press on empty canvas and move in small steps (one frame each).
    const wall: Record<string, number> = {};
    let t = Date.now();
    const lap = (name: string) => {
      wall[name] = Date.now() - t;
      t = Date.now();
      if (process.env.B3_VERBOSE) process.stdout.write(`    ${arm} ${n}: ${name} took ${wall[name]} ms\n`);
    };
    const at = await emptyPanePoint(page);
    lap("findPane");
    await start("pan");
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    for (let i = 1; i <= plan.panSteps; i++) {
      await page.mouse.move(at.x - 12 * i, at.y - 8 * i);
      await nextFrame(page);
    }
    await page.mouse.up();
    const pan = await stop();
    const nodesAfterPan = await page.locator(".react-flow__node").count();

    lap("pan");
    await start("drag");
    for (let k = 0; k < plan.drags; k++) await drag(page, k, plan.dragSteps);
    const dragPhase = await stop();

    // Render counts: React's commit hook on, a few more drags.
    lap("drag");
    await page.evaluate(() => (window as unknown as Probe).__b3.count(true));
    await start("count");
    for (let k = 0; k < plan.countDrags; k++) await drag(page, plan.drags + k, plan.dragSteps);
    const countPhase = await stop();
    const counted = await page.evaluate(() => (window as unknown as Probe).__b3.count(false));
    lap("count");
    if (errors.length) throw new Error(`${arm} ${n}: page errors: ${errors.join("; ")}`);
    return {
      arm, n, rep, readyMs: ready.at, renderedNodes: ready.nodes, renderedEdges: ready.edges, nodesAfterPan,
      loadLongtasks: ready.longtasks, loadLongtaskMs: ready.longtaskMs, pan, drag: dragPhase,
      count: { moves: countPhase.moves, commits: counted.commits, renders: counted.renders },
    };
  } finally {
    await context.close();
  }
}

interface ArmSummary {
  readyMs: number; readyP95: number; renderedNodes: number; nodesAfterPan: number; loadLongtaskMs: number;
  panFrameP50: number; panFrameP95: number; dragFrameP50: number; dragFrameP95: number; frameP95: number;
  dragLatencyP50: number; dragLatencyP95: number; interactionLongtasks: number; interactionLongtaskMs: number;
  rendersPerMove: { nodeWrappers: number; edgeWrappers: number; components: number; top: Record<string, number> };
}

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

function summarise(samples: LoadSample[]): ArmSummary {
  const pan = samples.flatMap((s) => s.pan.intervals);
  const dragI = samples.flatMap((s) => s.drag.intervals);
  const lat = samples.flatMap((s) => s.drag.latencies);
  const moves = samples.reduce((a, s) => a + s.count.moves, 0) || 1;
  const renders: Record<string, number> = {};
  for (const s of samples) for (const [k, v] of Object.entries(s.count.renders)) renders[k] = (renders[k] ?? 0) + v;
  const total = Object.values(renders).reduce((a, b) => a + b, 0);
  const top = Object.fromEntries(Object.entries(renders).sort((a, b) => b[1] - a[1]).slice(0, 10).map(([k, v]) => [k, round(v / moves, 2)]));
  return {
    readyMs: round(median(samples.map((s) => s.readyMs))),
    readyP95: round(p95(samples.map((s) => s.readyMs))),
    renderedNodes: median(samples.map((s) => s.renderedNodes)),
    nodesAfterPan: median(samples.map((s) => s.nodesAfterPan)),
    loadLongtaskMs: round(median(samples.map((s) => s.loadLongtaskMs))),
    panFrameP50: round(median(pan)), panFrameP95: round(p95(pan)),
    dragFrameP50: round(median(dragI)), dragFrameP95: round(p95(dragI)),
    frameP95: round(p95([...pan, ...dragI])),
    dragLatencyP50: round(median(lat)), dragLatencyP95: round(p95(lat)),
    interactionLongtasks: median(samples.map((s) => s.pan.longtasks + s.drag.longtasks)),
    interactionLongtaskMs: round(median(samples.map((s) => s.pan.longtaskMs + s.drag.longtaskMs))),
    rendersPerMove: { nodeWrappers: round((renders.NodeWrapper ?? 0) / moves, 2), edgeWrappers: round((renders.EdgeWrapper ?? 0) / moves, 2), components: round(total / moves, 2), top },
  };
}

/** Pair by pair (rep k of ours with rep k of peer): ours/peer of the interaction frame p95, load time and drag latency p95. */
function ratios(ours: LoadSample[], peer: LoadSample[]) {
  const pairs = ours.map((o) => [o, peer.find((p) => p.rep === o.rep)!] as const).filter(([, p]) => p);
  const framesP95 = (s: LoadSample) => p95([...s.pan.intervals, ...s.drag.intervals]);
  const each = pairs.map(([o, p]) => ({
    rep: o.rep,
    frameP95: round(framesP95(o) / framesP95(p), 3),
    panFrameP95: round(p95(o.pan.intervals) / p95(p.pan.intervals), 3),
    dragFrameP95: round(p95(o.drag.intervals) / p95(p.drag.intervals), 3),
    ready: round(o.readyMs / p.readyMs, 3),
    dragLatencyP95: round(p95(o.drag.latencies) / p95(p.drag.latencies), 3),
  }));
  const med = (k: keyof (typeof each)[number]) => round(median(each.map((e) => e[k])), 3);
  return { pairs: each, frameP95: med("frameP95"), panFrameP95: med("panFrameP95"), dragFrameP95: med("dragFrameP95"), ready: med("ready"), dragLatencyP95: med("dragLatencyP95") };
}

interface SizeResult { n: number; ours: ArmSummary; peer: ArmSummary; ratio: ReturnType<typeof ratios> }
interface StoredResult { sizes: SizeResult[] }

/** `npm run bench -- editor [--smoke]`. */
export async function run({ smoke }: { smoke: boolean }): Promise<{ summary: string; ok: boolean }> {
  const plan = smoke ? SMOKE : planFromEnv(FULL);
  const dir = await buildPages();
  const server = await startPageServer(dir);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  const samples: LoadSample[] = [];
  const sizes: SizeResult[] = [];
  // The full run's JSON is rewritten after every size, so a run cut short still leaves what it measured.
  const save = async (complete: boolean) => {
    if (smoke) return;
    const { version } = (await import("@xyflow/react/package.json", { with: { type: "json" } })).default as { version: string };
    await writeResult(RESULT_FILE, {
      bench: "B3 editor vs plain React Flow",
      goal: "frame p95 ≤ 1.25× the peer at 500 nodes; renders per drag move proportional to the nodes moved; 2,000 nodes load and pan",
      method: {
        ready: "ms from navigation start until the canvas shows its nodes, none hidden (unmeasured), and node count + viewport transform hold for 10 frames",
        frames: "requestAnimationFrame intervals while panning (plan.panSteps steps) and dragging (plan.drags drags × plan.dragSteps moves), one real mouse move per frame",
        latency: "pointermove timeStamp → end of the next frame's work (rAF then a message-channel task)",
        renders: "React commits via the DevTools global hook: components that performed work, per pointermove during plan.countDrags extra drags",
        plan,
        ours: "components/editor/workflow-editor.tsx (palette, canvas, inspector, live validation, history) bundled with esbuild, app Tailwind CSS, instant stub server actions",
        peer: "@xyflow/react <ReactFlow> with default nodes, useNodesState/useEdgesState, fitView, same ids/positions/edges",
      },
      versions: { xyflow: version, chromium: browserVersion },
      machine: await machine(),
      at: new Date().toISOString(),
      sizes,
      samples,
      complete,
    });
  };
  const browserVersion = browser.version();
  try {
    for (const n of plan.sizes) {
      const warm = plan.warmup && !("warmupOnlyFirstSize" in plan && plan.warmupOnlyFirstSize && n !== plan.sizes[0]);
      if (warm) for (const arm of ["ours", "peer"] as const) await measureLoad(browser, server.url, arm, n, -1, plan);
      for (let rep = 0; rep < plan.reps; rep++) {
        // Interleaved, and which arm goes first alternates too.
        const order: Arm[] = rep % 2 ? ["peer", "ours"] : ["ours", "peer"];
        for (const arm of order) {
          const s = await measureLoad(browser, server.url, arm, n, rep, plan);
          samples.push(s);
          if (!smoke) process.stdout.write(`  b3 ${arm} ${n} rep ${rep}: ready ${s.readyMs.toFixed(0)} ms, pan p95 ${p95(s.pan.intervals).toFixed(1)} ms, drag p95 ${p95(s.drag.intervals).toFixed(1)} ms\n`);
        }
      }
      const ours = samples.filter((s) => s.n === n && s.arm === "ours");
      const peer = samples.filter((s) => s.n === n && s.arm === "peer");
      sizes.push({ n, ours: summarise(ours), peer: summarise(peer), ratio: ratios(ours, peer) });
      await save(n === plan.sizes.at(-1));
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const line = (r: SizeResult) =>
    `${r.n}: ready ${r.ours.readyMs}/${r.peer.readyMs} ms, frame p95 ${r.ours.frameP95}/${r.peer.frameP95} ms (×${r.ratio.frameP95}), renders/move ${r.ours.rendersPerMove.nodeWrappers}/${r.peer.rendersPerMove.nodeWrappers} node wrappers`;
  const stored = await readResult<StoredResult>(RESULT_FILE);
  if (smoke) {
    const mine = sizes[0]!;
    const ref = stored?.sizes.find((s) => s.n === mine.n);
    const ok = !ref || mine.ratio.frameP95 < 2 * ref.ratio.frameP95;
    return { summary: `ours/peer ${line(mine)}${ref ? ` (stored ×${ref.ratio.frameP95})` : ""}`, ok };
  }
  await save(true);
  const at500 = sizes.find((s) => s.n === 500);
  return { summary: `ours/peer ${sizes.map(line).join(" | ")}${at500 ? `; goal at 500: ≤ 1.25×, got ×${at500.ratio.frameP95}` : ""}`, ok: true };
}
