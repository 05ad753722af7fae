import type { ClockPort, StoredEvent } from "../ports";

/** The driver's window (RunJobOptions.wakeWindowMs): below a frame (16 ms), above a trivial step's commit interval. */
export const DEFAULT_WAKE_WINDOW_MS = 5;

/** A plain abort reason for the trailing timer (no DOMException with a stack per batch). */
const SENT = Object.freeze({ reason: "wake-up sent" });

/**
 * One run's wake-ups to live viewers, at most one per `windowMs`. Events committed after a quiet
 * spell of at least `windowMs` go out at once (leading edge); events committed within the window of
 * the last wake-up wait for its end and then go out together (trailing edge), in seq order. So a
 * run whose steps commit every few milliseconds sends one wake-up per window instead of one per
 * commit, and an isolated commit (the normal case with real model calls) is not delayed at all.
 * `urgent` (the run's last events) and `flush` (the job ends) send what is pending at once.
 *
 * Why: a wake-up per commit put a Redis write on every step's critical path (bench/history.md).
 * Wake-ups are hints (viewers re-read PostgreSQL on a seq gap and on their poll), so batching them
 * loses nothing.
 */
export class WakeBatcher {
  private pending: StoredEvent[] = [];
  private timer: AbortController | undefined;
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly send: (events: StoredEvent[]) => void,
    private readonly clock: ClockPort,
    private readonly windowMs: number,
  ) {}

  /** Queues committed events; sends them now or at the end of the current window. */
  push(events: readonly StoredEvent[], urgent = false): void {
    this.pending.push(...events);
    if (this.pending.length === 0) return;
    const wait = this.last + this.windowMs - this.clock.now();
    if (urgent || (wait <= 0 && !this.timer)) return this.flush();
    if (this.timer) return;
    const timer = (this.timer = new AbortController());
    this.clock.sleep(wait, timer.signal).then(
      () => this.timer === timer && this.flush(),
      () => undefined,
    );
  }

  /** Sends what is pending now and disarms the trailing timer. */
  flush(): void {
    this.timer?.abort(SENT);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.last = this.clock.now();
    this.send(batch);
  }
}
