/**
 * Run cost estimates, shared by the /runs list (built on the server) and the run dashboard (in the
 * browser). Client-safe: no imports, like lib/run-views/dto.ts.
 */

/** USD per one million tokens, per model name (the settings' price table). */
export type Prices = Record<string, { promptPer1M: number; completionPer1M: number }>;

/** Tokens of one model (within a run or a step). */
export interface ModelUsage {
  model: string;
  promptTokens: number;
  completionTokens: number;
}

/**
 * Estimated USD cost of usage under a price table; null when no model used has a price (so the UI
 * shows "—" rather than a misleading $0). Models without a price count as 0 once any model has one.
 */
export function estimateCost(prices: Prices | undefined, usage: readonly ModelUsage[]): number | null {
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
