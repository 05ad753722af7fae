/**
 * Recreates the e2e database (default weft_e2e) and applies the migrations with `prisma migrate
 * deploy`. Run by playwright.config.ts's webServer command before the app is built and started.
 */
import { execFileSync } from "node:child_process";
import pg from "pg";

const url = new URL(process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/weft_e2e");
const name = url.pathname.slice(1);
if (!/^weft_e2e[a-z0-9_]*$/.test(name))
  throw new Error(`refusing to recreate ${name}: e2e databases are named weft_e2e*`);

const admin = new URL(url);
admin.pathname = "/postgres";
const client = new pg.Client({ connectionString: admin.toString() });
await client.connect();
try {
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${name}"`);
} finally {
  await client.end();
}
execFileSync("npx", ["prisma", "migrate", "deploy"], {
  stdio: "inherit",
  env: { ...process.env, DATABASE_URL: url.toString() },
});
process.stdout.write(`e2e database ${name} ready\n`);
