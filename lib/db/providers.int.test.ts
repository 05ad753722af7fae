import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DecryptError } from "@/lib/crypto/secrets";
import { useTestDatabase } from "@/test/db";
import { db } from "./client";
import {
  insertProvider,
  deleteProvider,
  getProvider,
  getProviderSecret,
  listProviders,
  patchProvider,
} from "./providers";
import { getSettings, updateSettings } from "./settings";
import { createUser } from "./users";

const database = useTestDatabase();

// These tests are about keys, on the local setup's URLs: the local setup lets providers reach private addresses.
beforeAll(() => {
  process.env.WEFT_PROVIDER_ALLOW_PRIVATE = "1";
});
afterAll(() => {
  delete process.env.WEFT_PROVIDER_ALLOW_PRIVATE;
});

const CANARY = "sk-canary-7f3e9b1d2c4a5e6f";
const user = (tag: string) =>
  createUser({ email: `${tag}-${Date.now()}@example.com`, name: tag, password: "correct horse battery" });

/** Every row of every table as text: what a leaked database dump would contain. */
async function dumpDatabase(): Promise<string> {
  const client = new pg.Client({ connectionString: database.current.url });
  await client.connect();
  try {
    const tables = await client.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
    );
    const parts: string[] = [];
    for (const { tablename } of tables.rows) {
      const rows = await client.query(`SELECT * FROM "${tablename}"`);
      parts.push(JSON.stringify(rows.rows));
    }
    return parts.join("\n");
  } finally {
    await client.end();
  }
}

describe("lib/db/providers", () => {
  it("never returns the key, stores no plaintext, and decrypts it for the server", async () => {
    const a = await user("p");
    const created = await insertProvider(a.id, {
      name: "OpenAI",
      baseUrl: "https://api.openai.com/v1/",
      defaultModel: "gpt-4o-mini",
      apiKey: CANARY,
    });
    expect(created.apiKeyLast4).toBe(CANARY.slice(-4));
    expect(created.baseUrl).toBe("https://api.openai.com/v1");
    const listed = await listProviders(a.id);
    expect(JSON.stringify(listed)).not.toContain(CANARY);
    expect(JSON.stringify(await getProvider(a.id, created.id))).not.toContain(CANARY);
    expect(Object.keys(listed[0]!)).not.toContain("apiKeyCipher");

    const dump = await dumpDatabase();
    expect(dump).toContain(created.id);
    expect(dump).not.toContain(CANARY);
    expect(dump).not.toContain(Buffer.from(CANARY).toString("base64"));

    expect((await getProviderSecret(a.id, created.id))?.apiKey).toBe(CANARY);
  });

  it("binds the ciphertext to its row: copied into another row it fails to decrypt", async () => {
    const a = await user("aad");
    const one = await insertProvider(a.id, {
      name: "One",
      baseUrl: "http://127.0.0.1:4010/v1",
      defaultModel: "m",
      apiKey: "key-one-1111",
    });
    const two = await insertProvider(a.id, {
      name: "Two",
      baseUrl: "http://127.0.0.1:4010/v1",
      defaultModel: "m",
      apiKey: "key-two-2222",
    });
    const row = await db().modelProvider.findUniqueOrThrow({ where: { id: one.id } });
    await db().modelProvider.update({ where: { id: two.id }, data: { apiKeyCipher: row.apiKeyCipher } });
    await expect(getProviderSecret(a.id, two.id)).rejects.toBeInstanceOf(DecryptError);
  });

  it("another user's provider is invisible and untouchable", async () => {
    const [a, b] = await Promise.all([user("pa"), user("pb")]);
    const p = await insertProvider(a.id, {
      name: "Mine",
      baseUrl: "http://localhost:11434/v1",
      defaultModel: "llama3",
      apiKey: CANARY,
    });
    expect(await listProviders(b.id)).toEqual([]);
    expect(await getProvider(b.id, p.id)).toBeNull();
    expect(await getProviderSecret(b.id, p.id)).toBeNull();
    expect(await patchProvider(b.id, p.id, { apiKey: "stolen" })).toBeNull();
    expect(await deleteProvider(b.id, p.id)).toBe(false);
    await expect(updateSettings(b.id, { designerProviderId: p.id })).rejects.toMatchObject({ code: "not_found" });
    expect((await getProviderSecret(a.id, p.id))?.apiKey).toBe(CANARY);
  });

  it("updates keep, replace or remove the key; duplicate names conflict", async () => {
    const a = await user("u");
    const p = await insertProvider(a.id, {
      name: "Local",
      baseUrl: "http://localhost:11434/v1",
      defaultModel: "llama3",
    });
    expect(p.apiKeyLast4).toBeNull();
    expect((await patchProvider(a.id, p.id, { apiKey: "new-key-9876" }))?.apiKeyLast4).toBe("9876");
    expect((await patchProvider(a.id, p.id, { defaultModel: "qwen" }))?.apiKeyLast4).toBe("9876");
    expect((await getProviderSecret(a.id, p.id))?.apiKey).toBe("new-key-9876");
    expect((await patchProvider(a.id, p.id, { apiKey: null }))?.apiKeyLast4).toBeNull();
    await expect(
      insertProvider(a.id, { name: "Local", baseUrl: "http://x.test/v1", defaultModel: "m" }),
    ).rejects.toMatchObject({ code: "conflict" });
  });

  it("settings default to the demo model and clear a deleted designer provider", async () => {
    const a = await user("s");
    expect(await getSettings(a.id)).toEqual({ designerProviderId: null, designerModel: null, prices: {} });
    const p = await insertProvider(a.id, { name: "P", baseUrl: "http://localhost:1/v1", defaultModel: "m" });
    await updateSettings(a.id, {
      designerProviderId: p.id,
      designerModel: "m",
      prices: { m: { promptPer1M: 1, completionPer1M: 2 } },
    });
    expect((await getSettings(a.id)).designerProviderId).toBe(p.id);
    await deleteProvider(a.id, p.id);
    expect(await getSettings(a.id)).toMatchObject({ designerProviderId: null, designerModel: "m" });
  });
});
