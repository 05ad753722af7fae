import { describe, expect, it } from "vitest";
import type { LiveStepText } from "@/lib/events/live-frame";
import { applyLiveText, applyRunEvent, initialRunView } from "./run-overlay";

const step = { nodeId: "write", iteration: 1, attempt: 1 };

describe("the editor overlay's now-writing line", () => {
  it("shows the tail of a running step's live text and drops it when the step's durable result arrives", () => {
    const texts = new Map<string, LiveStepText>();
    let view = applyRunEvent(initialRunView(["write"]), 1, {
      type: "step_started",
      nodeId: "write",
      iteration: 1,
      attempt: 1,
    } as never);
    view = applyLiveText(view, texts, { ...step, at: 0, text: "Owls hunt " });
    view = applyLiveText(view, texts, { ...step, at: 10, text: "at night." });
    expect(view.nodes.get("write")?.writing).toBe("writing: Owls hunt at night.");
    view = applyLiveText(view, texts, { ...step, at: 19, text: "", tool: "search" });
    expect(view.nodes.get("write")?.writing).toBe("writing: Owls hunt at night.");
    // a frame that would leave a gap changes nothing
    expect(applyLiveText(view, texts, { ...step, at: 99, text: "x" })).toBe(view);
    view = applyRunEvent(view, 2, {
      type: "step_finished",
      nodeId: "write",
      iteration: 1,
      attempt: 1,
      status: "succeeded",
      output: "Owls hunt at night.",
    } as never);
    expect(view.nodes.get("write")?.writing).toBeUndefined();
    // late frames of the finished step stay out of the view
    expect(applyLiveText(view, texts, { ...step, at: 19, text: " More." }).nodes.get("write")?.writing).toBeUndefined();
  });
});
