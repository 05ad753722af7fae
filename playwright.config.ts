import { defineConfig } from "@playwright/test";

/**
 * E2E: one production build served on http://localhost:3100 against a fresh `weft_e2e` database
 * (recreated and migrated by e2e/prepare-db.ts in the webServer command). Chromium is the system
 * one at /usr/bin/chromium: nothing is downloaded. Outside CI an already running server is reused.
 * `E2E_SLOT=n` (n ≥ 1) moves every port by 20·n and suffixes the database and queue prefix, so two
 * checkouts on one machine can run their e2e suites at the same time.
 */
const SLOT = Number(process.env.E2E_SLOT ?? 0);
/**
 * Ports fetch() refuses to connect to (the Fetch standard's "bad ports" in the range the slots
 * use: 4190 is slot 4's scripted model port): a port landing on one moves to the next.
 */
const FETCH_BAD_PORTS = new Set([3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697]);
const fetchable = (port: number): number => (FETCH_BAD_PORTS.has(port) ? port + 1 : port);
const PORT = fetchable(3100 + 20 * SLOT);
export const baseURL = `http://localhost:${PORT}`;
/** The e2e scripted model server (not the demo's 4010) and the e2e worker's health port. */
export const SCRIPTED_PORT = fetchable(4110 + 20 * SLOT);
const WORKER_HEALTH_PORT = fetchable(3111 + 20 * SLOT);
const suffix = SLOT ? `_s${SLOT}` : "";

export const e2eEnv = {
  DATABASE_URL: process.env.E2E_DATABASE_URL ?? `postgresql://postgres@127.0.0.1:5432/weft_e2e${suffix}`,
  REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
  AUTH_SECRET: "e2e-auth-secret-e2e-auth-secret-0123456789",
  AUTH_URL: baseURL,
  WEFT_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString("base64"),
  WEFT_QUEUE_PREFIX: `weft-e2e${suffix}`,
  WEFT_SKIP_BUILD_TYPECHECK: "1",
  // run notifications go to a receiver the test starts on this host
  WEFT_NOTIFY_ALLOW_PRIVATE: "true",
  // providers are local test servers, as in the local setup (`npm run up` sets it too)
  WEFT_PROVIDER_ALLOW_PRIVATE: "true",
  // every spec signs accounts up from this one address
  WEFT_SIGN_UP_LIMIT: "100000",
  NEXT_TELEMETRY_DISABLED: "1",
  LOG_LEVEL: "warn",
  WEFT_SCRIPTED_MODEL_PORT: String(SCRIPTED_PORT),
};

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    baseURL,
    browserName: "chromium",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: [
    {
      command: `npx tsx e2e/prepare-db.ts && npx next build && npx next start -p ${PORT}`,
      url: `${baseURL}/api/health`,
      // This run's build lives in its own directory (not `.next`, and not in e2eEnv, which other
      // configs reuse), so a concurrent `next build` elsewhere cannot swap it out mid-run.
      env: { ...e2eEnv, NEXT_DIST_DIR: "e2e/.tmp/next" },
      reuseExistingServer: !process.env.CI,
      // A production build takes several minutes on a loaded 2-core machine.
      timeout: 900_000,
      stdout: "pipe",
      stderr: "pipe",
    },
    // The runtime: the scripted model server on its own port and a run worker (health on its own port).
    {
      // The demo's fixtures, as `npm run up` serves them: the designer corpus and the designed article's run answers included.
      command: "node --import tsx --conditions=react-server lib/llm/scripted/cli.ts",
      url: `http://127.0.0.1:${SCRIPTED_PORT}/v1/models`,
      env: { ...e2eEnv },
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
    {
      command: "node --import tsx --conditions=react-server workers/main.ts",
      url: `http://127.0.0.1:${WORKER_HEALTH_PORT}/health`,
      env: { ...e2eEnv, WEFT_WORKER_HEALTH_PORT: String(WORKER_HEALTH_PORT) },
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
    },
  ],
});
