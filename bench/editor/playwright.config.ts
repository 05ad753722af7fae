import path from "node:path";
import { defineConfig } from "@playwright/test";
import base, { e2eEnv } from "../../playwright.config";

/**
 * The editor's e2e and benchmark runs on their own port and database (weft_e2e_editor), so they
 * never reuse or disturb a server another run left on the shared port. Same build, same browser.
 * `npx playwright test -c bench/editor/playwright.config.ts e2e/editor.spec.ts`
 */
const SLOT = Number(process.env.E2E_SLOT ?? 0);
const PORT = Number(process.env.EDITOR_E2E_PORT ?? 3107 + 20 * SLOT);
const suffix = SLOT ? `_s${SLOT}` : "";
const baseURL = `http://localhost:${PORT}`;
const root = path.resolve(import.meta.dirname, "../..");
const MODEL_PORT = PORT + 1000;
const WORKER_HEALTH_PORT = PORT + 10;
const env = {
  ...e2eEnv,
  DATABASE_URL: `postgresql://postgres@127.0.0.1:5432/weft_e2e_editor${suffix}`,
  AUTH_URL: baseURL,
  WEFT_QUEUE_PREFIX: `weft-e2e-editor${suffix}`,
  WEFT_SCRIPTED_MODEL_PORT: String(MODEL_PORT),
  WEFT_WORKER_HEALTH_PORT: String(WORKER_HEALTH_PORT),
};
const reuse = process.env.EDITOR_E2E_REUSE === "1";
// Tells the run test where the scripted model's control endpoint is (workers inherit process.env).
process.env.EDITOR_E2E_MODEL_URL = `http://127.0.0.1:${MODEL_PORT}`;

export default defineConfig({
  ...base,
  testDir: root,
  testMatch: ["e2e/editor*.spec.ts", "bench/editor/*.bench.ts"],
  outputDir: path.join(root, "test-results/editor"),
  use: { ...base.use, baseURL },
  // The app (fresh database, production build), then the scripted model and a worker for runs.
  webServer: [
    {
      command: `npx tsx e2e/prepare-db.ts && npx next build && npx next start -p ${PORT}`,
      cwd: root,
      url: `${baseURL}/api/health`,
      // Its own build directory, so neither `.next` (dev, `npm run up`) nor the shared e2e build is touched.
      env: { ...env, NEXT_DIST_DIR: "bench/.tmp/next" },
      reuseExistingServer: reuse,
      timeout: 1_800_000,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      command: `npx tsx --conditions=react-server lib/llm/scripted/cli.ts --port ${MODEL_PORT}`,
      cwd: root,
      url: `http://127.0.0.1:${MODEL_PORT}/v1/models`,
      env,
      reuseExistingServer: reuse,
      timeout: 60_000,
    },
    {
      command: "npx tsx --conditions=react-server workers/main.ts",
      cwd: root,
      url: `http://127.0.0.1:${WORKER_HEALTH_PORT}/health`,
      env,
      reuseExistingServer: reuse,
      timeout: 60_000,
    },
  ],
});
