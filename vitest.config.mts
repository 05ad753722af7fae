import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit tests sit beside their files; integration tests (*.int.test.ts) talk to the real
// PostgreSQL and Redis, each file in a fresh database cloned from a migrated template.
export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "test/server-only-stub.ts"),
    },
  },
  test: {
    include: ["{lib,workers,app,components,test,scripts,bench}/**/*.test.{ts,tsx}"],
    exclude: ["node_modules", "lib/generated", "e2e"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    env: {
      NODE_ENV: "test",
      AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
      WEFT_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    },
    maxWorkers: 2,
  },
});
