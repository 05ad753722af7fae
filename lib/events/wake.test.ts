import { describe, expect, it } from "vitest";
import type { RunEventEnvelope } from "@/lib/engine/events";
import { decodeWake, encodeWake, WAKE_PAYLOAD_MAX_BYTES } from "./wake";

const envelope = (seq: number, runId = "r1", message = "m"): RunEventEnvelope => ({
  runId,
  seq,
  at: "2026-01-01T00:00:00.000Z",
  event: { type: "step_progress", nodeId: "a", iteration: 1, message },
});

describe("wake-up messages", () => {
  it("round-trips the committed envelopes", () => {
    const events = [envelope(4), envelope(5)];
    expect(decodeWake("r1", encodeWake(5, events))).toEqual({ last: 5, events });
  });

  it("sends only the hint when the envelopes are too large", () => {
    const raw = encodeWake(7, [envelope(7, "r1", "x".repeat(WAKE_PAYLOAD_MAX_BYTES))]);
    expect(raw).toBe('{"last":7}');
    expect(decodeWake("r1", raw)).toEqual({ last: 7 });
  });

  it("reads the bare seq of older publishers", () => {
    expect(decodeWake("r1", "12")).toEqual({ last: 12 });
  });

  it("degrades to a re-read on garbage, invalid events or another run's envelopes", () => {
    expect(decodeWake("r1", "not json")).toEqual({ last: null });
    expect(
      decodeWake("r1", JSON.stringify({ last: 3, events: [{ ...envelope(3), event: { type: "nope" } }] })),
    ).toEqual({ last: null });
    expect(decodeWake("r1", encodeWake(3, [envelope(3, "r2")]))).toEqual({ last: 3 });
  });
});
