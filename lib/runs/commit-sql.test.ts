import { describe, expect, it } from "vitest";
import { preparedCommit, type Parts } from "./commit-sql";

const variants: Parts[] = [false, true].flatMap((results) => [false, true].flatMap((starts) => [false, true].map((skips) => ({ results, starts, skips }))));

describe("preparedCommit", () => {
  it("binds every value it numbers, and nothing else, in each of the 16 statements", () => {
    const names = new Set<string>();
    for (const fresh of [false, true]) {
      for (const parts of variants) {
        const { name, text, params } = preparedCommit(fresh, parts);
        names.add(name);
        const used = new Set([...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
        expect([...used].sort((a, b) => a - b), name).toEqual(params.map((_, i) => i + 1));
        expect(new Set(params).size, name).toBe(params.length);
        expect(params.includes("versionId") && params.includes("inputs"), name).toBe(fresh);
      }
    }
    expect(names.size).toBe(16);
  });

  it("leaves out the CTE, guard and write of each part a commit lacks", () => {
    const none = preparedCommit(false, { results: false, starts: false, skips: false });
    expect(none.text).not.toMatch(/\bres\b|\bst\b|\bsk\b|"Step"/);
    expect(none.params).toEqual(["runId", "version", "owner", "run", "events", "eventCount", "at"]);
    const all = preparedCommit(false, { results: true, starts: true, skips: true });
    for (const part of ["res AS", "st AS", "sk AS", "w_res AS", "w_st AS", "w_sk AS", "NOT EXISTS"]) expect(all.text).toContain(part);
    expect(all.params).toContain("resultCount");
    const startsOnly = preparedCommit(false, { results: false, starts: true, skips: false });
    expect(startsOnly.text).toContain("INSERT INTO \"Step\"");
    expect(startsOnly.text).not.toMatch(/UPDATE "Step"|NOT EXISTS/);
  });

  it("only a parking commit releases the lease and sets waitingSince", () => {
    const parked = preparedCommit(false, { results: false, starts: false, skips: false, park: true });
    expect(parked.text).toContain(`"leaseOwner" = NULL`);
    expect(parked.text).toContain(`"waitingSince" =`);
    for (const parts of variants) expect(preparedCommit(false, parts).text).not.toMatch(/waitingSince|"leaseOwner" = NULL/);
  });

  it("builds each statement once per process", () => {
    const parts = { results: true, starts: true, skips: false };
    expect(preparedCommit(false, parts)).toBe(preparedCommit(false, parts));
  });
});
