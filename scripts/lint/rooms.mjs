// The rooms of lib/ and which rooms each may import (docs/architecture.md, "Rooms and the import
// direction"). Read by the lint rule in ./rooms-rule.mjs and checked by test/import-direction.test.ts
// (every lib/ folder has a room, the table has no cycle). `lib` is the foundation: lib/env.ts,
// lib/errors.ts, lib/logger.ts, lib/roles.ts, lib/similarity.ts and lib/trusted-proxies.ts, which every room may
// import and which import only lib/workflow. A room may always import itself; workers/ may import any room.

/** @type {Record<string, string[]>} room → the rooms it may import */
export const rooms = {
  lib: ["lib/workflow"],
  "lib/workflow": [],
  "lib/crypto": [],
  "lib/net": [],
  "lib/queue": [],
  "lib/metrics": ["lib/queue"],
  "lib/telemetry": ["lib/engine"],
  "lib/limits": [],
  "lib/llm": ["lib/net"],
  "lib/engine": ["lib/workflow"],
  "lib/db": ["lib/generated", "lib/crypto", "lib/workflow", "lib/engine", "lib/queue"],
  "lib/events": ["lib/db", "lib/generated", "lib/engine", "lib/queue"],
  "lib/auth": ["lib/db", "lib/crypto", "lib/limits", "lib/queue", "lib/net"],
  "lib/notifications": ["lib/db", "lib/generated", "lib/queue", "lib/net", "lib/workflow", "lib/engine"],
  "lib/providers": ["lib/db", "lib/crypto", "lib/llm", "lib/net", "lib/engine", "lib/workflow"],
  "lib/kb": ["lib/db", "lib/generated", "lib/llm", "lib/providers", "lib/net"],
  "lib/designer": ["lib/workflow", "lib/llm", "lib/providers", "lib/db", "lib/generated"],
  "lib/mcp/client": ["lib/db", "lib/net", "lib/engine", "lib/workflow"],
  "lib/tools": [
    "lib/db",
    "lib/generated",
    "lib/crypto",
    "lib/engine",
    "lib/kb",
    "lib/llm",
    "lib/providers",
    "lib/net",
    "lib/mcp/client",
    "lib/workflow",
  ],
  "lib/run-store": ["lib/db", "lib/generated", "lib/engine", "lib/events", "lib/workflow"],
  "lib/runs": [
    "lib/db",
    "lib/generated",
    "lib/engine",
    "lib/events",
    "lib/queue",
    "lib/run-store",
    "lib/workflow",
    "lib/notifications",
    "lib/limits",
    "lib/http",
    "lib/metrics",
    "lib/telemetry",
  ],
  "lib/http": ["lib/auth", "lib/db", "lib/engine", "lib/events", "lib/limits", "lib/queue", "lib/net"],
  "lib/run-views": [
    "lib/db",
    "lib/engine",
    "lib/workflow",
    "lib/auth",
    "lib/http",
    "lib/limits",
    "lib/events",
    "lib/net",
  ],
  "lib/schedules": ["lib/db", "lib/generated", "lib/queue", "lib/runs", "lib/workflow", "lib/engine"],
  "lib/webhooks": ["lib/db", "lib/engine", "lib/http", "lib/runs", "lib/workflow"],
  "lib/evals": [
    "lib/db",
    "lib/generated",
    "lib/engine",
    "lib/llm",
    "lib/providers",
    "lib/queue",
    "lib/runs",
    "lib/run-views",
    "lib/workflow",
  ],
  "lib/mcp/server": [
    "lib/db",
    "lib/engine",
    "lib/runs",
    "lib/tools",
    "lib/workflow",
    "lib/http",
    "lib/limits",
    "lib/evals",
  ],
};

const foundation = new Set([
  "lib/env.ts",
  "lib/errors.ts",
  "lib/logger.ts",
  "lib/similarity.ts",
  "lib/trusted-proxies.ts",
  "lib/roles.ts",
]);

/** The room a repository path (e.g. "lib/runs/service.ts") belongs to, or null outside lib/. */
export function roomOf(file) {
  if (foundation.has(file)) return "lib";
  const parts = file.split("/");
  if (parts[0] !== "lib" || parts.length < 3) return parts[0] === "lib" ? "lib" : null;
  if (parts[1] === "mcp" && parts.length > 3) return `lib/mcp/${parts[2]}`;
  return `lib/${parts[1]}`;
}

/** Test code: test files, the test/ and e2e/ folders, and `testing` modules (test support beside the code). */
export const isTestCode = (file) =>
  /\.(test|spec|bench)\.tsx?$/.test(file) || /^(test|e2e)\//.test(file) || /(^|\/)testing(\/|\.tsx?$)/.test(file);

/** Code that may import test code: test code itself and the benchmarks. */
export const mayImportTests = (file) => isTestCode(file) || file.startsWith("bench/");
