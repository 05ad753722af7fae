import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createUser, verifyCredentials } from "@/lib/db/users";
import { resetEnvCache } from "@/lib/env";
import { closeApiRedis } from "@/lib/queue";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { closeRevocations, publishRevocation } from "@/lib/queue/revocations";
import { changePassword, checkSessionToken, currentSessionVersion, endAllSessions } from "./session-version";

useTestDatabase();
beforeAll(() => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  resetEnvCache();
});
afterAll(async () => {
  await closeRevocations();
  await closeApiRedis();
});

const newUser = (tag: string) =>
  createUser({ email: `${tag}-${Date.now()}@example.com`, name: tag, password: "the first password" });

describe("session versions (finding 10)", () => {
  it("finding 10: after sign-out every session token made before is refused; a new sign-in works", async () => {
    const u = await newUser("signout");
    const issued = await checkSessionToken({}, { id: u.id });
    expect(issued).toMatchObject({ sub: u.id, sv: 0 });
    expect(await checkSessionToken(issued!)).toEqual(issued);
    // a cookie from before session versions existed counts as version 0
    expect(await checkSessionToken({ sub: u.id })).toEqual({ sub: u.id });

    await endAllSessions(u.id);
    expect(await checkSessionToken(issued!)).toBeNull();
    expect(await checkSessionToken({ sub: u.id })).toBeNull();
    const again = await checkSessionToken({}, { id: u.id });
    expect(again).toMatchObject({ sv: 1 });
    expect(await checkSessionToken(again!)).toEqual(again);
  });

  it("finding 10: a password change ends every session and needs the current password", async () => {
    const u = await newUser("password");
    const issued = (await checkSessionToken({}, { id: u.id }))!;
    await expect(
      changePassword(u.id, { current: "not it at all", next: "a brand new password" }),
    ).rejects.toMatchObject({ details: { field: "current" } });
    expect(await checkSessionToken(issued)).toEqual(issued);
    await changePassword(u.id, { current: "the first password", next: "a brand new password" });
    expect(await checkSessionToken(issued)).toBeNull();
    expect(await verifyCredentials(u.email!, "a brand new password")).toMatchObject({ id: u.id });
    expect(await verifyCredentials(u.email!, "the first password")).toBeNull();
  });

  it("a bump made by another process reaches this one's cache when published; a deleted user's token is refused within the cache's 2 s", async () => {
    const u = await newUser("elsewhere");
    const issued = (await checkSessionToken({}, { id: u.id }))!;
    expect(await currentSessionVersion(u.id)).toBe(0);
    // another process signs the user out: the row moves on and the revocation is published
    await db().user.update({ where: { id: u.id }, data: { sessionVersion: { increment: 1 } } });
    await publishRevocation({ kind: "user", userId: u.id });
    await expect.poll(() => checkSessionToken(issued), { timeout: 1_500, interval: 50 }).toBeNull();
    const gone = await newUser("gone");
    const goneToken = (await checkSessionToken({}, { id: gone.id }))!;
    await db().user.delete({ where: { id: gone.id } });
    await expect.poll(() => checkSessionToken(goneToken), { timeout: 3_000, interval: 100 }).toBeNull();
  });
});
