// ESLint rule `weft/rooms`: an import from one lib/ room into another must be allowed by ./rooms.mjs;
// only tests (and benchmarks) import test code; nothing but tests imports workers/.
import fs from "node:fs";
import path from "node:path";
import { isTestCode, mayImportTests, roomOf, rooms } from "./rooms.mjs";

const exts = ["", ".ts", ".tsx", ".mjs", ".js", "/index.ts", "/index.tsx"];

/** The repository path an import specifier names, or null for a package. */
function target(fromFile, spec, root) {
  let base;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith("./") || spec.startsWith("../")) base = path.join(path.dirname(fromFile), spec);
  else return null;
  base = path.normalize(base);
  for (const e of exts)
    if (fs.existsSync(path.join(root, base + e)) && fs.statSync(path.join(root, base + e)).isFile()) return base + e;
  return base; // not (yet) on disk: judge by its path
}

/** Why `from` may not import `to`, or null when it may. */
export function refusal(from, to) {
  if (!mayImportTests(from) && (isTestCode(to) || to.startsWith("test/"))) {
    return `Only tests import test code (${to}); production code gets a production module instead.`;
  }
  if (to.startsWith("workers/") && !from.startsWith("workers/") && !isTestCode(from) && !from.startsWith("bench/")) {
    return "Nothing imports workers/ but tests: workers are the composition root of the worker process.";
  }
  if (isTestCode(from)) return null;
  const a = roomOf(from);
  const b = roomOf(to);
  if (!a || !b || a === b || !a.startsWith("lib") || b === "lib") return null;
  const allowed = rooms[a];
  if (!allowed) return `${a} has no room in scripts/lint/rooms.mjs: add it with the rooms it may import.`;
  if (allowed.includes(b)) return null;
  return `${a} may not import ${b} (allowed: ${allowed.length ? allowed.join(", ") : "the foundation only"}; see scripts/lint/rooms.mjs).`;
}

export const roomsRule = {
  meta: { type: "problem", schema: [], docs: { description: "lib/ rooms import only the rooms below them" } },
  create(context) {
    const root = context.cwd;
    const from = path.relative(root, context.filename).split(path.sep).join("/");
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== "string") return;
      const to = target(from, spec, root);
      if (!to) return;
      const why = refusal(from, to);
      if (why) context.report({ node: node.source, message: why });
    };
    return {
      ImportDeclaration: check,
      ExportAllDeclaration: check,
      ExportNamedDeclaration: (node) => node.source && check(node),
      ImportExpression: check,
    };
  },
};
