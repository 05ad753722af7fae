import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

// Finds the spec codes the tree cites and the headings docs/ gives them (test/spec-codes.test.ts).

/** The repository root. */
export const root = path.resolve(import.meta.dirname, "../..");

/** Files whose text may cite a code or point to a document: code, tests, READMEs, SQL, config. */
const TEXT = /\.(ts|tsx|mts|cts|mjs|cjs|js|md|prisma|sql|ya?ml|css)$/;

/** Tracked and new (not ignored) text files, repository-relative; the generated Prisma client is left out. */
export function textFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  });
  return out
    .split("\n")
    .filter((f) => TEXT.test(f) && !f.startsWith("lib/generated/") && fs.existsSync(path.join(root, f)));
}

/** One citation: the code as a heading names it (e.g. "R7", "B4a", "house rule 2", "scenario A") and where. */
export interface Citation {
  code: string;
  file: string;
  line: number;
}

/** Spec code families: engine rules R, durability D, live status S, sandbox X, web W, model-facing L, benchmarks B. */
const FAMILIES = "RDSXWLB";
/** A code (`R7`, `B4a`) or a range of one family (`R1–R10`, `D6-D10`, `B4a–c`). */
const CODE = new RegExp(
  `(?<![\\w#$@/.\\-[])([${FAMILIES}])(\\d{1,2})([a-c]?)(?:\\s*[–-]\\s*\\1?(\\d{1,2})?([a-c])?)?(?![\\w\\]])`,
  "g",
);
const HOUSE_RULE = /house rules? (\d+)/gi;
const SCENARIO = /\bscenarios?(?: fixtures)? ([A-E])(?:\s*(?:[–-]|and)\s*([A-E]))?\b/gi;

/**
 * Text that looks like a code and is not one, each blanked before scanning: vector norms
 * ("L2-normalised"). Knowledge-base answers label their sources S1, S2 … and cite them as [S1]: in
 * knowledge-base files the S family is not read at all (KB_FILE).
 */
const NOT_CODES = [/\bL2[- ]normali[sz]\w*/g];
const KB_FILE = /(^|\/)(kb|knowledge)(\/|\.|-)|^lib\/llm\/scripted\//;

/** Codes a range stands for: R1–R3 → R1, R2, R3; B4a–c → B4a, B4b, B4c. */
function expand(family: string, from: number, suffix: string, to?: number, toSuffix?: string): string[] {
  if (to === undefined && !toSuffix) return [`${family}${from}${suffix}`];
  if (toSuffix && suffix && (to === undefined || to === from)) {
    const letters = "abc".slice("abc".indexOf(suffix), "abc".indexOf(toSuffix) + 1).split("");
    return letters.map((l) => `${family}${from}${l}`);
  }
  if (to === undefined || to < from || to - from > 20) return [`${family}${from}${suffix}`];
  return Array.from({ length: to - from + 1 }, (_, i) => `${family}${from + i}`);
}

/** The codes one line of text cites. `file` decides which families are read (see KB_FILE). */
export function codesIn(text: string, file = ""): string[] {
  let line = text;
  for (const p of NOT_CODES) line = line.replace(p, (m) => " ".repeat(m.length));
  const found: string[] = [];
  for (const m of line.matchAll(CODE)) {
    const [, family, from, suffix, to, toSuffix] = m;
    if (family === "S" && KB_FILE.test(file)) continue;
    found.push(...expand(family!, Number(from), suffix ?? "", to === undefined ? undefined : Number(to), toSuffix));
  }
  for (const m of line.matchAll(HOUSE_RULE)) found.push(`house rule ${m[1]}`);
  for (const m of line.matchAll(SCENARIO)) {
    const a = m[1]!.toUpperCase().charCodeAt(0);
    const b = (m[2] ?? m[1]!).toUpperCase().charCodeAt(0);
    for (let c = a; c <= Math.max(a, b); c++) found.push(`scenario ${String.fromCharCode(c)}`);
  }
  return found;
}

/** Every citation in the tree's text files. */
export function citations(files = textFiles()): Citation[] {
  const out: Citation[] = [];
  for (const file of files) {
    const lines = fs.readFileSync(path.join(root, file), "utf8").split("\n");
    lines.forEach((text, i) => {
      for (const code of codesIn(text, file)) out.push({ code, file, line: i + 1 });
    });
  }
  return out;
}

/** A document's heading texts, in order. Fenced code blocks are skipped. */
export function headings(markdown: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) out.push(m[1]!);
  }
  return out;
}

/** The code a heading gives a home to, if any: "R7 Durability" → "R7", "House rule 2: …" → "house rule 2". */
export function headingCode(heading: string): string | null {
  const code = /^([RDSXWLB]\d{1,2}[a-c]?)\b/.exec(heading);
  if (code) return code[1]!;
  const rule = /^house rule (\d+)\b/i.exec(heading);
  if (rule) return `house rule ${rule[1]}`;
  const scenario = /^scenario ([A-E])\b/i.exec(heading);
  return scenario ? `scenario ${scenario[1]!.toUpperCase()}` : null;
}

/** The docs/ documents by file name. */
export function docs(): Map<string, string> {
  const dir = path.join(root, "docs");
  return new Map(
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".md"))
      .map((f) => [f, fs.readFileSync(path.join(dir, f), "utf8")]),
  );
}

/** Codes that have a heading somewhere in the given documents, with the document holding it. */
export function headed(documents: Map<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, text] of documents) {
    for (const h of headings(text)) {
      const code = headingCode(h);
      if (code && !out.has(code)) out.set(code, name);
    }
  }
  return out;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** A reference from a file to a Markdown document, and what is wrong with it (null: it resolves). */
export interface Pointer {
  file: string;
  line: number;
  target: string;
  problem: string | null;
}

/** A path to a Markdown file in text (`docs/<name>.md`, a relative link with an anchor); URLs are not read. */
const MD_PATH = /(?<![\w./:-])((?:(?:\([\w-]+\)|[\w.-]+)\/)*[\w-]+\.md)(#[\w-]+)?(?![\w/])/g;
/** Bare names of documents that live in docs/ (a bare `handbook.md` in a test fixture is not one). */
const DOC_NAME = /^(architecture|workflow-[\w-]+|reliability[\w-]*|benchmarks|operations|security|stack|anchors)\.md$/;

/** What is wrong with `target` (+ `anchor`) as seen from `file`, or null when it resolves. */
function problemOf(file: string, target: string, anchor: string | undefined): string | null {
  const bare = !target.includes("/");
  if (bare && !DOC_NAME.test(target)) return null;
  const candidates = bare
    ? [path.join("docs", target), path.join(path.dirname(file), target)]
    : [path.join(path.dirname(file), target), target];
  const inside = candidates.map((c) => path.normalize(c)).filter((c) => !c.startsWith(".."));
  if (inside.length === 0) return null; // outside the repository (../shared/…): not ours to check
  const found = inside.find((c) => fs.existsSync(path.join(root, c)));
  if (!found) return `no such file: ${target}`;
  if (!anchor) return null;
  const slugs = headings(fs.readFileSync(path.join(root, found), "utf8")).map(slug);
  return slugs.includes(anchor.slice(1)) ? null : `no heading ${anchor} in ${found}`;
}

/** Every reference to a Markdown document in the given files, with its problem if it has one. */
export function pointers(files = textFiles()): Pointer[] {
  const out: Pointer[] = [];
  for (const file of files) {
    fs.readFileSync(path.join(root, file), "utf8")
      .split("\n")
      .forEach((text, i) => {
        for (const m of text.matchAll(MD_PATH)) {
          out.push({ file, line: i + 1, target: m[1]! + (m[2] ?? ""), problem: problemOf(file, m[1]!, m[2]) });
        }
        if (!file.endsWith(".md")) return;
        // a link to a heading of the same document: [text](#anchor)
        for (const m of text.matchAll(/\]\((#[\w-]+)\)/g)) {
          out.push({ file, line: i + 1, target: m[1]!, problem: problemOf(file, `./${path.basename(file)}`, m[1]) });
        }
      });
  }
  return out;
}
