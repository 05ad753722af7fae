/**
 * One B3 page load in Chromium (either arm): time to interactive (every node rendered, the first drag
 * answered), the stable-view readiness, then pan steps, node drags and render counts with real mouse
 * input. The in-page side is bench/editor/probe.ts.
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { PROBE_SCRIPT } from "./probe";
import type { Arm } from "./server";

/** What a run measures per page load (the stored plan). */
export interface Plan {
  sizes: number[];
  reps: number;
  warmup: boolean;
  panSteps: number;
  drags: number;
  dragSteps: number;
  countDrags: number;
}

export interface PhaseRaw {
  phase: string;
  ms: number;
  intervals: number[];
  latencies: number[];
  moves: number;
  longtasks: number;
  longtaskMs: number;
}

export interface LoadSample {
  arm: Arm;
  n: number;
  rep: number;
  /** ms from navigation start: every node rendered (none hidden), and the frame showing the first drag answered. */
  renderedMs: number;
  ttiMs: number;
  /** pointerdown of the first drag → the frame that shows the node moved; presses that missed a node (the view moved). */
  firstDragMs: number;
  firstDragMissed: number;
  readyMs: number;
  renderedNodes: number;
  renderedEdges: number;
  nodesAfterPan: number;
  loadLongtasks: number;
  loadLongtaskMs: number;
  pan: PhaseRaw;
  drag: PhaseRaw;
  count: { moves: number; commits: number; renders: Record<string, number> };
}

/** The viewport of every B3 page load (as in the stored 500 / 2,000-node results). */
export const VIEWPORT = { width: 1600, height: 1000 };

type Point = { x: number; y: number };
type Probe = {
  __b3: {
    ready: { at: number; nodes: number; edges: number } | null;
    rendered: { at: number } | null;
    pressed: { at: number } | null;
    regrab: () => Point | null;
    missed: number;
    tti: { at: number } | null;
    longtasks: { start: number; duration: number }[];
    start: (p: string) => void;
    stop: () => Promise<PhaseRaw>;
    count: (on: boolean) => { commits: number; renders: Record<string, number> };
  };
};
const nextFrame = (page: Page) => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => r())));

/**
 * The first drag, pressed at the point the probe found the moment every node was rendered: press,
 * two moves, wait for the frame that shows the node moved, release. A press that landed on no node
 * (the view moved in between) is released and pressed again at a fresh point.
 */
async function firstDrag(page: Page, at: Point): Promise<void> {
  let p: Point | null = at;
  for (let attempt = 0; attempt < 20 && p; attempt++) {
    await page.mouse.move(p.x, p.y);
    await page.mouse.down();
    await page.mouse.move(p.x + 6, p.y + 4);
    await page.mouse.move(p.x + 12, p.y + 8);
    const pressed = await page.evaluate(() => (window as unknown as Probe).__b3.pressed !== null);
    if (pressed) {
      await page.waitForFunction(() => (window as unknown as Probe).__b3.tti !== null, undefined, {
        timeout: 60_000,
        polling: "raf",
      });
      await page.mouse.up();
      return;
    }
    await page.mouse.up();
    await nextFrame(page);
    p = await page.evaluate(() => (window as unknown as Probe).__b3.regrab());
  }
  throw new Error("the first drag never reached a node");
}

/** A point on the empty canvas near the middle (grid points nearest-first; the first that hits the pane). */
async function emptyPanePoint(page: Page): Promise<Point> {
  return page.evaluate(() => {
    const pane = document.querySelector(".react-flow__pane")!.getBoundingClientRect();
    const cx = pane.left + pane.width / 2,
      cy = pane.top + pane.height / 2;
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

/** The grab point of the k-th movable node (not start/end) whose header a press reaches. */
async function nodeGrabPoint(page: Page, k: number): Promise<Point & { id: string }> {
  return page.evaluate((k) => {
    const pane = document.querySelector(".react-flow__pane")!.getBoundingClientRect();
    const inside = [...document.querySelectorAll<HTMLElement>(".react-flow__node")].flatMap((el) => {
      const r = el.getBoundingClientRect();
      const id = el.dataset.id ?? "";
      if (id === "start" || id === "end") return [];
      const x = r.left + r.width / 2,
        y = r.top + Math.min(10, r.height / 2);
      if (x < pane.left + 60 || x > pane.right - 60 || y < pane.top + 20 || y > pane.bottom - 60) return [];
      return document.elementFromPoint(x, y)?.closest(".react-flow__node") === el ? [{ x, y, id }] : [];
    });
    if (!inside.length) throw new Error("no visible node to drag");
    return inside[(k * 7919) % inside.length]!;
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

/** What the probe saw up to the first drag answered (ms since navigation start). */
export interface LoadTimes {
  ready: { at: number; nodes: number; edges: number };
  rendered: number;
  tti: number;
  pressed: number;
  missed: number;
  longtasks: number;
  longtaskMs: number;
}

/**
 * Opens `url` in a new page of `context` with the probe, presses the first drag the moment every node
 * is rendered, and waits until it was answered and the view stands still. `errors` collects page errors.
 */
export async function openInteractive(
  context: BrowserContext,
  url: string,
  errors: string[],
  beforeGoto?: (page: Page) => Promise<void>,
): Promise<{ page: Page; load: LoadTimes }> {
  let dragging: Promise<void> | undefined;
  await context.exposeBinding("__b3Grab", ({ page }, at: Point) => {
    dragging ??= firstDrag(page, at);
  });
  await context.addInitScript({ content: PROBE_SCRIPT });
  const page = await context.newPage();
  page.on("pageerror", (e) => errors.push(e.message));
  await beforeGoto?.(page);
  await page.goto(url, { waitUntil: "commit" });
  try {
    const done = () => Boolean((window as unknown as Probe).__b3.ready && (window as unknown as Probe).__b3.tti);
    await page.waitForFunction(done, undefined, { timeout: 240_000, polling: 100 });
    await dragging;
  } catch (e) {
    throw new Error(
      `${url}: never interactive${errors.length ? ` (page errors: ${errors.join("; ")})` : ""}: ${(e as Error).message}`,
    );
  }
  const load = await page.evaluate(() => {
    const s = (window as unknown as Probe).__b3;
    const lt = s.longtasks.filter((l) => l.start <= s.ready!.at);
    const longtaskMs = lt.reduce((a, l) => a + l.duration, 0);
    return {
      ready: s.ready!,
      rendered: s.rendered!.at,
      tti: s.tti!.at,
      pressed: s.pressed!.at,
      missed: s.missed,
      longtasks: lt.length,
      longtaskMs,
    };
  });
  return { page, load };
}

/** Loads `arm` with `n` nodes in a fresh context and measures it (see the file comment). */
export async function measureLoad(
  browser: Browser,
  base: string,
  arm: Arm,
  n: number,
  rep: number,
  plan: Plan,
): Promise<LoadSample> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const errors: string[] = [];
    const { page, load } = await openInteractive(context, `${base}/${arm}?n=${n}`, errors);
    const start = (phase: string) => page.evaluate((ph) => (window as unknown as Probe).__b3.start(ph), phase);
    const stop = () => page.evaluate(() => (window as unknown as Probe).__b3.stop());
    const lap = lapTimer(`${arm} ${n}`);

    // Pan: press on empty canvas and move in small steps (one frame each).
    const at = await emptyPanePoint(page);
    lap("findPane");
    // frames are measured on a throttled CPU (B3_CPU_THROTTLE, default 4×): unthrottled, both arms
    // keep up with the display and every frame interval is the same 16.7 ms
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpuThrottle() });
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
    lap("drag");

    // Render counts: React's commit hook on, a few more drags.
    await page.evaluate(() => (window as unknown as Probe).__b3.count(true));
    await start("count");
    for (let k = 0; k < plan.countDrags; k++) await drag(page, plan.drags + k, plan.dragSteps);
    const countPhase = await stop();
    const counted = await page.evaluate(() => (window as unknown as Probe).__b3.count(false));
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    lap("count");
    if (errors.length) throw new Error(`${arm} ${n}: page errors: ${errors.join("; ")}`);
    return {
      arm,
      n,
      rep,
      renderedMs: load.rendered,
      ttiMs: load.tti,
      firstDragMs: load.tti - load.pressed,
      firstDragMissed: load.missed,
      readyMs: load.ready.at,
      renderedNodes: load.ready.nodes,
      renderedEdges: load.ready.edges,
      nodesAfterPan,
      loadLongtasks: load.longtasks,
      loadLongtaskMs: load.longtaskMs,
      pan,
      drag: dragPhase,
      count: { moves: countPhase.moves, commits: counted.commits, renders: counted.renders },
    };
  } finally {
    await context.close();
  }
}

/** The CPU slow-down the pan and drag phases run under (B3_CPU_THROTTLE, default 4; 1 = none). */
export const cpuThrottle = (): number => Math.max(1, Number(process.env.B3_CPU_THROTTLE ?? 4) || 4);

/** B3_VERBOSE=1: how long each phase of a page load took (wall clock). */
function lapTimer(label: string): (name: string) => void {
  let t = Date.now();
  return (name) => {
    if (process.env.B3_VERBOSE) process.stdout.write(`    ${label}: ${name} took ${Date.now() - t} ms\n`);
    t = Date.now();
  };
}
