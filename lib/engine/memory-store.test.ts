import { describe, expect, it } from "vitest";
import type { RunEvent } from "./events";
import { MemoryStore } from "./memory-store";

/** The reference store refuses events that are not in runEventSchema's exact form (the SQL store writes them as given). */
describe("MemoryStore event check", () => {
  const store = () => {
    const s = new MemoryStore();
    s.create("r1", {});
    return s;
  };
  const commit = async (s: MemoryStore, event: unknown) => {
    const claimed = await s.claimRun("r1", "w1");
    if (!claimed.ok) throw new Error("claim failed");
    return s.commit("r1", { owner: "w1", expectedVersion: claimed.run.version, events: [event as RunEvent] });
  };

  it("stores an event in its schema's form", async () => {
    const s = store();
    expect(await commit(s, { type: "run_started", inputs: {}, resumed: false, redispatched: [] })).toMatchObject({
      ok: true,
    });
    expect(s.run("r1").events.map((e) => e.event.type)).toEqual(["run_started"]);
  });

  it("throws for a missing default, an unknown key or a wrong type, and stores nothing", async () => {
    const s = store();
    await expect(commit(s, { type: "run_started", inputs: {} })).rejects.toThrow(/schema's form/);
    await expect(
      commit(s, { type: "run_started", inputs: {}, resumed: false, redispatched: [], extra: 1 }),
    ).rejects.toThrow(/schema's form/);
    await expect(
      commit(s, { type: "step_started", nodeId: "a", iteration: 0, attempt: 1, kind: "agent" }),
    ).rejects.toThrow(/does not match/);
    expect(s.run("r1").events).toEqual([]);
  });
});
