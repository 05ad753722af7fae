import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";

export type Db = PrismaClient;

const g = globalThis as unknown as { __weftDb?: { url: string; client: PrismaClient } };

/**
 * The process's single PrismaClient (kept on globalThis so Next's hot reload does not open
 * a pool per edit). Rebuilt if DATABASE_URL changed (tests point each file at a fresh database).
 */
export function db(): PrismaClient {
  const url = process.env.DATABASE_URL ?? env().DATABASE_URL;
  if (!g.__weftDb || g.__weftDb.url !== url) {
    const adapter = new PrismaPg({ connectionString: url, max: dbPoolMax() });
    g.__weftDb = { url, client: new PrismaClient({ adapter }) };
  }
  return g.__weftDb.client;
}

/**
 * Connections per pool: WEFT_DB_POOL_MAX (validated by lib/env at start-up), default 10. Read here
 * without the whole env so scripts that only set DATABASE_URL keep working.
 */
export function dbPoolMax(): number {
  const n = Number(process.env.WEFT_DB_POOL_MAX);
  return Number.isInteger(n) && n >= 1 && n <= 100 ? n : 10;
}

/** Closes the pool (worker shutdown, end of a test file). */
export async function disconnectDb(): Promise<void> {
  const current = g.__weftDb;
  g.__weftDb = undefined;
  await current?.client.$disconnect();
}
