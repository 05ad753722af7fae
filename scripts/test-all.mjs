#!/usr/bin/env node
// `npm test`: every check in one command — lint, formatting (Prettier), typecheck, unit + integration (Vitest, real
// PostgreSQL and Redis), end-to-end (Playwright in /usr/bin/chromium) and the benchmark smokes.
// Ends with a summary that names every failed (✗) and flaky (~) test (so the tail of a CI log says what failed) and
// one line "Tests: N passed, N failed" (the totals of Vitest and Playwright).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkServices } from "./lib/services.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
process.env.NEXT_TELEMETRY_DISABLED = "1";
process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = "1";
const only = process.argv.slice(2); // e.g. `npm test -- unit e2e`
// The first line of a failure, without colour codes, so the summary at the end names what failed.
const firstLine = (text) =>
  String(text ?? "")
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n")
    .find((line) => line.trim())
    ?.trim()
    .slice(0, 300) ?? "(no message)";
const say = (msg) => process.stdout.write(`\x1b[36m[test]\x1b[0m ${msg}\n`);

const problems = await checkServices();
if (problems.length) {
  process.stderr.write(`Cannot run the tests:\n${problems.join("\n")}\n`);
  process.exit(1);
}

fs.mkdirSync("test-results", { recursive: true });
const stages = [
  { name: "lint", cmd: ["npx", "eslint", "--max-warnings=0", "."] },
  { name: "format", cmd: ["npx", "prettier", "--check", "."] },
  { name: "typecheck", cmd: ["npx", "tsc", "--noEmit", "-p", "."] },
  {
    name: "unit",
    cmd: [
      "npx",
      "vitest",
      "run",
      "--reporter=default",
      "--reporter=json",
      "--outputFile.json=test-results/vitest.json",
    ],
    count: () => {
      const r = JSON.parse(fs.readFileSync("test-results/vitest.json", "utf8"));
      const names = r.testResults.flatMap((file) =>
        file.assertionResults
          .filter((t) => t.status === "failed")
          .map((t) => `✗ ${path.relative(root, file.name)} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`),
      );
      // A file that failed before any test ran (an import error, a hook) has no failed test to name.
      const broken = r.testResults
        .filter((file) => file.status === "failed" && !file.assertionResults.some((t) => t.status === "failed"))
        .map((file) => `✗ ${path.relative(root, file.name)}: ${firstLine(file.message)}`);
      return { passed: r.numPassedTests, failed: r.numFailedTests, names: [...names, ...broken] };
    },
  },
  {
    name: "e2e",
    cmd: ["npx", "playwright", "test", "--reporter=list,json"],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: "test-results/playwright.json" },
    when: () => fs.existsSync("playwright.config.ts"),
    count: () => {
      const report = JSON.parse(fs.readFileSync("test-results/playwright.json", "utf8"));
      const s = report.stats;
      const names = (report.errors ?? []).map((e) => `✗ playwright: ${firstLine(e.message)}`);
      const walk = (suite) => {
        for (const spec of suite.specs ?? []) {
          for (const t of spec.tests) {
            if (t.status === "unexpected")
              names.push(`✗ ${spec.file} › ${spec.title}: ${firstLine(t.results.at(-1)?.error?.message)}`);
            // passed on a retry: counted as passed, named so a flake is seen before it fails a run
            if (t.status === "flaky")
              names.push(
                `~ (flaky, passed on retry) ${spec.file} › ${spec.title}: ${firstLine(t.results[0]?.error?.message)}`,
              );
          }
        }
        for (const child of suite.suites ?? []) walk(child);
      };
      for (const suite of report.suites) walk(suite);
      return { passed: s.expected + s.flaky, failed: s.unexpected, names };
    },
  },
  {
    name: "bench",
    cmd: ["npx", "tsx", "--conditions=react-server", "bench/run.ts", "--smoke"],
    when: () => fs.existsSync("bench/run.ts"),
  },
];

let passed = 0;
let failed = 0;
const summary = [];
for (const stage of stages) {
  if (only.length && !only.includes(stage.name)) continue;
  if (stage.when && !stage.when()) continue;
  say(`${stage.name}: ${stage.cmd.join(" ")}`);
  const t0 = Date.now();
  const r = spawnSync(stage.cmd[0], stage.cmd.slice(1), { stdio: "inherit", env: { ...process.env, ...stage.env } });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  let counts = null;
  try {
    counts = stage.count?.() ?? null;
  } catch {
    counts = null;
  }
  if (counts) {
    passed += counts.passed;
    failed += counts.failed;
  }
  const ok = r.status === 0;
  if (!ok && (!counts || counts.failed === 0)) failed += 1; // a stage that failed without counted tests
  summary.push(
    `${ok ? "ok  " : "FAIL"} ${stage.name} (${secs}s)${counts ? ` ${counts.passed} passed, ${counts.failed} failed` : ""}`,
  );
  for (const name of counts?.names ?? []) summary.push(`  ${name}`);
}
say("summary:\n  " + summary.join("\n  "));
process.stdout.write(`Tests: ${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 ? 1 : 0);
