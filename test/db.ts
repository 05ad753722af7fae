import { randomBytes } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { ensureTemplate, urlFor, withAdmin } from "./pg-admin";

/** A fresh database cloned from the migrated template; DATABASE_URL points at it for this file. */
export interface TestDatabase {
  name: string;
  url: string;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const template = await ensureTemplate();
  const name = `weft_t_${Date.now()}_${randomBytes(4).toString("hex")}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  return { name, url: urlFor(name) };
}

export async function dropTestDatabase(name: string): Promise<void> {
  await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/**
 * Call at the top of an integration test file: before all tests, clone a fresh database and
 * point DATABASE_URL (and so lib/db) at it; after all, disconnect and drop it.
 */
export function useTestDatabase(): { readonly current: TestDatabase } {
  const holder: { current: TestDatabase } = { current: { name: "", url: "" } };
  beforeAll(async () => {
    holder.current = await createTestDatabase();
    process.env.DATABASE_URL = holder.current.url;
  });
  afterAll(async () => {
    const { disconnectDb } = await import("@/lib/db/client");
    await disconnectDb();
    if (holder.current.name) await dropTestDatabase(holder.current.name);
  });
  return holder;
}

/** A unique BullMQ/Redis key prefix for one test file. */
export const testQueuePrefix = (): string => `weft-test-${randomBytes(4).toString("hex")}`;
