import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "prisma/config";

// Machines without internet cannot download Prisma's native schema engine; use the wasm stand-in
// from ../shared/tools when it is present and nothing else was configured.
const shim = path.join(import.meta.dirname ?? __dirname, "../shared/tools/prisma-schema-engine.mjs");
if (!process.env.PRISMA_SCHEMA_ENGINE_BINARY && fs.existsSync(shim)) {
  process.env.PRISMA_SCHEMA_ENGINE_BINARY = shim;
}
process.env.CHECKPOINT_DISABLE ??= "1";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "tsx prisma/seed.ts" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/weft" },
});
