/**
 * Benchmark dispatcher: `npm run bench -- <name> [--smoke]` runs bench/<name>/index.ts.
 * `--smoke` with no name runs every benchmark's smoke (seconds each); a smoke fails only on a
 * ≥ 2× regression against the stored JSON in bench/results/ (docs/benchmarks.md).
 */
import fs from "node:fs";
import path from "node:path";

export interface BenchModule {
  /** Full run writes bench/results/<file>.json and returns a one-line summary. */
  run(opts: { smoke: boolean }): Promise<{ summary: string; ok: boolean }>;
  /** false: its smoke is too slow for `npm test` (≥ 60 s) and runs only when named: `npm run bench -- <name> --smoke`. */
  smokeInSuite?: boolean;
}

const dir = import.meta.dirname;
const args = process.argv.slice(2);
const smoke = args.includes("--smoke");
const names = args.filter((a) => !a.startsWith("--"));
const all = fs
  .readdirSync(dir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "index.ts")))
  .map((d) => d.name);
const selected = names.length ? names : smoke ? all : [];
if (!selected.length) {
  process.stderr.write(`usage: npm run bench -- <${all.join("|")}> [--smoke]\n`);
  process.exit(2);
}

let failed = 0;
for (const name of selected) {
  if (!all.includes(name)) {
    process.stderr.write(`no benchmark named ${name} (have: ${all.join(", ")})\n`);
    failed++;
    continue;
  }
  const mod = (await import(path.join(dir, name, "index.ts"))) as BenchModule;
  if (smoke && !names.length && mod.smokeInSuite === false) {
    process.stdout.write(
      `skip bench ${name} (smoke): not in the suite's smoke list; run \`npm run bench -- ${name} --smoke\`\n`,
    );
    continue;
  }
  const t0 = Date.now();
  try {
    const { summary, ok } = await mod.run({ smoke });
    process.stdout.write(
      `${ok ? "ok  " : "FAIL"} bench ${name}${smoke ? " (smoke)" : ""}: ${summary} [${((Date.now() - t0) / 1000).toFixed(1)}s]\n`,
    );
    if (!ok) failed++;
  } catch (e) {
    process.stdout.write(`FAIL bench ${name}: ${(e as Error).stack ?? e}\n`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
