import { describe, expect, it } from "vitest";
import type { ToolsPort } from "@/lib/engine/ports";
import { dryRunTools, sampleInputsFor, traceOf } from "./dry-run";

describe("designer dry run helpers", () => {
  it("fills every required input: the model's samples first, else a typed placeholder", () => {
    const fields = [
      { key: "topic", type: "text", description: "", required: true },
      { key: "n", type: "number", description: "", required: true },
      { key: "note", type: "string", description: "", required: false },
    ] as const;
    expect(sampleInputsFor([...fields], { topic: "owls" })).toEqual({ topic: "owls", n: 1 });
  });

  it("runs read-only tools and skips side-effecting ones", async () => {
    const called: string[] = [];
    const inner: ToolsPort = {
      resolve: async (ref) => ({
        name: ref.name,
        description: "",
        parameters: {},
        sideEffect: ref.name === "send_mail",
      }),
      call: async (req) => (called.push(req.ref.name), { ok: true, output: "done" }),
    };
    const tools = dryRunTools(inner);
    const req = (name: string) => ({
      ref: { name },
      args: {},
      runId: "r",
      nodeId: "n",
      signal: new AbortController().signal,
    });
    await tools.resolve({ name: "search" });
    await tools.resolve({ name: "send_mail" });
    expect(await tools.call(req("search"))).toEqual({ ok: true, output: "done" });
    expect(await tools.call(req("send_mail"))).toMatchObject({
      ok: true,
      output: expect.stringContaining("not called"),
    });
    expect(await tools.call(req("never_resolved"))).toMatchObject({ output: expect.stringContaining("not called") });
    expect(called).toEqual(["search"]);
  });

  it("traces a run: its end first, then one line per finished step", () => {
    const at = new Date();
    const trace = traceOf([
      {
        seq: 1,
        at,
        event: {
          type: "step_finished",
          nodeId: "a",
          iteration: 1,
          status: "succeeded",
          output: "hi",
          promptTokens: 0,
          completionTokens: 0,
        },
      },
      {
        seq: 2,
        at,
        event: {
          type: "step_finished",
          nodeId: "b",
          iteration: 1,
          status: "failed",
          error: "boom",
          promptTokens: 0,
          completionTokens: 0,
        },
      },
      { seq: 3, at, event: { type: "run_finished", status: "failed", reason: "step b failed" } },
    ] as never);
    expect(trace.split("\n")).toEqual(["run failed: step b failed", "a#1 succeeded: hi", "b#1 failed: boom"]);
  });
});
