import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { roomOf, rooms } from "@/scripts/lint/rooms.mjs";

// Proves the lint rules of eslint.config.mjs fail on the arrows docs/architecture.md forbids.
const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root });

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === "no-restricted-imports" || m.ruleId === "weft/rooms")
    .map((m) => m.message);
}

describe("import direction", () => {
  it.each([
    ["lib/workflow/x.ts", 'import { db } from "@/lib/db/client";\ndb();\n'],
    ["lib/workflow/x.ts", 'import fs from "node:fs";\nfs.statSync(".");\n'],
    ["lib/workflow/x.ts", 'import { plan } from "../engine/planner";\nplan();\n'],
    ["lib/engine/x.ts", 'import { Queue } from "bullmq";\nnew Queue("q");\n'],
    ["lib/engine/x.ts", 'import { db } from "@/lib/db/client";\ndb();\n'],
    ["lib/db/x.ts", 'import { Button } from "@/components/ui/button";\nButton();\n'],
    ["components/editor/x.tsx", 'import { db } from "@/lib/db/client";\ndb();\n'],
    ["components/runs/x.tsx", 'import { runJob } from "@/lib/engine/driver";\nrunJob;\n'],
    ["components/runs/x.tsx", 'import { getRunDashboard } from "@/lib/run-views/dashboard";\ngetRunDashboard;\n'],
    ["workers/x.ts", 'import { redirect } from "next/navigation";\nredirect("/");\n'],
    ["workers/x.ts", 'import { Button } from "@/components/ui/button";\nButton();\n'],
    ["lib/x.ts", 'import page from "@/app/page";\npage();\n'],
  ])("refuses the forbidden import in %s", async (file, code) => {
    expect(await restricted(file, code)).not.toEqual([]);
  });

  // Arrows that ran upward or sideways before the rooms were linted: each must stay refused.
  it.each([
    [
      "an MCP tool starting runs from lib/tools",
      "lib/tools/mcp.ts",
      'import { startRun } from "@/lib/runs/service";\nstartRun;\n',
    ],
    [
      "a built-in tool reaching the run service's resolver",
      "lib/tools/builtins/kb.ts",
      'import { x } from "@/lib/runs/service";\nx;\n',
    ],
    [
      "the run service wiring the tool registry",
      "lib/runs/engine-ports.ts",
      'import { executeTool } from "@/lib/tools/registry";\nexecuteTool;\n',
    ],
    [
      "the knowledge base using a tool's converter",
      "lib/kb/convert.ts",
      'import { pageMarkdown } from "@/lib/tools/builtins/markdown";\npageMarkdown;\n',
    ],
    [
      "notifications using the tools' network guard",
      "lib/notifications/send.ts",
      'import { x } from "@/lib/tools/registry";\nx;\n',
    ],
    [
      "the database layer using run DTOs",
      "lib/db/runs.ts",
      'import { stepView } from "@/lib/run-views/dto";\nstepView;\n',
    ],
    [
      "the database layer using the run service",
      "lib/db/runs.ts",
      'import { startRun } from "../runs/service";\nstartRun;\n',
    ],
    ["the database layer using auth", "lib/db/users.ts", 'import { auth } from "@/lib/auth";\nauth;\n'],
    [
      "production code using an engine test helper",
      "app/api/designer/dry-run.ts",
      'import { x } from "@/lib/engine/testing/fakes";\nx;\n',
    ],
    [
      "production code using the test database",
      "lib/kb/search.ts",
      'import { useTestDatabase } from "@/test/db";\nuseTestDatabase;\n',
    ],
    [
      "a route importing a worker",
      "app/api/runs/route.ts",
      'import { startRunWorker } from "@/workers/run-worker";\nstartRunWorker;\n',
    ],
    [
      "the run store using the run service",
      "lib/run-store/x.ts",
      'import { startRun } from "@/lib/runs/service";\nstartRun;\n',
    ],
    ["the foundation using a room", "lib/logger.ts", 'import { env } from "@/lib/db/client";\nenv;\n'],
    ["an unknown lib room", "lib/newroom/x.ts", 'import { db } from "@/lib/db/client";\ndb;\n'],
  ])("refuses %s", async (_what, file, code) => {
    expect(await restricted(file, code)).not.toEqual([]);
  });

  it.each([
    [
      "lib/workflow/x.ts",
      'import { z } from "zod";\nimport { identifier } from "./schema";\nz.string(); identifier.parse("a");\n',
    ],
    ["lib/engine/x.ts", 'import { outcomesOf } from "@/lib/workflow/schema";\noutcomesOf;\n'],
    ["components/editor/x.tsx", 'import { outcomesOf } from "@/lib/workflow/schema";\noutcomesOf;\n'],
    ["components/runs/x.tsx", 'import { runEventSchema } from "@/lib/engine/events";\nrunEventSchema;\n'],
    ["components/runs/x.tsx", 'import { stepView } from "@/lib/run-views/dto";\nstepView;\n'],
    ["components/runs/x.tsx", 'import { estimateCost } from "@/lib/run-views/cost";\nestimateCost;\n'],
    ["workers/x.ts", 'import { db } from "@/lib/db/client";\ndb();\n'],
    ["lib/tools/x.ts", 'import { guardedFetch } from "@/lib/net";\nguardedFetch;\n'],
    ["lib/mcp/server/x.ts", 'import { startRun } from "@/lib/runs/service";\nstartRun;\n'],
    ["lib/runs/x.test.ts", 'import { useTestDatabase } from "@/test/db";\nuseTestDatabase;\n'],
    ["bench/x.ts", 'import { useTestDatabase } from "@/test/db";\nuseTestDatabase;\n'],
    ["test/x.ts", 'import { startRunWorker } from "@/workers/run-worker";\nstartRunWorker;\n'],
  ])("allows the permitted import in %s", async (file, code) => {
    expect(await restricted(file, code)).toEqual([]);
  });
});

describe("rooms", () => {
  const libFolders = fs
    .readdirSync(path.join(root, "lib"), { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== "generated")
    .flatMap((d) => (d.name === "mcp" ? ["client", "server"].map((s) => `lib/mcp/${s}`) : [`lib/${d.name}`]));

  it("gives every lib/ folder a room with its allowed imports", () => {
    expect(libFolders.filter((folder) => !(folder in rooms))).toEqual([]);
    expect(Object.keys(rooms).filter((room) => room !== "lib" && !libFolders.includes(room))).toEqual([]);
  });

  it("places files by their folder (mcp's client and server are rooms of their own)", () => {
    expect(roomOf("lib/runs/service.ts")).toBe("lib/runs");
    expect(roomOf("lib/mcp/server/workflows.ts")).toBe("lib/mcp/server");
    expect(roomOf("lib/logger.ts")).toBe("lib");
    expect(roomOf("workers/run-worker.ts")).toBeNull();
  });

  it("keeps the room table free of cycles (a room never reaches itself through what it may import)", () => {
    const reaches = (from: string, seen = new Set<string>()): Set<string> => {
      for (const next of rooms[from] ?? []) if (!seen.has(next)) reaches(next, seen.add(next));
      return seen;
    };
    expect(Object.keys(rooms).filter((room) => reaches(room).has(room))).toEqual([]);
  });

  it("has no lib/ file beside a folder of the same name", () => {
    const entries = fs.readdirSync(path.join(root, "lib"));
    expect(entries.filter((e) => e.endsWith(".ts") && entries.includes(e.replace(/\.ts$/, "")))).toEqual([]);
  });
});
