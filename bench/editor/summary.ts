/** B3 summaries: per arm and size, and ours ÷ peer pair by pair. */
import { bootstrapRatioOfMedians, median, p95 } from "../stats";
import type { LoadSample } from "./measure";

export interface ArmSummary {
  ttiMs: number;
  ttiP95: number;
  renderedMs: number;
  firstDragMs: number;
  readyMs: number;
  readyP95: number;
  renderedNodes: number;
  nodesAfterPan: number;
  loadLongtaskMs: number;
  panFrameP50: number;
  panFrameP95: number;
  dragFrameP50: number;
  dragFrameP95: number;
  frameP95: number;
  dragLatencyP50: number;
  dragLatencyP95: number;
  interactionLongtasks: number;
  interactionLongtaskMs: number;
  rendersPerMove: { nodeWrappers: number; edgeWrappers: number; components: number; top: Record<string, number> };
}

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/** Medians (and p95s) of one arm's page loads at one size. */
export function summarise(samples: LoadSample[]): ArmSummary {
  const pan = samples.flatMap((s) => s.pan.intervals);
  const dragI = samples.flatMap((s) => s.drag.intervals);
  const lat = samples.flatMap((s) => s.drag.latencies);
  const moves = samples.reduce((a, s) => a + s.count.moves, 0) || 1;
  const renders: Record<string, number> = {};
  for (const s of samples) for (const [k, v] of Object.entries(s.count.renders)) renders[k] = (renders[k] ?? 0) + v;
  const total = Object.values(renders).reduce((a, b) => a + b, 0);
  const top = Object.fromEntries(
    Object.entries(renders)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([k, v]) => [k, round(v / moves, 2)]),
  );
  return {
    ttiMs: round(median(samples.map((s) => s.ttiMs))),
    ttiP95: round(p95(samples.map((s) => s.ttiMs))),
    renderedMs: round(median(samples.map((s) => s.renderedMs))),
    firstDragMs: round(median(samples.map((s) => s.firstDragMs))),
    readyMs: round(median(samples.map((s) => s.readyMs))),
    readyP95: round(p95(samples.map((s) => s.readyMs))),
    renderedNodes: median(samples.map((s) => s.renderedNodes)),
    nodesAfterPan: median(samples.map((s) => s.nodesAfterPan)),
    loadLongtaskMs: round(median(samples.map((s) => s.loadLongtaskMs))),
    panFrameP50: round(median(pan)),
    panFrameP95: round(p95(pan)),
    dragFrameP50: round(median(dragI)),
    dragFrameP95: round(p95(dragI)),
    frameP95: round(p95([...pan, ...dragI])),
    dragLatencyP50: round(median(lat)),
    dragLatencyP95: round(p95(lat)),
    interactionLongtasks: median(samples.map((s) => s.pan.longtasks + s.drag.longtasks)),
    interactionLongtaskMs: round(median(samples.map((s) => s.pan.longtaskMs + s.drag.longtaskMs))),
    rendersPerMove: {
      nodeWrappers: round((renders.NodeWrapper ?? 0) / moves, 2),
      edgeWrappers: round((renders.EdgeWrapper ?? 0) / moves, 2),
      components: round(total / moves, 2),
      top,
    },
  };
}

/**
 * Pair by pair (rep k of ours with rep k of peer): ours/peer of time to interactive, the interaction
 * frame p95, load time and drag latency p95, with the median over the pairs; time to interactive as
 * the ratio of the arms' medians with its bootstrap interval (pairs resampled).
 */
export function ratios(ours: LoadSample[], peer: LoadSample[]) {
  const pairs = ours.map((o) => [o, peer.find((p) => p.rep === o.rep)!] as const).filter(([, p]) => p);
  const framesP95 = (s: LoadSample) => p95([...s.pan.intervals, ...s.drag.intervals]);
  const each = pairs.map(([o, p]) => ({
    rep: o.rep,
    tti: round(o.ttiMs / p.ttiMs, 3),
    frameP95: round(framesP95(o) / framesP95(p), 3),
    panFrameP95: round(p95(o.pan.intervals) / p95(p.pan.intervals), 3),
    dragFrameP95: round(p95(o.drag.intervals) / p95(p.drag.intervals), 3),
    ready: round(o.readyMs / p.readyMs, 3),
    dragLatencyP95: round(p95(o.drag.latencies) / p95(p.drag.latencies), 3),
  }));
  const med = (k: keyof (typeof each)[number]) => round(median(each.map((e) => e[k])), 3);
  const ttiO = pairs.map(([o]) => o.ttiMs),
    ttiP = pairs.map(([, p]) => p.ttiMs);
  const [lo, hi] = pairs.length ? bootstrapRatioOfMedians(ttiO, ttiP) : [NaN, NaN];
  return {
    pairs: each,
    tti: round(median(ttiO) / median(ttiP), 3),
    ttiInterval: [round(lo, 3), round(hi, 3)] as [number, number],
    frameP95: med("frameP95"),
    panFrameP95: med("panFrameP95"),
    dragFrameP95: med("dragFrameP95"),
    ready: med("ready"),
    dragLatencyP95: med("dragLatencyP95"),
  };
}
