import type { Prices } from "./types";

/** Tokens of one model. */
export interface Usage {
  model: string;
  promptTokens: number;
  completionTokens: number;
}

/**
 * Estimated USD cost of usage under a price table; null when no model used has a price (so the UI
 * shows "—" rather than a misleading $0). Models without a price count as 0 once any model has one.
 */
export function estimateCost(prices: Prices | undefined, usage: readonly Usage[]): number | null {
  if (!prices) return null;
  let total = 0;
  let priced = false;
  for (const u of usage) {
    const p = prices[u.model];
    if (!p) continue;
    priced = true;
    total += (u.promptTokens * p.promptPer1M + u.completionTokens * p.completionPer1M) / 1_000_000;
  }
  return priced ? total : null;
}

/** "$0.0123" style, "—" for null. */
export function formatCost(usd: number | null): string {
  if (usd === null) return "—";
  if (usd === 0) return "$0";
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** "850 ms", "1.2 s", "3 m 4 s"; "—" for null. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} m ${Math.round((ms % 60_000) / 1000)} s`;
}
