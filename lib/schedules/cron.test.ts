import { describe, expect, it } from "vitest";
import { checkCron, isTimeZone } from "./cron";

const from = new Date("2026-12-02T10:30:00Z"); // a Wednesday

describe("checkCron", () => {
  it("answers the next fire times of five cron fields in the schedule's time zone", () => {
    const r = checkCron("0 9 * * 1-5", "Europe/Berlin", from);
    expect(r).toEqual({
      ok: true,
      pattern: "0 9 * * 1-5",
      next: [new Date("2026-12-03T08:00:00Z"), new Date("2026-12-04T08:00:00Z"), new Date("2026-12-07T08:00:00Z")],
    });
    const utc = checkCron("0 9 * * 1-5", "UTC", from);
    expect(utc.ok && utc.next[0]).toEqual(new Date("2026-12-03T09:00:00Z"));
  });

  it("normalises spacing and accepts the named patterns", () => {
    const quarter = checkCron("  */15   *  * * * ", "UTC", from);
    expect(quarter).toMatchObject({ ok: true, pattern: "*/15 * * * *" });
    expect(quarter.ok && quarter.next).toEqual([
      new Date("2026-12-02T10:45:00Z"),
      new Date("2026-12-02T11:00:00Z"),
      new Date("2026-12-02T11:15:00Z"),
    ]);
    const daily = checkCron("@daily", "UTC", from);
    expect(daily).toMatchObject({ ok: true, pattern: "0 0 * * *" });
    expect(daily.ok && daily.next[0]).toEqual(new Date("2026-12-03T00:00:00Z"));
    expect(checkCron("@Weekdays", "UTC", from)).toMatchObject({ ok: true, pattern: "0 0 * * 1-5" });
  });

  it("refuses seconds fields, other field counts, unknown aliases and out-of-range values with a reason", () => {
    for (const bad of ["* * * * * *", "0 9 * *", "@secondly", "@minutely", ""]) {
      const r = checkCron(bad, "UTC", from);
      expect(r.ok, bad).toBe(false);
      expect(r).toMatchObject({ ok: false, field: "cron", message: expect.stringMatching(/five cron fields/) });
    }
    const range = checkCron("61 * * * *", "UTC", from);
    expect(range.ok).toBe(false);
    expect(!range.ok && range.message).toMatch(/^Not a valid cron pattern/);
  });

  it("refuses an unknown time zone", () => {
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(checkCron("0 9 * * *", "Mars/Olympus", from)).toEqual({
      ok: false,
      field: "timezone",
      message: 'Unknown time zone "Mars/Olympus": use an IANA name such as Europe/Berlin or UTC.',
    });
  });
});
