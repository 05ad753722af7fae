import { describe, expect, it } from "vitest";
import { deliveryEventLabel, describeDelivery, type DeliveryRow } from "./notifier-types";

const now = new Date("2026-12-02T10:00:00Z");
const at = new Date("2026-12-02T09:58:00Z");
const d = (over: Partial<DeliveryRow>): DeliveryRow => ({
  id: "d",
  runId: "r",
  status: "delivered",
  attempts: 1,
  responseStatus: 200,
  error: null,
  createdAt: at,
  ...over,
});

describe("describeDelivery", () => {
  it("says when and how the last delivery went", () => {
    expect(describeDelivery(null, now)).toBe("Nothing sent yet");
    expect(describeDelivery(d({}), now)).toBe("Delivered 2 minutes ago (200, 1 try)");
    expect(
      describeDelivery(
        d({ status: "failed", attempts: 6, responseStatus: 503, error: "The receiver answered 503" }),
        now,
      ),
    ).toBe("Failed 2 minutes ago after 6 tries: The receiver answered 503");
    expect(describeDelivery(d({ status: "pending", attempts: 0, responseStatus: null }), now)).toBe(
      "Sending (2 minutes ago)",
    );
    expect(
      describeDelivery(d({ status: "pending", attempts: 2, responseStatus: null, error: "connect ECONNREFUSED" }), now),
    ).toBe("Retrying after 2 tries (2 minutes ago): connect ECONNREFUSED");
  });
});

describe("deliveryEventLabel", () => {
  it("names what a delivery told", () => {
    expect(deliveryEventLabel("run.waiting")).toBe("Review waiting");
    expect(deliveryEventLabel("run.finished")).toBe("Run ended");
    expect(deliveryEventLabel(undefined)).toBe("Run ended");
  });
});
