import { isTerminalRunStatus } from "@/lib/engine/events";
import type { StorePort } from "@/lib/engine/ports";
import { createLogger } from "@/lib/logger";
import { median, quantile } from "../stats";

/**
 * B1 diagnostic, not a store: times the worker's store calls from inside B1's worker process
 * (`B1_TIMING=1 npm run bench -- engine`; bench/engine/worker.ts wraps its store with this), where
 * phases.ts can only time them in its own process, which measured faster. Per call, in ms:
 *  - `claim`: a run's first statement (claimRun), sent after the BullMQ hand-over;
 *  - `commit`: every later commit's round trip, and `chain` only those with one result and one
 *    start (a chain step's commit, the same statement in every shape);
 *  - `gap`: the engine's time on the critical path, from a store call's return to the run's next
 *    commit (perform, executor, mailbox, plan, building the statement), and `chainGap` only those
 *    before a chain step's commit (the fan-out's and the router's gaps hold more work);
 *  - `terminal`: the commit that ends the run (with the step log, the one that writes its rows).
 * One collector for the whole process: `wrap` is applied to each run job's store (engine-ports.ts
 * builds the ports per job); `report()` logs the medians and p90s as one "b1 store timing" line,
 * under `timings` (B1's bench prints it).
 */
export function storeTiming() {
  const claims: number[] = [];
  const commits: number[] = [];
  const chain: number[] = [];
  const gaps: number[] = [];
  const chainGaps: number[] = [];
  const terminals: number[] = [];
  /** When the run's last store call returned, while the run is still running. */
  const returned = new Map<string, number>();
  /** Runs one store call, records its duration in `into` (and in `also`, when given), and notes when it returned. */
  const timed = async <T>(
    runId: string,
    call: () => Promise<T>,
    into: number[],
    also?: number[],
    terminal = false,
  ): Promise<T> => {
    const t0 = performance.now();
    try {
      return await call();
    } finally {
      const t1 = performance.now();
      into.push(t1 - t0);
      also?.push(t1 - t0);
      if (terminal) returned.delete(runId);
      else returned.set(runId, t1);
    }
  };
  const wrap = (inner: StorePort): StorePort => ({
    ...inner,
    claimRun: (runId, owner) => timed(runId, () => inner.claimRun(runId, owner), claims),
    commit: (runId, c) => {
      const last = returned.get(runId);
      const isChain = c.stepResults?.length === 1 && c.stepStarts?.length === 1;
      if (last !== undefined) {
        const gap = performance.now() - last;
        gaps.push(gap);
        if (isChain) chainGaps.push(gap);
      }
      const terminal = c.run?.status !== undefined && isTerminalRunStatus(c.run.status);
      return timed(
        runId,
        () => inner.commit(runId, c),
        commits,
        isChain ? chain : terminal ? terminals : undefined,
        terminal,
      );
    },
  });
  const row = (v: number[]) => ({ n: v.length, p50: round(median(v)), p90: round(quantile(v, 0.9)) });
  return {
    wrap,
    report: () =>
      createLogger({ component: "b1-timing" }).info("b1 store timing", {
        timings: {
          claim: row(claims),
          commit: row(commits),
          chain: row(chain),
          gap: row(gaps),
          chainGap: row(chainGaps),
          terminal: row(terminals),
        },
      }),
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;
