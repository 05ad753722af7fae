import { randomBytes } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { withAdmin } from "@/test/pg-admin";
import { useTestDatabase } from "@/test/db";
import { isTransientDbError, retryTransientDb } from "./transient";

// A real "too many connections" from PostgreSQL: a role limited to ONE connection (superusers are
// exempt from connection limits, so the test logs in as this role), with that connection held.
const database = useTestDatabase();
const role = `weft_limited_${randomBytes(4).toString("hex")}`;
let url = "";
let holder: pg.Client | undefined;

beforeAll(async () => {
  await withAdmin((a) => a.query(`CREATE ROLE "${role}" LOGIN CONNECTION LIMIT 1`));
  const u = new URL(database.current.url);
  u.username = role;
  url = u.toString();
});

afterAll(async () => {
  await holder?.end().catch(() => undefined);
  await withAdmin((a) => a.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1`, [role]));
  await withAdmin((a) => a.query(`DROP ROLE IF EXISTS "${role}"`));
});

const hold = async (): Promise<pg.Client> => {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
};
// The role's one slot, taken as soon as it is free: a client's end() resolves before its backend has
// exited, and until then PostgreSQL still counts that backend against the role's limit.
const holdFree = () => retryTransientDb(hold, { budgetMs: 10_000 });

afterEach(async () => {
  await holder?.end().catch(() => undefined);
  holder = undefined;
});

describe("transient database errors (real PostgreSQL)", () => {
  it("classifies PostgreSQL's too-many-connections, through pg and through Prisma, and not a SQL error", async () => {
    holder = await holdFree();
    const second = new pg.Client({ connectionString: url });
    const viaPg = await second.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect((viaPg as { code?: string }).code).toBe("53300");
    expect(isTransientDbError(viaPg)).toBe(true);

    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 1 }) });
    const viaPrisma = await prisma.$queryRaw`SELECT 1`.then(
      () => null,
      (e: unknown) => e,
    );
    await prisma.$disconnect();
    expect(viaPrisma).not.toBeNull();
    expect(isTransientDbError(viaPrisma)).toBe(true);

    const syntax = await holder.query("SELEC 1").then(
      () => null,
      (e: unknown) => e,
    );
    expect((syntax as { code?: string }).code).toBe("42601");
    expect(isTransientDbError(syntax)).toBe(false);
  });

  it("retries while the server refuses connections and succeeds once one is free; other errors fail at once", async () => {
    const held = await holdFree();
    setTimeout(() => void held.end(), 400);
    let attempts = 0;
    const answer = await retryTransientDb(async () => {
      attempts++;
      const c = await hold();
      try {
        return (await c.query<{ n: number }>("SELECT 41 + 1 AS n")).rows[0]!.n;
      } finally {
        await c.end();
      }
    });
    expect(answer).toBe(42);
    expect(attempts).toBeGreaterThan(1);

    let failing = 0;
    await expect(
      retryTransientDb(async () => {
        failing++;
        throw Object.assign(new Error("relation does not exist"), { code: "42P01" });
      }),
    ).rejects.toThrow("relation does not exist");
    expect(failing).toBe(1);
  });

  it("gives up after its budget with the last error", async () => {
    holder = await holdFree();
    const started = Date.now();
    await expect(retryTransientDb(() => hold(), { budgetMs: 500 })).rejects.toSatisfy(isTransientDbError);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
