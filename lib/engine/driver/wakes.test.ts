import { describe, expect, it } from "vitest";
import type { ClockPort, StoredEvent } from "../ports";
import { WakeBatcher } from "./wakes";

/** A clock whose time only moves when the test says so; sleeps resolve when it passes their end. */
function manualClock() {
  let now = 1_000;
  const sleepers: { until: number; resolve: () => void }[] = [];
  const clock: ClockPort = {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        const entry = { until: now + ms, resolve };
        sleepers.push(entry);
        signal?.addEventListener(
          "abort",
          () => {
            sleepers.splice(sleepers.indexOf(entry), 1);
            reject(signal.reason);
          },
          { once: true },
        );
      }),
  };
  const advance = async (ms: number) => {
    now += ms;
    for (const s of sleepers.filter((x) => x.until <= now)) {
      sleepers.splice(sleepers.indexOf(s), 1);
      s.resolve();
    }
    await new Promise((r) => setImmediate(r));
  };
  return { clock, advance, pendingTimers: () => sleepers.length };
}

const ev = (seq: number): StoredEvent => ({
  seq,
  at: new Date(0),
  event: { type: "step_progress", nodeId: "a", iteration: 1, message: `m${seq}` },
});

function setup(windowMs = 5) {
  const { clock, advance, pendingTimers } = manualClock();
  const sent: number[][] = [];
  const batcher = new WakeBatcher((events) => sent.push(events.map((e) => e.seq)), clock, windowMs);
  return { batcher, sent, advance, pendingTimers };
}

describe("WakeBatcher: at most one wake-up per window, none delayed after a quiet spell", () => {
  it("sends the first commit at once and batches the ones within its window for the window's end", async () => {
    const { batcher, sent, advance } = setup();
    batcher.push([ev(1), ev(2)]);
    expect(sent).toEqual([[1, 2]]);
    await advance(1);
    batcher.push([ev(3)]);
    await advance(1);
    batcher.push([ev(4), ev(5)]);
    expect(sent).toEqual([[1, 2]]);
    await advance(2);
    expect(sent).toEqual([[1, 2]]);
    await advance(1);
    expect(sent).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
  });

  it("a commit after a quiet spell of a whole window goes out at once (the usual case with real model calls)", async () => {
    const { batcher, sent, advance, pendingTimers } = setup();
    for (let seq = 1; seq <= 4; seq++) {
      batcher.push([ev(seq)]);
      expect(sent.at(-1)).toEqual([seq]);
      await advance(5);
    }
    expect(sent).toHaveLength(4);
    expect(pendingTimers()).toBe(0);
  });

  it("keeps a steady stream of commits to one wake-up per window, every seq once and in order", async () => {
    const { batcher, sent, advance } = setup();
    for (let seq = 1; seq <= 40; seq++) {
      batcher.push([ev(seq)]);
      await advance(1);
    }
    await advance(5);
    expect(sent.flat()).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(sent.length).toBeLessThanOrEqual(9);
  });

  it("urgent events (the run's end) and flush send what is pending at once and disarm the timer", async () => {
    const { batcher, sent, advance, pendingTimers } = setup();
    batcher.push([ev(1)]);
    batcher.push([ev(2)]);
    expect(pendingTimers()).toBe(1);
    batcher.push([ev(3)], true);
    expect(sent).toEqual([[1], [2, 3]]);
    expect(pendingTimers()).toBe(0);
    batcher.push([ev(4)]);
    batcher.flush();
    expect(sent).toEqual([[1], [2, 3], [4]]);
    await advance(10);
    batcher.flush();
    expect(sent).toHaveLength(3);
  });

  it("a window of 0 sends every commit on its own", () => {
    const { batcher, sent } = setup(0);
    for (let seq = 1; seq <= 3; seq++) batcher.push([ev(seq)]);
    expect(sent).toEqual([[1], [2], [3]]);
  });
});
