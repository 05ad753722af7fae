import { describe, expect, it } from "vitest";
import { formatFireTime } from "./schedule-types";

describe("formatFireTime", () => {
  it("shows a fire time in the schedule's own zone, 24-hour, with the zone named", () => {
    const at = new Date("2026-12-03T08:00:00Z");
    expect(formatFireTime(at, "Europe/Berlin")).toBe("Thu, Dec 3, 09:00 (Europe/Berlin)");
    expect(formatFireTime(at, "America/New_York")).toBe("Thu, Dec 3, 03:00 (America/New_York)");
    expect(formatFireTime(new Date("2026-12-03T00:05:00Z"), "UTC")).toBe("Thu, Dec 3, 00:05 (UTC)");
  });
});
