import { describe, expect, it } from "vitest";
import { checkVersion } from "@/lib/workflow/checked-versions";
import { mayHaveSubflowLinks } from "./subflow-answers";

const plain = {
  nodes: [{ id: "start", type: "start" }, { id: "end", type: "end" }],
  edges: [{ id: "e", source: "start", sourceHandle: "next", target: "end" }],
};
const withSubflow = {
  nodes: [{ id: "start", type: "start" }, { id: "sub", type: "subflow", workflowId: "wf-child", inputs: {} }, { id: "end", type: "end" }],
  edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "sub" }, { id: "e2", source: "sub", sourceHandle: "done", target: "end" }],
};

describe("mayHaveSubflowLinks (whether a run's end reads its subflow links)", () => {
  it("skips the read only for a start job of a run without a parent whose kept version has no subflow node", () => {
    expect(checkVersion("v-plain", plain).ok).toBe(true);
    expect(checkVersion("v-sub", withSubflow).ok).toBe(true);
    expect(mayHaveSubflowLinks({ versionId: "v-plain", inputs: {} })).toBe(false);
    expect(mayHaveSubflowLinks({ versionId: "v-sub", inputs: {} })).toBe(true);
    expect(mayHaveSubflowLinks({ versionId: "v-plain", inputs: {}, child: true })).toBe(true);
    expect(mayHaveSubflowLinks({ versionId: "v-not-kept-here", inputs: {} })).toBe(true);
    expect(mayHaveSubflowLinks(undefined)).toBe(true);
  });
});
