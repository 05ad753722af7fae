import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

/** Admin connection URL (the `postgres` maintenance database on the same server as DATABASE_URL). */
export function adminUrl(): string {
  const base = new URL(process.env.TEST_DATABASE_SERVER ?? "postgresql://postgres@127.0.0.1:5432/postgres");
  base.pathname = "/postgres";
  return base.toString();
}

export function urlFor(database: string): string {
  const u = new URL(adminUrl());
  u.pathname = `/${database}`;
  return u.toString();
}

const migrationsDir = path.resolve(import.meta.dirname, "../prisma/migrations");

export function migrationFiles(): string[] {
  return fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.join(migrationsDir, d.name, "migration.sql"))
    .filter((f) => fs.existsSync(f))
    .sort();
}

/** Template database name: changes whenever a migration changes, so parallel runs never clash. */
export function templateName(): string {
  const h = createHash("sha256");
  for (const f of migrationFiles()) h.update(fs.readFileSync(f));
  return `weft_tpl_${h.digest("hex").slice(0, 12)}`;
}

export async function withAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates the migrated template database once (idempotent, safe under concurrent runs). */
export async function ensureTemplate(): Promise<string> {
  const name = templateName();
  await withAdmin(async (admin) => {
    await admin.query("SELECT pg_advisory_lock(4242)");
    try {
      const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (exists.rowCount) return;
      const building = `${name}_build`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${building}"`);
      const c = new pg.Client({ connectionString: urlFor(building) });
      await c.connect();
      try {
        for (const f of migrationFiles()) await c.query(fs.readFileSync(f, "utf8"));
      } finally {
        await c.end();
      }
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      await dropStale(admin);
    } finally {
      await admin.query("SELECT pg_advisory_unlock(4242)");
    }
  });
  return name;
}

/** Drops test databases left behind by crashed runs (older than two hours) and old templates. */
async function dropStale(admin: pg.Client): Promise<void> {
  const rows = await admin.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE datname LIKE 'weft_t_%' OR datname LIKE 'weft_tpl_%'",
  );
  const cutoff = Date.now() - 2 * 3600_000;
  for (const { datname } of rows.rows) {
    const stamp = Number(datname.split("_")[2]);
    const staleTest = datname.startsWith("weft_t_") && Number.isFinite(stamp) && stamp < cutoff;
    const oldTemplate = datname.startsWith("weft_tpl_") && datname !== templateName();
    if (staleTest || oldTemplate) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
}
