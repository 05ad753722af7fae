/**
 * Live text port: what a running step's model calls write, as it arrives (tokens, tool-call names).
 * EPHEMERAL: never part of the run's durable log, never one store write per token; the step's
 * durable result (step_finished) replaces it. The wiring layer sends it over Redis (lib/events/live-text-writer.ts);
 * without the port nothing is streamed and nothing else changes.
 */

/** The running step a live text belongs to. */
export interface LiveStepKey {
  runId: string;
  nodeId: string;
  iteration: number;
  attempt: number;
}

/** One running step's live text. Every method is fire and forget: it never throws and never waits. */
export interface LiveTextSink {
  /** Appends text the model wrote. */
  append(text: string): void;
  /** Cuts the text back to `length` characters (a model call retried mid-stream starts over). */
  truncate(length: number): void;
  /** A tool call started (its name, as soon as the model named it). */
  tool(name: string): void;
  /** The step ended: the live text is dropped (the durable result replaces it). */
  close(): void;
}

export interface LiveTextPort {
  open(key: LiveStepKey): LiveTextSink;
}
