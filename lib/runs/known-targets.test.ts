import { describe, expect, it } from "vitest";
import { workflowSchema } from "@/lib/workflow/schema";
import { forgetTarget, KNOWN_TARGETS_MAX, knownTarget, rememberTarget } from "./known-targets";

const document = workflowSchema.parse({ name: "W" });
const target = (versionId: string) => ({ versionId, version: 1, workflowName: "W", document });

describe("known start targets", () => {
  it("are kept per owner, workflow and requested version, and forgotten on demand", () => {
    rememberTarget("u1", "wf", undefined, target("v-draft"));
    rememberTarget("u1", "wf", 3, target("v3"));
    expect(knownTarget("u1", "wf")?.versionId).toBe("v-draft");
    expect(knownTarget("u1", "wf", 3)?.versionId).toBe("v3");
    expect(knownTarget("u2", "wf")).toBeUndefined();
    forgetTarget("u1", "wf");
    expect(knownTarget("u1", "wf")).toBeUndefined();
    expect(knownTarget("u1", "wf", 3)?.versionId).toBe("v3");
  });

  it("keep at most KNOWN_TARGETS_MAX, dropping the one kept longest ago (a start keeps its own fresh)", () => {
    rememberTarget("bound", "first", undefined, target("v0"));
    for (let i = 1; i < KNOWN_TARGETS_MAX; i++) rememberTarget("bound", `wf${i}`, undefined, target(`v${i}`));
    rememberTarget("bound", "first", undefined, target("v0")); // kept again: now the newest
    rememberTarget("bound", "one-more", undefined, target("vx"));
    expect(knownTarget("bound", "first")?.versionId).toBe("v0");
    expect(knownTarget("bound", "wf1")).toBeUndefined();
    expect(knownTarget("bound", "wf2")?.versionId).toBe("v2");
    expect(knownTarget("bound", "one-more")?.versionId).toBe("vx");
  });
});
