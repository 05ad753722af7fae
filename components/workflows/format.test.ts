import { describe, expect, it } from "vitest";
import { plural, timeAgo } from "./format";

describe("format", () => {
  const now = new Date("2026-01-10T12:00:00Z");
  it("says just now, minutes, hours and days", () => {
    expect(timeAgo(new Date("2026-01-10T11:59:30Z"), now)).toBe("just now");
    expect(timeAgo(new Date("2026-01-10T11:57:00Z"), now)).toBe("3 minutes ago");
    expect(timeAgo(new Date("2026-01-10T10:00:00Z"), now)).toBe("2 hours ago");
    expect(timeAgo(new Date("2026-01-09T12:00:00Z"), now)).toBe("yesterday");
  });
  it("pluralises", () => {
    expect(plural(1, "version")).toBe("1 version");
    expect(plural(0, "version")).toBe("0 versions");
  });
});
