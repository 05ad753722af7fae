/**
 * Aggregates of an experiment's scores: the mean with a 95 % confidence interval (Student's t for
 * small samples), pass rates and regressions against the first variant. Pure.
 */

/** Two-sided 95 % critical values of Student's t by degrees of freedom 1–30; above 30 the normal 1.96 is used. */
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** The 95 % critical value of Student's t with `df` degrees of freedom. */
export const t95 = (df: number): number => (df < 1 ? Number.NaN : df <= 30 ? T95[df - 1]! : 1.96);

/** Mean and 95 % interval of the mean (null bounds with fewer than two values). */
export function meanWithInterval(values: readonly number[]): {
  mean: number | null;
  low: number | null;
  high: number | null;
} {
  const n = values.length;
  if (!n) return { mean: null, low: null, high: null };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, low: null, high: null };
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  const half = (t95(n - 1) * sd) / Math.sqrt(n);
  return { mean, low: Math.max(0, mean - half), high: Math.min(1, mean + half) };
}

/** The median of some numbers (null for none). */
export function median(values: readonly number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** A cell as aggregates need it. */
export interface ScoredCell {
  status: string;
  score: number | null;
  passed: boolean | null;
  tokens: number;
  /** What judging the cell spent (default 0). */
  judgeTokens?: number;
  costUsd: number | null;
  latencyMs: number | null;
}

/** One variant's aggregate over its cells. */
export interface VariantAggregate {
  cells: number;
  scored: number;
  cancelled: number;
  mean: number | null;
  low: number | null;
  high: number | null;
  passRate: number | null;
  /** The runs' tokens. */
  tokens: number;
  /** The judges' tokens, apart: scoring is not the workflow's cost. */
  judgeTokens: number;
  costUsd: number | null;
  medianLatencyMs: number | null;
}

/** The aggregate of one variant's cells (scored cells with a score count toward the mean). */
export function aggregate(cells: readonly ScoredCell[]): VariantAggregate {
  const scored = cells.filter((c) => c.status === "scored");
  const scores = scored.map((c) => c.score).filter((s): s is number => s !== null);
  const verdicts = scored.filter((c) => c.passed !== null);
  const costs = scored.map((c) => c.costUsd).filter((c): c is number => c !== null);
  return {
    cells: cells.length,
    scored: scored.length,
    cancelled: cells.filter((c) => c.status === "cancelled").length,
    ...meanWithInterval(scores),
    passRate: verdicts.length ? verdicts.filter((c) => c.passed).length / verdicts.length : null,
    tokens: scored.reduce((a, c) => a + c.tokens, 0),
    judgeTokens: scored.reduce((a, c) => a + (c.judgeTokens ?? 0), 0),
    costUsd: costs.length ? costs.reduce((a, b) => a + b, 0) : null,
    medianLatencyMs: median(scored.map((c) => c.latencyMs).filter((l): l is number => l !== null)),
  };
}

/**
 * Whether a cell regressed against the baseline's (the first variant's) cell of the same row: it
 * failed where the baseline passed, or scored lower by more than `margin`.
 */
export function isRegression(cell: ScoredCell | undefined, baseline: ScoredCell | undefined, margin = 1e-9): boolean {
  if (!cell || !baseline || cell.status !== "scored" || baseline.status !== "scored") return false;
  if (baseline.passed === true && cell.passed === false) return true;
  return cell.score !== null && baseline.score !== null && cell.score < baseline.score - margin;
}
