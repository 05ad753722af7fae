/**
 * Liveness of the workers that held interrupted steps. On resume the driver asks whether the worker
 * behind each interrupted attempt died (a crash, counted toward the crash-loop cap, D3) or was still
 * alive after the takeover (it lost its queue lock while starved or frozen: not counted, D1).
 * Optional: without it every interruption counts as a crash.
 */

/** What is known now about the worker behind one lease owner. */
export interface WorkerSighting {
  /** Its last heartbeat (ms since the epoch, by its clock); null when none is on record. */
  beat: number | null;
  /** It shut down gracefully since, handing its steps back: it did not die of them. */
  stopped?: boolean;
  /** It is the worker asking (the queue re-delivered the run to the very worker that lost it). */
  self?: boolean;
}

export interface LivenessPort {
  /** Silence (no heartbeat) after which a worker is presumed dead, in ms. */
  readonly deadAfterMs: number;
  /** How often to look again while a verdict is awaited, in ms. */
  readonly pollMs: number;
  /** One sighting per lease owner, in order (null owner: unknown worker). May throw (then nothing is learnt). */
  sight(owners: (string | null)[]): Promise<WorkerSighting[]>;
}
