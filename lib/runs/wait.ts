import "server-only";
import { isTerminalRunStatus, type RunStatus } from "@/lib/engine/events";
import { waitsForPerson } from "@/lib/db/runs";
import { runEventHub, runProgress } from "@/lib/events";
import { createLogger } from "@/lib/logger";

const log = createLogger({ component: "run-wait" });

/** Longest a request may wait for its run (`?wait=` seconds): long enough for a short workflow, short of proxies' idle timeouts. */
export const MAX_WAIT_SECONDS = 60;

/** How often the run's status is read again when no wake-up came (Redis down, or a wake-up lost). */
const FALLBACK_POLL_MS = 2_000;

/**
 * Waits until the run is terminal or waits for a person (status `waiting` with a human review,
 * which may take days; a run waiting only for its subflows' runs is waited for), `timeoutMs` passed or `signal` aborted, and answers the status it last read (null:
 * no such run). Woken by the run's Redis wake-ups (lib/events hub), subscribed BEFORE
 * the first read so no ending is missed; PostgreSQL is read again on each wake-up and every 2 s, so a
 * Redis outage only makes it slower.
 */
export async function waitForRunEnd(
  runId: string,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<RunStatus | null> {
  let wake: () => void = () => undefined;
  const woken = () => new Promise<void>((resolve) => (wake = resolve));
  let next = woken();
  let unsubscribe: (() => void) | undefined;
  try {
    // a wake-up that carries its events and neither run_finished nor run_waiting cannot be the end: no read for it
    unsubscribe = await runEventHub().subscribe(runId, (w) => {
      if (!w.events || w.events.some((e) => e.event.type === "run_finished" || e.event.type === "run_waiting")) wake();
    });
  } catch (err) {
    log.warn("no wake-ups for a waiting request; reading PostgreSQL every 2 s", { runId, err });
  }
  const aborted = new Promise<void>((resolve) => {
    if (opts.signal?.aborted) resolve();
    opts.signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  const deadline = Date.now() + opts.timeoutMs;
  try {
    for (;;) {
      const progress = await runProgress(runId);
      const status = (progress?.status ?? null) as RunStatus | null;
      if (!status || isTerminalRunStatus(status) || opts.signal?.aborted) return status;
      if (status === "waiting" && (await waitsForPerson(runId))) return status;
      const left = deadline - Date.now();
      if (left <= 0) return status;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        next,
        aborted,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(left, FALLBACK_POLL_MS)))),
      ]);
      clearTimeout(timer);
      next = woken();
    }
  } finally {
    unsubscribe?.();
  }
}

/** `?wait=` of a request: whole seconds, 0 (the default) to answer at once, at most MAX_WAIT_SECONDS; null when malformed. */
export function waitSeconds(url: string): number | null {
  const raw = new URL(url).searchParams.get("wait");
  if (raw === null || raw === "") return 0;
  if (!/^\d{1,4}$/.test(raw)) return null;
  return Math.min(Number(raw), MAX_WAIT_SECONDS);
}
