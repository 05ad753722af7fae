import { describe, expect, it } from "vitest";
import { MAX_NOTIFICATION_BYTES, runFinishedBody } from "./deliver";

const run = {
  id: "r1",
  status: "succeeded" as const,
  reason: "done",
  outputs: { article: "short" },
  trigger: "webhook" as const,
  createdAt: new Date("2026-12-02T10:00:00Z"),
  startedAt: new Date("2026-12-02T10:00:01Z"),
  finishedAt: new Date("2026-12-02T10:00:09Z"),
  workflowId: "w1",
  workflowName: "Article writer",
  version: 3,
};

describe("runFinishedBody", () => {
  it("carries the run's end, its workflow and a link to it", () => {
    expect(JSON.parse(runFinishedBody("d1", run, "https://weft.example.com/"))).toEqual({
      event: "run.finished",
      deliveryId: "d1",
      run: {
        id: "r1",
        status: "succeeded",
        reason: "done",
        outputs: { article: "short" },
        trigger: "webhook",
        workflow: { id: "w1", name: "Article writer", version: 3 },
        createdAt: "2026-12-02T10:00:00.000Z",
        startedAt: "2026-12-02T10:00:01.000Z",
        finishedAt: "2026-12-02T10:00:09.000Z",
        url: "https://weft.example.com/runs/r1",
      },
    });
    expect(JSON.parse(runFinishedBody("d1", run, undefined)).run.url).toBeUndefined();
  });

  it("leaves out outputs that would make the body too large, and says so", () => {
    const big = { ...run, outputs: { article: "x".repeat(MAX_NOTIFICATION_BYTES) } };
    const body = runFinishedBody("d1", big, undefined);
    expect(Buffer.byteLength(body)).toBeLessThan(4_096);
    expect(JSON.parse(body).run).toMatchObject({ id: "r1", status: "succeeded", outputs: null, outputsOmitted: true });
  });
});
