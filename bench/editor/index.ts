/**
 * B3 editor at 10 / 100 / 500 / 2,000 nodes — our editor (the real WorkflowEditor component) vs a
 * plain React Flow page (default nodes, same ids/positions/edges, same @xyflow/react), both bundled
 * the same way (bench/editor/build.ts) and driven in /usr/bin/chromium by Playwright with real mouse
 * input (bench/editor/measure.ts). Per page load: time to interactive (every node rendered and the
 * first drag answered), time until the view stands still, 20 pan steps, 20 node drags (frame
 * intervals, pointermove → frame latency, long tasks), then a few more drags with React's commit
 * hook on to count component renders per drag move. Repetitions interleave the arms (ours, peer,
 * peer, ours…) after a warm-up load of each.
 * Full run → bench/results/editor-b3.json: the sizes measured replace their entries, the others are
 * kept as stored (with their own `at`). `--smoke` (100 nodes, one pair) fails only when the frame-p95
 * ratio is ≥ 2× the stored one.
 */
import os from "node:os";
import { chromium } from "@playwright/test";
import { machine, readResult, writeResult } from "../stats";
import { buildPages } from "./build";
import { cpuThrottle, measureLoad, VIEWPORT, type LoadSample, type Plan } from "./measure";
import { startPageServer, type Arm } from "./server";
import { ratios, summarise, type ArmSummary } from "./summary";

const RESULT_FILE = "editor-b3.json";

/** Its smoke (bundle + Chromium + one pair at 100 nodes) takes minutes on a 2-core machine: named runs only. */
export const smokeInSuite = false;

const FULL: Plan = {
  sizes: [10, 100, 500, 2000],
  reps: 5,
  warmup: true,
  panSteps: 20,
  drags: 20,
  dragSteps: 8,
  countDrags: 3,
};
const SMOKE: Plan = { sizes: [100], reps: 1, warmup: false, panSteps: 20, drags: 5, dragSteps: 8, countDrags: 2 };

/**
 * A run can be narrowed (B3_SIZES=10,100 B3_REPS=9 B3_DRAGS=10 B3_COUNT_DRAGS=1 B3_WARMUP=first|none); the plan used is
 * stored with each size's results. B3_VERBOSE=1 prints how long each phase of each page load took.
 */
function planFromEnv(base: Plan): Plan & { warmupOnlyFirstSize?: boolean } {
  const num = (v: string | undefined) => (v && Number.isFinite(Number(v)) ? Number(v) : undefined);
  return {
    ...base,
    sizes: process.env.B3_SIZES ? process.env.B3_SIZES.split(",").map(Number) : base.sizes,
    reps: num(process.env.B3_REPS) ?? base.reps,
    drags: num(process.env.B3_DRAGS) ?? base.drags,
    countDrags: num(process.env.B3_COUNT_DRAGS) ?? base.countDrags,
    ...(process.env.B3_WARMUP === "first" ? { warmupOnlyFirstSize: true } : {}),
    ...(process.env.B3_WARMUP === "none" ? { warmup: false } : {}),
  };
}

/** `loadAverage`: the machine's 1-minute load average before and after the size was measured (2 cores: above ~1.5, others were busy). */
interface SizeResult {
  n: number;
  at?: string;
  plan?: Plan;
  loadAverage?: [number, number];
  /** The CPU slow-down its pan and drag frames were measured under (absent: none). */
  cpuThrottle?: number;
  ours: ArmSummary;
  peer: ArmSummary;
  ratio: ReturnType<typeof ratios>;
}
interface StoredResult {
  at?: string;
  sizes: SizeResult[];
  samples?: LoadSample[];
}

const GOAL =
  "time to interactive ≤ 1.25× the peer at 10, 100 and 500 nodes, ≤ 1.5 s at 2,000; frame p95 ≤ 1.25× the peer at 500 nodes; renders per drag move proportional to the nodes moved; 2,000 nodes load and pan";

const METHOD = {
  tti: "time to interactive: ms from navigation start until the frame that shows the first drag answered; the drag is pressed with the real mouse the moment every node of the graph is rendered (none hidden), on a node in view, and moved 2 × 6 px",
  ready:
    "ms from navigation start until the canvas shows its nodes, none hidden (unmeasured), and node count + viewport transform hold for 10 frames",
  frames:
    "requestAnimationFrame intervals while panning (plan.panSteps steps) and dragging (plan.drags drags × plan.dragSteps moves), one real mouse move per frame",
  latency: "pointermove timeStamp → end of the next frame's work (rAF then a message-channel task)",
  renders:
    "React commits via the DevTools global hook: components that performed work, per pointermove during plan.countDrags extra drags",
  viewport: VIEWPORT,
  ours: "components/editor/workflow-editor.tsx (palette, canvas, inspector, live validation, history) bundled with esbuild, app Tailwind CSS, instant stub server actions",
  peer: "@xyflow/react <ReactFlow> with default nodes, useNodesState/useEdgesState, fitView, same ids/positions/edges",
};

/** The stored sizes this run did not measure are kept, each with the time of the run that measured it. */
function merged(
  stored: StoredResult | undefined,
  sizes: SizeResult[],
  samples: LoadSample[],
): { sizes: SizeResult[]; samples: LoadSample[] } {
  const fresh = new Set(sizes.map((s) => s.n));
  const kept = (stored?.sizes ?? []).filter((s) => !fresh.has(s.n)).map((s) => ({ ...s, at: s.at ?? stored?.at }));
  const keptSamples = (stored?.samples ?? []).filter((s) => !fresh.has(s.n));
  return { sizes: [...sizes, ...kept].sort((a, b) => a.n - b.n), samples: [...samples, ...keptSamples] };
}

const line = (r: SizeResult) =>
  `${r.n}: tti ${r.ours.ttiMs}/${r.peer.ttiMs} ms (×${r.ratio.tti}, ${r.ratio.ttiInterval.join("–")}), ready ${r.ours.readyMs}/${r.peer.readyMs} ms, ` +
  `frame p95 ${r.ours.frameP95}/${r.peer.frameP95} ms (×${r.ratio.frameP95}), renders/move ${r.ours.rendersPerMove.nodeWrappers}/${r.peer.rendersPerMove.nodeWrappers} node wrappers`;

/** `npm run bench -- editor [--smoke]`. */
export async function run({ smoke }: { smoke: boolean }): Promise<{ summary: string; ok: boolean }> {
  const plan: Plan & { warmupOnlyFirstSize?: boolean } = smoke ? SMOKE : planFromEnv(FULL);
  const dir = await buildPages();
  const server = await startPageServer(dir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  const browserVersion = browser.version();
  const stored = await readResult<StoredResult>(RESULT_FILE);
  const samples: LoadSample[] = [];
  const sizes: SizeResult[] = [];
  // The JSON is rewritten after every size, so a run cut short still leaves what it measured.
  const save = async (complete: boolean) => {
    if (smoke) return;
    const { version } = (await import("@xyflow/react/package.json", { with: { type: "json" } })).default as {
      version: string;
    };
    const all = merged(stored, sizes, samples);
    await writeResult(RESULT_FILE, {
      bench: "B3 editor vs plain React Flow",
      goal: GOAL,
      method: METHOD,
      versions: { xyflow: version, chromium: browserVersion },
      machine: await machine(),
      at: new Date().toISOString(),
      sizes: all.sizes,
      samples: all.samples,
      complete,
    });
  };
  try {
    for (const n of plan.sizes) {
      const loadBefore = os.loadavg()[0]!;
      const warm = plan.warmup && !(plan.warmupOnlyFirstSize && n !== plan.sizes[0]);
      if (warm) for (const arm of ["ours", "peer"] as const) await measureLoad(browser, server.url, arm, n, -1, plan);
      for (let rep = 0; rep < plan.reps; rep++) {
        // Interleaved, and which arm goes first alternates too.
        const order: Arm[] = rep % 2 ? ["peer", "ours"] : ["ours", "peer"];
        for (const arm of order) {
          const s = await measureLoad(browser, server.url, arm, n, rep, plan);
          samples.push(s);
          if (!smoke)
            process.stdout.write(
              `  b3 ${arm} ${n} rep ${rep}: tti ${s.ttiMs.toFixed(0)} ms (rendered ${s.renderedMs.toFixed(0)}, first drag ${s.firstDragMs.toFixed(0)}), ready ${s.readyMs.toFixed(0)} ms\n`,
            );
        }
      }
      const ours = samples.filter((s) => s.n === n && s.arm === "ours");
      const peer = samples.filter((s) => s.n === n && s.arm === "peer");
      const loadAverage: [number, number] = [Math.round(loadBefore * 10) / 10, Math.round(os.loadavg()[0]! * 10) / 10];
      sizes.push({
        n,
        at: new Date().toISOString(),
        plan,
        cpuThrottle: cpuThrottle(),
        loadAverage,
        ours: summarise(ours),
        peer: summarise(peer),
        ratio: ratios(ours, peer),
      });
      await save(n === plan.sizes.at(-1));
    }
  } finally {
    await browser.close();
    await server.close();
  }
  if (smoke) {
    const mine = sizes[0]!;
    const ref = stored?.sizes.find((s) => s.n === mine.n);
    const ok = !ref || mine.ratio.frameP95 < 2 * ref.ratio.frameP95;
    return { summary: `ours/peer ${line(mine)}${ref ? ` (stored ×${ref.ratio.frameP95})` : ""}`, ok };
  }
  return { summary: `ours/peer ${sizes.map(line).join(" | ")}; goal: tti ≤ 1.25× the peer`, ok: true };
}
