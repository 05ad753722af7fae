import path from "node:path";
import { defineConfig } from "@playwright/test";
import base, { e2eEnv } from "../../playwright.config";

/**
 * The editor's e2e and benchmark runs on their own port and database (weft_e2e_editor), so they
 * never reuse or disturb a server another run left on the shared port. Same build, same browser.
 * `npx playwright test -c bench/editor/playwright.config.ts e2e/editor.spec.ts`
 */
const PORT = Number(process.env.EDITOR_E2E_PORT ?? 3107);
const baseURL = `http://localhost:${PORT}`;
const root = path.resolve(import.meta.dirname, "../..");
const env = { ...e2eEnv, DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/weft_e2e_editor", AUTH_URL: baseURL };

export default defineConfig({
  ...base,
  testDir: root,
  testMatch: ["e2e/editor*.spec.ts", "bench/editor/*.bench.ts"],
  outputDir: path.join(root, "test-results/editor"),
  use: { ...base.use, baseURL },
  webServer: {
    command: `npx tsx e2e/prepare-db.ts && npx next build && npx next start -p ${PORT}`,
    cwd: root,
    url: `${baseURL}/api/health`,
    env,
    reuseExistingServer: process.env.EDITOR_E2E_REUSE === "1",
    timeout: 300_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});
