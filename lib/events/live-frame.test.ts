import { describe, expect, it } from "vitest";
import { applyLiveFrame, liveStepField, parseLiveStepField, type LiveStepText } from "./live-frame";
import { resumeSeq } from "./sse";

const step = { nodeId: "n", iteration: 1, attempt: 1 };

describe("applyLiveFrame", () => {
  it("continues, replaces on reset, refuses a gap, and drops an older attempt when a newer one writes", () => {
    const texts = new Map<string, LiveStepText>();
    expect(applyLiveFrame(texts, { ...step, at: 0, text: "Hel" })).toBe(true);
    expect(applyLiveFrame(texts, { ...step, at: 3, text: "lo" })).toBe(true);
    expect(applyLiveFrame(texts, { ...step, at: 9, text: "gap" })).toBe(false);
    expect(applyLiveFrame(texts, { ...step, at: 0, text: "Hello again", reset: true, tool: "search" })).toBe(true);
    expect(texts.get(liveStepField(step))).toMatchObject({ text: "Hello again", tool: "search", done: false });
    expect(applyLiveFrame(texts, { ...step, at: 5, text: "", reset: true, done: true })).toBe(true);
    expect(texts.get(liveStepField(step))).toMatchObject({ text: "Hello", done: true });
    expect(applyLiveFrame(texts, { ...step, attempt: 2, at: 0, text: "B" })).toBe(true);
    expect([...texts.keys()]).toEqual(["n#1#2"]);
    // a first frame that does not start the text (joined mid-step without a snapshot) is refused
    expect(applyLiveFrame(new Map(), { ...step, at: 4, text: "x" })).toBe(false);
  });

  it("step fields round-trip, node ids with # included; tool fields are not steps", () => {
    expect(parseLiveStepField(liveStepField({ nodeId: "a#b", iteration: 3, attempt: 2 }))).toEqual({
      nodeId: "a#b",
      iteration: 3,
      attempt: 2,
    });
    expect(parseLiveStepField("n#1#1|tool")).toBeNull();
    expect(parseLiveStepField("garbage")).toBeNull();
  });

  it("a token frame's id resumes after the seq it carries; anything else replays from the start", () => {
    const at = (id: string) => resumeSeq(new Request("http://x/", { headers: { "last-event-id": id } }));
    expect(at("12")).toBe(12);
    expect(at("12-t40")).toBe(12);
    expect(at("12-t")).toBe(0);
    expect(at("-3")).toBe(0);
    expect(at("1e3")).toBe(0);
  });
});
