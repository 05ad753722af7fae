import { describe, expect, it } from "vitest";
import type { LiveStepKey, LiveTextPort } from "../ports";
import { stepLiveText } from "./live-text";

/** A port that records what a step's sink was told, folded into the text a viewer would hold. */
function recording() {
  const log: string[] = [];
  let text = "";
  let opened = 0;
  const port: LiveTextPort = {
    open: (_key: LiveStepKey) => {
      opened++;
      return {
        append: (t) => void ((text += t), log.push(`+${t}`)),
        truncate: (n) => void ((text = text.slice(0, n)), log.push(`cut ${n}`)),
        tool: (name) => void log.push(`tool ${name}`),
        close: () => void log.push("close"),
      };
    },
  };
  return { port, log, text: () => text, opened: () => opened };
}

const key = { runId: "r", nodeId: "n", iteration: 1, attempt: 1 };

describe("stepLiveText", () => {
  it("a call retried mid-stream is cut back to where it began; calls are separated by a blank line", () => {
    const r = recording();
    const live = stepLiveText(r.port, key, () => true);
    const first = live.call();
    first.onDelta("Hello ", 1);
    first.onDelta("wor", 1);
    first.onDelta("Hello ", 2); // attempt 2 starts over
    first.onDelta("world", 2);
    first.done("Hello world");
    const second = live.call();
    second.onToolStart("search");
    second.onDelta("Found it.", 1);
    second.done("Found it.");
    live.close();
    expect(r.text()).toBe("Hello world\n\nFound it.");
    expect(r.log).toContain("cut 0");
    expect(r.log).toContain("tool search");
    expect(r.log.at(-1)).toBe("close");
  });

  it("a provider that does not stream shows its whole answer once, at the end", () => {
    const r = recording();
    const live = stepLiveText(r.port, key, () => true);
    const call = live.call();
    call.done("The whole answer");
    expect(r.text()).toBe("The whole answer");
    expect(r.log).toEqual(["+The whole answer"]);
  });

  it("nothing is opened for a step that writes nothing, and nothing goes out after the step settled", () => {
    const r = recording();
    let settled = false;
    const live = stepLiveText(r.port, key, () => !settled);
    live.call().done("");
    expect(r.opened()).toBe(0);
    settled = true;
    live.call().onDelta("late", 1);
    expect(r.opened()).toBe(0);
    expect(
      stepLiveText(undefined, key, () => true)
        .call()
        .onDelta("x", 1),
    ).toBeUndefined();
  });
});
