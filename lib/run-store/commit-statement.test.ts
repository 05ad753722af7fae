import { describe, expect, it } from "vitest";
import { preparedCommit, type Parts } from "./commit-statement";

/** Every shape of commit: each part absent, a set, or (results, skips) exactly one. */
const variants: Parts[] = [false, true].flatMap((results) =>
  [false, true].flatMap((starts) =>
    [false, true].flatMap((skips): Parts[] => {
      const base = { results, starts, skips };
      const ones = [{}, ...(results ? [{ oneResult: true }] : [])].flatMap((r) => [
        r,
        ...(skips ? [{ ...r, oneSkip: true }] : []),
      ]);
      return ones.map((o) => ({ ...base, ...o }));
    }),
  ),
);

describe("preparedCommit", () => {
  it("binds every value it numbers, and nothing else, in each of the 18 statements", () => {
    const names = new Set<string>();
    for (const parts of variants) {
      const { name, text, params } = preparedCommit(parts);
      names.add(name);
      const used = new Set([...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
      expect(
        [...used].sort((a, b) => a - b),
        name,
      ).toEqual(params.map((_, i) => i + 1));
      expect(new Set(params).size, name).toBe(params.length);
    }
    expect(names.size).toBe(18);
  });

  it("leaves out the CTE, guard and write of each part a commit lacks", () => {
    const none = preparedCommit({ results: false, starts: false, skips: false });
    expect(none.text).not.toMatch(/\bres\b|\bst\b|\bsk\b|"Step"/);
    expect(none.params).toEqual(["runId", "version", "owner", "run", "events", "eventCount", "at"]);
    const all = preparedCommit({ results: true, starts: true, skips: true });
    for (const part of ["res AS", "st AS", "sk AS", "w_res AS", "w_st AS", "w_sk AS", "NOT EXISTS"])
      expect(all.text).toContain(part);
    expect(all.params).toContain("resultCount");
    const startsOnly = preparedCommit({ results: false, starts: true, skips: false });
    expect(startsOnly.text).toContain('INSERT INTO "Step"');
    expect(startsOnly.text).not.toMatch(/UPDATE "Step"|NOT EXISTS/);
  });

  it("one result is bound as one object and its row found by the whole key; several are a set, each member looked up by key", () => {
    const one = preparedCommit({ results: true, oneResult: true, starts: true, skips: false });
    const i = one.params.indexOf("results") + 1;
    expect(one.text).toContain(`jsonb_to_record($${i}::jsonb)`);
    expect(one.text).not.toContain("jsonb_to_recordset($" + i);
    expect(one.text).toContain(
      `s."nodeId" = ($${i}::jsonb->>'nodeId') AND s.iteration = ($${i}::jsonb->>'iteration')::int AND s.attempt = ($${i}::jsonb->>'attempt')::int`,
    );
    expect(one.params).not.toContain("resultCount");
    const many = preparedCommit({ results: true, starts: true, skips: false });
    expect(many.text).toContain(`jsonb_to_recordset($${many.params.indexOf("results") + 1}::jsonb)`);
    expect(many.text).toContain(`s."nodeId" = res."nodeId"`);
    // per member, never flattened into a join over the run's rows (run-sql.int.test.ts reads the plan)
    expect(many.text).toContain(
      `FROM res CROSS JOIN LATERAL (SELECT 1 FROM "Step" s WHERE s."runId" = $1 AND s."nodeId" = res."nodeId"`,
    );
    expect(many.text).toMatch(/CROSS JOIN LATERAL \(SELECT s\.id FROM "Step" s WHERE [^)]* LIMIT 1\) hit\) res, bump/);
    expect(many.text).not.toMatch(/JOIN "Step" s ON/);
    const manySkips = preparedCommit({ results: false, starts: false, skips: true });
    expect(manySkips.text).toContain(
      `NOT EXISTS (SELECT 1 FROM sk CROSS JOIN LATERAL (SELECT 1 FROM "Step" s WHERE s."runId" = $1 AND s."nodeId" = sk."nodeId" AND s.iteration = sk.iteration LIMIT 1) hit)`,
    );
    expect(many.params).toContain("resultCount");
    expect(one.name).not.toBe(many.name);
    const oneSkip = preparedCommit({ results: false, starts: false, skips: true, oneSkip: true });
    const k = oneSkip.params.indexOf("skips") + 1;
    expect(oneSkip.text).toContain(`jsonb_to_record($${k}::jsonb)`);
    expect(oneSkip.text).toContain(
      `NOT EXISTS (SELECT 1 FROM "Step" s WHERE s."runId" = $1 AND s."nodeId" = ($${k}::jsonb->>'nodeId') AND s.iteration = ($${k}::jsonb->>'iteration')::int)`,
    );
  });

  it("only a parking commit releases the lease and sets waitingSince", () => {
    const parked = preparedCommit({ results: false, starts: false, skips: false, park: true });
    expect(parked.text).toContain(`"leaseOwner" = NULL`);
    expect(parked.text).toContain(`"waitingSince" =`);
    for (const parts of variants) expect(preparedCommit(parts).text).not.toMatch(/waitingSince|"leaseOwner" = NULL/);
  });

  it("builds each statement once per process", () => {
    const parts = { results: true, starts: true, skips: false };
    expect(preparedCommit(parts)).toBe(preparedCommit(parts));
  });
});
