import * as z from "zod";

/**
 * Live text frames: what a running step's model calls write, sent to viewers as it arrives. They are
 * EPHEMERAL (never in the run's event log; the durable step_finished replaces them) and travel as
 * `event: live` SSE frames beside the status events, with ids `<last seq>-t<n>` (lib/events/sse.ts).
 * Pure (no server-only): the browser folds frames with `applyLiveFrame`.
 *
 * Each frame says where its text starts (`at`, in UTF-16 code units of the step's text): a viewer
 * sets `text = text.slice(0, at) + frame.text`. A frame with `reset` replaces the text from `at`
 * (a snapshot for a viewer that joins mid-step has `at` 0; a model call retried mid-stream cuts
 * back to where it began); a frame without `reset` continues the text exactly where the viewer's
 * copy ends, which the server guarantees per viewer (no gap, no repeat).
 */
export interface LiveFrame {
  /** The step: node, iteration and attempt. */
  nodeId: string;
  iteration: number;
  attempt: number;
  at: number;
  text: string;
  reset?: true;
  /** The latest tool call the model started in this step (its name). */
  tool?: string;
  /** The step ended: its durable result follows in the event log. */
  done?: true;
}

export const liveFrameSchema = z.object({
  nodeId: z.string().min(1).max(200),
  iteration: z.number().int().nonnegative(),
  attempt: z.number().int().nonnegative(),
  at: z.number().int().nonnegative(),
  text: z.string(),
  reset: z.literal(true).optional(),
  tool: z.string().max(200).optional(),
  done: z.literal(true).optional(),
});

/** The hash field (and map key) of a step's live text. */
export const liveStepField = (s: { nodeId: string; iteration: number; attempt: number }): string =>
  `${s.nodeId}#${s.iteration}#${s.attempt}`;

/** Reads a step key back from its field; null when malformed. */
export function parseLiveStepField(field: string): { nodeId: string; iteration: number; attempt: number } | null {
  const m = /^(.+)#(\d+)#(\d+)$/.exec(field);
  return m ? { nodeId: m[1]!, iteration: Number(m[2]), attempt: Number(m[3]) } : null;
}

/** A viewer's copy of one step's live text. */
export interface LiveStepText {
  nodeId: string;
  iteration: number;
  attempt: number;
  text: string;
  tool?: string;
  done: boolean;
}

/**
 * Folds `frame` into `texts` (keyed by nodeId#iteration#attempt). Returns false when it changed
 * nothing: a frame that would leave a gap (its `at` beyond the copy's end, without `reset`) is
 * refused rather than guessed at. An older attempt of a node is dropped when a newer one writes.
 */
export function applyLiveFrame(texts: Map<string, LiveStepText>, frame: LiveFrame): boolean {
  const key = liveStepField(frame);
  let cur = texts.get(key);
  if (!cur) {
    if (!frame.reset && frame.at > 0) return false;
    for (const [k, t] of texts)
      if (
        t.nodeId === frame.nodeId &&
        (t.iteration < frame.iteration || (t.iteration === frame.iteration && t.attempt < frame.attempt))
      )
        texts.delete(k);
    cur = { nodeId: frame.nodeId, iteration: frame.iteration, attempt: frame.attempt, text: "", done: false };
    texts.set(key, cur);
  }
  if (!frame.reset && frame.at > cur.text.length) return false;
  if (frame.reset || frame.text) cur.text = cur.text.slice(0, frame.at) + frame.text;
  if (frame.tool) cur.tool = frame.tool;
  if (frame.done) cur.done = true;
  return true;
}

/** The SSE id of a live frame: the last durable seq sent before it, then `-t` and a counter; resumes like that seq. */
export const liveFrameId = (lastSeq: number, n: number): string => `${lastSeq}-t${n}`;
