import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import {
  API_TOKEN_PREFIX,
  MAX_LIVE_API_TOKENS,
  createApiToken,
  hashApiToken,
  listApiTokens,
  revokeApiToken,
  verifyApiToken,
} from "./api-tokens";
import { db } from "./client";
import { createUser } from "./users";

useTestDatabase();

const user = (tag: string) =>
  createUser({
    email: `${tag}-${Date.now()}-${Math.random()}@example.com`,
    name: tag,
    password: "correct horse battery",
  });

describe("lib/db/api-tokens", () => {
  it("answers the secret once, stores only its hash, and lists the token by its last four characters", async () => {
    const a = await user("tok");
    const created = await createApiToken(a.id, a.id, "  CI script  ");
    expect(created.token.startsWith(API_TOKEN_PREFIX)).toBe(true);
    expect(created).toMatchObject({
      name: "CI script",
      lastFour: created.token.slice(-4),
      lastUsedAt: null,
      revokedAt: null,
    });
    const rows = await db().apiToken.findMany({ where: { workspaceId: a.id } });
    expect(JSON.stringify(rows)).not.toContain(created.token);
    expect(rows[0]?.tokenHash).toBe(hashApiToken(created.token));
    expect(JSON.stringify(await listApiTokens(a.id, a.id))).not.toContain(created.token);
    expect(await verifyApiToken(created.token)).toEqual({
      workspaceId: a.id,
      userId: a.id,
      tokenId: created.id,
      tokenName: "CI script",
    });
    expect((await listApiTokens(a.id, a.id))[0]?.lastUsedAt).toBeInstanceOf(Date);
  });

  it("refuses an empty name and a user's token beyond the live limit; revoked ones free a place", async () => {
    const a = await user("limit");
    await expect(createApiToken(a.id, a.id, "   ")).rejects.toThrow("Enter a name");
    const made = [];
    for (let i = 0; i < MAX_LIVE_API_TOKENS; i++) made.push(await createApiToken(a.id, a.id, `t${i}`));
    await expect(createApiToken(a.id, a.id, "one too many")).rejects.toMatchObject({ code: "conflict" });
    expect(await listApiTokens(a.id, a.id)).toHaveLength(MAX_LIVE_API_TOKENS);
    // another user's tokens do not count against this one
    const other = (await user("other")).id;
    expect((await createApiToken(other, other, "theirs")).name).toBe("theirs");

    expect(await revokeApiToken(a.id, a.id, made[0]!.id)).toBe(true);
    expect(await revokeApiToken(a.id, a.id, made[0]!.id)).toBe(false);
    expect(await verifyApiToken(made[0]!.token)).toBeNull();
    expect((await createApiToken(a.id, a.id, "replacement")).name).toBe("replacement");
  });

  it("revokes only the owner's token", async () => {
    const [a, b] = [await user("own"), await user("thief")];
    const created = await createApiToken(a.id, a.id, "mine");
    expect(await revokeApiToken(b.id, b.id, created.id)).toBe(false);
    expect(await verifyApiToken(created.token)).not.toBeNull();
  });
});
