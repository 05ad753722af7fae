import { errorClassLabels, type ErrorPolicy } from "@/lib/workflow/error-policy";

/** A duration for people: "800 ms", "2 s", "1.5 min", "2 h". */
export function formatDelay(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 60_000) return `${+(ms / 1_000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${+(ms / 60_000).toFixed(1)} min`;
  return `${+(ms / 3_600_000).toFixed(1)} h`;
}

/**
 * What a node does when a try fails, in short (the canvas badge) and in full (its title): null when
 * it has no policy and no timeout.
 */
export function describeErrorPolicy(node: {
  timeoutMs?: number;
  onError?: ErrorPolicy;
}): { short: string; full: string } | null {
  const policy = node.onError;
  if (!policy && node.timeoutMs === undefined) return null;
  const short: string[] = [];
  const full: string[] = [];
  if (node.timeoutMs !== undefined) {
    short.push(`⏱${formatDelay(node.timeoutMs)}`);
    full.push(`Each try times out after ${formatDelay(node.timeoutMs)}.`);
  }
  const retry = policy?.retry;
  if (retry && retry.maxAttempts > 1 && retry.on.length > 0) {
    short.push(`↻${retry.maxAttempts - 1}`);
    const classes = retry.on.map((c) => errorClassLabels[c].toLowerCase()).join(", ");
    full.push(
      `Retries up to ${retry.maxAttempts - 1}× on ${classes}, first after ${formatDelay(retry.initialDelayMs)}, ` +
        `×${retry.backoffFactor} each time` +
        `${retry.maxDelayMs !== undefined ? ` (at most ${formatDelay(retry.maxDelayMs)})` : ""}.`,
    );
  }
  if (policy?.onExhausted === "fallback") {
    short.push("fallback");
    full.push(`Then answers its fallback output${policy.fallbackBranch ? ` along "${policy.fallbackBranch}"` : ""}.`);
  } else if (policy?.onExhausted === "error_branch") {
    short.push("→ error");
    full.push("Then follows its error branch, carrying the error.");
  } else if (policy) {
    full.push("Then the run fails.");
  }
  return short.length > 0 ? { short: short.join(" "), full: full.join(" ") } : null;
}
