import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { envSchema } from "@/lib/env";
import { rooms } from "@/scripts/lint/rooms.mjs";
import { citations, codesIn, docs, headed, headings, pointers, root, slug, textFiles } from "./helpers/spec-codes";

// The docs the repository owns stay in step with the code: every spec code cited in code and tests
// (R1–R10, D…, S…, X…, W…, L…, B…, "house rule N", "scenario A") has a heading in docs/; every
// reference to a Markdown document resolves (file and heading); the rooms table of
// docs/architecture.md is scripts/lint/rooms.mjs; every variable lib/env.ts reads is in
// docs/operations.md.

const files = textFiles();
const cited = citations(files);

/** Codes cited without a heading in `documents`, each with its first citation. */
function missing(documents: Map<string, string>): string[] {
  const homes = headed(documents);
  const first = new Map<string, string>();
  for (const c of cited) if (!homes.has(c.code) && !first.has(c.code)) first.set(c.code, `${c.file}:${c.line}`);
  return [...first].map(([code, where]) => `${code} (cited at ${where})`).sort();
}

describe("spec codes", () => {
  it("finds the codes the tree is known to cite (the scan is not blind)", () => {
    const codes = new Set(cited.map((c) => c.code));
    for (const code of [
      "R1",
      "R7",
      "R10",
      "D1",
      "D10",
      "S1",
      "X5",
      "W6",
      "L4",
      "B1",
      "B3",
      "house rule 2",
      "house rule 4",
      "scenario A",
    ]) {
      expect(codes, code).toContain(code);
    }
  });

  it("every code cited in code and tests has a heading in docs/", () => {
    expect(missing(docs())).toEqual([]);
  });

  it("a code whose heading is removed is reported", () => {
    const documents = docs();
    const homes = headed(documents);
    // every cited code with a heading, one at a time: remove that heading line, expect the code reported
    const checked = [...new Set(cited.map((c) => c.code))].filter((code) => homes.has(code));
    expect(checked.length).toBeGreaterThan(40);
    for (const code of checked) {
      const name = homes.get(code)!;
      const without = new Map(documents);
      const lines = documents.get(name)!.split("\n");
      const at = lines.findIndex((l) => /^#{1,6}\s/.test(l) && headed(new Map([["x", l]])).get(code) !== undefined);
      without.set(name, lines.filter((_, i) => i !== at).join("\n"));
      expect(
        missing(without).some((m) => m.startsWith(`${code} `)),
        code,
      ).toBe(true);
    }
  });

  it.each([
    ["R1–R10 and D6-D10", ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "D6", "D7", "D8", "D9", "D10"]],
    ["B4a–c, B2b and (S4)", ["B4a", "B4b", "B4c", "B2b", "S4"]],
    ["house rule 2; house rules 4", ["house rule 2", "house rule 4"]],
    ["scenarios A–E", ["scenario A", "scenario B", "scenario C", "scenario D", "scenario E"]],
    ["scenarios C and D end to end", ["scenario C", "scenario D"]],
    ["L2-normalised vectors, #D4D4D8, 0xB2, R2D2, fooB1, x.D4, COVID19", []],
  ])("reads %s", (text, expected) => {
    expect(codesIn(text)).toEqual(expected);
  });

  it("does not read knowledge-base source labels as codes", () => {
    expect(codesIn('answers cite [S1, S3] and "S2"', "lib/kb/answer.ts")).toEqual([]);
    expect(codesIn("S1 replay, B2 paint", "lib/kb/answer.ts")).toEqual(["B2"]);
  });

  it("finds no code in random hex, ids and colours", () => {
    let seed = 20261204;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const hex = (n: number) => Array.from({ length: n }, () => "0123456789ABCDEF"[Math.floor(random() * 16)]).join("");
    for (let i = 0; i < 2_000; i++) {
      const text = `#${hex(6)} 0x${hex(8)} ${hex(8)}-${hex(4)}-${hex(4)}-${hex(12)} sha512-${hex(40)}`;
      expect(codesIn(text), text).toEqual([]);
    }
  });
});

describe("document references", () => {
  it("every reference to a Markdown document names a file that exists, and a heading that exists", () => {
    const broken = pointers(files).filter((p) => p.problem);
    expect(broken.map((p) => `${p.file}:${p.line} → ${p.target}: ${p.problem}`)).toEqual([]);
  });

  it("a reference to a missing document or heading is reported", () => {
    // built from parts, so this file itself cites no missing document
    const [gone, noHeading, oldName] = [
      "docs/" + "nowhere.md",
      "../docs/operations.md" + "#no-such-heading",
      "workflow-" + "semantics.md",
    ];
    const probe = path.join("test", `.spec-codes-probe-${process.pid}.md`);
    fs.writeFileSync(path.join(root, probe), `See ${gone}, [x](${noHeading}) and ${oldName}.\n`);
    try {
      expect(pointers([probe]).map((p) => p.problem)).toEqual([
        `no such file: ${gone}`,
        `no heading #no-such-heading in docs/operations.md`,
        `no such file: ${oldName}`,
      ]);
    } finally {
      fs.rmSync(path.join(root, probe));
    }
  });

  it("the docs/ documents are the ones the code expects", () => {
    for (const name of ["architecture.md", "workflow-model.md", "reliability.md", "benchmarks.md", "operations.md"]) {
      expect([...docs().keys()]).toContain(name);
    }
  });

  it("heading anchors follow GitHub's rule", () => {
    expect(slug("R7 Durability")).toBe("r7-durability");
    expect(slug("House rule 4: a node kind is one registry entry")).toBe(
      "house-rule-4-a-node-kind-is-one-registry-entry",
    );
    expect(slug("B3 Editor at 100, 500 and 2,000 nodes")).toBe("b3-editor-at-100-500-and-2000-nodes");
  });
});

describe("docs that mirror code", () => {
  it("docs/architecture.md's rooms table is scripts/lint/rooms.mjs", () => {
    const text = docs().get("architecture.md")!;
    expect(headings(text)).toContain("Rooms and the import direction");
    const section = text.split("## Rooms and the import direction")[1]!.split(/^## /m)[0]!;
    const table = new Map<string, string[]>();
    for (const line of section.split("\n")) {
      // cells trimmed: a formatter pads them to the column's width
      const cells = line.startsWith("|")
        ? line
            .split("|")
            .slice(1, -1)
            .map((c) => c.trim())
        : [];
      const room = /^`(lib[\w/-]*)`$/.exec(cells[0] ?? "");
      if (!room || cells.length < 3) continue;
      const allowed = [...cells[cells.length - 1]!.matchAll(/`(lib[\w/-]*)`/g)].map((m) => m[1]!).sort();
      table.set(room[1]!, allowed);
    }
    const expected = new Map(
      Object.entries(rooms)
        .filter(([room]) => room !== "lib")
        .map(([room, allowed]) => [room, [...allowed].sort()]),
    );
    expect(Object.fromEntries(table)).toEqual(Object.fromEntries(expected));
  });

  it("every variable lib/env.ts reads is in docs/operations.md's configuration table", () => {
    const text = docs().get("operations.md")!;
    const documented = new Set(
      [...text.matchAll(/^\| (.+?) \|/gm)].flatMap((m) =>
        [...m[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((v) => v[1]!),
      ),
    );
    expect(Object.keys(envSchema.shape).filter((name) => !documented.has(name))).toEqual([]);
  });
});
