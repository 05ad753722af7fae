import { describe, expect, it } from "vitest";
import type { ToolCallRequest, ToolsPort } from "@/lib/engine/ports";
import { retryingTools } from "./ledger";

const tooMany = () => Object.assign(new Error("sorry, too many clients already"), { code: "53300" });
const request = {
  ref: { name: "t" },
  args: {},
  runId: "r",
  signal: new AbortController().signal,
} as unknown as ToolCallRequest;

describe("retryingTools", () => {
  it("repeats a resolve or call that failed on a transient database error, and passes other errors through", async () => {
    let resolves = 0;
    let calls = 0;
    const flaky: ToolsPort = {
      resolve: async () => {
        if (++resolves < 3) throw tooMany();
        return { name: "t", description: "d", parameters: {}, sideEffects: false } as never;
      },
      call: async () => {
        if (++calls === 1) throw tooMany();
        if (calls === 2) return { ok: true, output: "done" };
        throw new Error("tool bug");
      },
    };
    const port = retryingTools(flaky);
    expect(await port.resolve({ name: "t" })).toMatchObject({ name: "t" });
    expect(resolves).toBe(3);
    expect(await port.call(request)).toEqual({ ok: true, output: "done" });
    await expect(port.call(request)).rejects.toThrow("tool bug");
    expect(calls).toBe(3);
  });
});
