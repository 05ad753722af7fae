"use client";
import { useEffect, useRef, useState } from "react";
import { runEventEnvelopeSchema } from "@/lib/engine/events";
import type { RunInfoView, StepView } from "@/lib/run-views/dto";
import { liveFrameSchema, type LiveFrame } from "@/lib/events/live-frame";
import { applyEnvelope, applyLive, initialRunState, type RunState } from "./run-fold";

/** Connection state of the live stream. `revoked` = share link revoked or expired (share view only). */
export type LiveState = "connecting" | "live" | "reconnecting" | "ended" | "revoked" | "closed";

interface Options {
  url: string;
  run: RunInfoView;
  steps: readonly StepView[];
  /** Share view: on a dropped stream, GET this; a 404 means the link was revoked or expired. */
  checkUrl?: string;
}

/**
 * Subscribes to a run's SSE stream and folds every event into one RunState. EventSource reconnects
 * by itself with Last-Event-ID, and the fold ignores seqs it already applied, so a dropped
 * connection costs no event and no duplicate. Re-renders at most once per animation frame.
 */
export function useRunEvents({ url, run, steps, checkUrl }: Options): { state: RunState; live: LiveState } {
  const stateRef = useRef<RunState | null>(null);
  stateRef.current ??= initialRunState(run, steps);
  const [, setTick] = useState(0);
  const [live, setLive] = useState<LiveState>("connecting");

  useEffect(() => {
    const state = stateRef.current!;
    let frame = 0;
    let stopped = false;
    const flush = () => {
      frame = 0;
      setTick(state.version);
    };
    const es = new EventSource(url);
    es.onopen = () => setLive("live");
    es.onmessage = (msg: MessageEvent<string>) => {
      const parsed = runEventEnvelopeSchema.safeParse(JSON.parse(msg.data));
      if (!parsed.success || !applyEnvelope(state, parsed.data)) return;
      if (!frame) frame = requestAnimationFrame(flush);
    };
    // live text of running steps (ephemeral token frames; only streams allowed to see content send them)
    es.addEventListener("live", (msg: MessageEvent<string>) => {
      const parsed = liveFrameSchema.safeParse(JSON.parse(msg.data));
      if (!parsed.success || !applyLive(state, parsed.data as LiveFrame)) return;
      if (!frame) frame = requestAnimationFrame(flush);
    });
    es.addEventListener("end", () => {
      stopped = true;
      es.close();
      setLive("ended");
    });
    es.onerror = () => {
      if (stopped) return;
      if (checkUrl) {
        void fetch(checkUrl, { cache: "no-store" }).then(
          (res) => {
            if (res.status === 404) {
              stopped = true;
              es.close();
              setLive("revoked");
            }
          },
          () => undefined,
        );
      }
      setLive(es.readyState === EventSource.CLOSED ? "closed" : "reconnecting");
    };
    return () => {
      stopped = true;
      es.close();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [url, checkUrl]);

  return { state: stateRef.current, live };
}
