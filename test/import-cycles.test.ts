import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";

// No import cycle between our modules (a cycle makes load order matter and hides layering mistakes).
const root = path.resolve(import.meta.dirname, "..");
const exts = ["", ".ts", ".tsx", ".mjs", "/index.ts", "/index.tsx"];

function sourceFiles(): string[] {
  const out = execFileSync(
    "git",
    ["ls-files", "--cached", "--others", "--exclude-standard", "*.ts", "*.tsx", "*.mjs"],
    {
      cwd: root,
      encoding: "utf8",
    },
  );
  return out.split("\n").filter((f) => f && !f.startsWith("lib/generated/") && fs.existsSync(path.join(root, f)));
}

function resolve(from: string, spec: string, known: Set<string>): string | null {
  let base: string;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith("./") || spec.startsWith("../")) base = path.normalize(path.join(path.dirname(from), spec));
  else return null;
  return exts.map((e) => base + e).find((p) => known.has(p)) ?? null;
}

/** Strongly connected components of more than one module (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

it("has no import cycle among the project's modules", () => {
  const files = sourceFiles();
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(path.join(root, file), "utf8"), true, true);
    graph.set(
      file,
      info.importedFiles.map((i) => resolve(file, i.fileName, known)).filter((f): f is string => !!f),
    );
  }
  expect(graph.size).toBeGreaterThan(500);
  expect(cycles(graph)).toEqual([]);
});
