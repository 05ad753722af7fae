import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// Proves the lint zones of eslint.config.mjs fail on the arrows architecture.md forbids.
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, "..") });

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
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
    ["components/runs/x.tsx", 'import { rerun } from "@/lib/runs/dashboard";\nrerun;\n'],
    ["workers/x.ts", 'import { redirect } from "next/navigation";\nredirect("/");\n'],
    ["workers/x.ts", 'import { Button } from "@/components/ui/button";\nButton();\n'],
    ["lib/x.ts", 'import page from "@/app/page";\npage();\n'],
  ])("refuses the forbidden import in %s", async (file, code) => {
    expect(await restricted(file, code)).toHaveLength(1);
  });

  it.each([
    ["lib/workflow/x.ts", 'import { z } from "zod";\nimport { identifier } from "./schema";\nz.string(); identifier.parse("a");\n'],
    ["lib/engine/x.ts", 'import { outcomesOf } from "@/lib/workflow/schema";\noutcomesOf;\n'],
    ["components/editor/x.tsx", 'import { outcomesOf } from "@/lib/workflow/schema";\noutcomesOf;\n'],
    ["components/runs/x.tsx", 'import { runEventSchema } from "@/lib/engine/events";\nrunEventSchema;\n'],
    ["components/runs/x.tsx", 'import { stepView } from "@/lib/runs/dto";\nstepView;\n'],
    ["components/runs/x.tsx", 'import { estimateCost } from "@/lib/runs/cost";\nestimateCost;\n'],
    ["workers/x.ts", 'import { db } from "@/lib/db/client";\ndb();\n'],
  ])("allows the permitted import in %s", async (file, code) => {
    expect(await restricted(file, code)).toEqual([]);
  });
});
